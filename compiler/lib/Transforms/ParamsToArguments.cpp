//===- ParamsToArguments.cpp - the nn-params-to-arguments pass ------------===//
//
// Part of nnc. Model parameters become function arguments: every function
// that reads or writes one, directly or through calls, takes all of them
// first (tagged nn.param), and writes become results tagged nn.updates.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace nnc {
#define GEN_PASS_DEF_PARAMSTOARGUMENTSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// Functions that read or write parameters, directly or through calls.
llvm::SetVector<func::FuncOp> collectUsers(ModuleOp module) {
  llvm::SetVector<func::FuncOp> users;
  module.walk([&](Operation *op) {
    if (isa<nn::GetParamOp, nn::AssignParamOp>(op))
      users.insert(op->getParentOfType<func::FuncOp>());
  });
  for (bool changed = true; changed;) {
    changed = false;
    module.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (callee && users.contains(callee))
        changed |= users.insert(call->getParentOfType<func::FuncOp>());
    });
  }
  return users;
}

/// Gives each user leading arguments, one per parameter in declaration
/// order, tagged {nn.param = "<name>"}.
LogicalResult addParamArguments(ArrayRef<func::FuncOp> users,
                                ArrayRef<nn::ParameterOp> params) {
  SmallVector<Type> types;
  SmallVector<Location> locs;
  SmallVector<DictionaryAttr> attrs;
  for (nn::ParameterOp p : params) {
    types.push_back(p.getType());
    locs.push_back(p.getLoc());
    attrs.push_back(nn::argParamAttrs(p.getSymNameAttr()));
  }
  SmallVector<unsigned> positions(params.size(), 0);
  for (func::FuncOp func : users) {
    if (func.isExternal())
      return func.emitOpError("declares no body but reads parameters");
    if (failed(func.insertArguments(positions, types, attrs, locs)))
      return failure();
  }
  return success();
}

/// Writes become extra results, each materialised in its parameter's
/// argument and tagged {nn.updates = "<name>"}; after bufferization
/// nnc-in-place-updates drops them (the parameter buffer holds the value).
LogicalResult writesToResults(ModuleOp module,
                              const llvm::StringMap<unsigned> &index) {
  llvm::MapVector<func::FuncOp, SmallVector<nn::AssignParamOp>> assigns;
  WalkResult walk = module.walk([&](nn::AssignParamOp op) {
    auto func = op->getParentOfType<func::FuncOp>();
    if (!func.isPublic() || func.getBody().getBlocks().size() != 1) {
      op.emitOpError("is supported in single-block public functions only");
      return WalkResult::interrupt();
    }
    assigns[func].push_back(op);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // A function's results are added at once: one at a time, each insertion
  // rebuilt its type and every result's attributes (a training step
  // updates hundreds of parameters).
  for (auto &[func, writes] : assigns) {
    Operation *ret = func.getBody().front().getTerminator();
    SmallVector<Value> written;
    SmallVector<Type> types;
    SmallVector<DictionaryAttr> attrs;
    for (nn::AssignParamOp op : writes) {
      OpBuilder b(op);
      Value arg = func.getArgument(index.lookup(op.getName()));
      written.push_back(bufferization::MaterializeInDestinationOp::create(
                            b, op.getLoc(), op.getValue(), arg)
                            .getResult());
      types.push_back(written.back().getType());
      attrs.push_back(nn::resultUpdatesAttrs(op.getNameAttr().getAttr()));
      op.erase();
    }
    ret->insertOperands(ret->getNumOperands(), written);
    SmallVector<unsigned> positions(written.size(), func.getNumResults());
    if (failed(func.insertResults(positions, types, attrs)))
      return failure();
  }
  return success();
}

struct ParamsToArgumentsPass
    : nnc::impl::ParamsToArgumentsPassBase<ParamsToArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<nn::ParameterOp> params(module.getOps<nn::ParameterOp>());
    if (params.empty())
      return;
    llvm::SetVector<func::FuncOp> users = collectUsers(module);
    if (failed(addParamArguments(users.getArrayRef(), params)))
      return signalPassFailure();

    // Reads become the arguments.
    llvm::StringMap<unsigned> index;
    for (auto [i, p] : llvm::enumerate(params))
      index[p.getSymName()] = i;
    module.walk([&](nn::GetParamOp op) {
      auto func = op->getParentOfType<func::FuncOp>();
      op.replaceAllUsesWith(func.getArgument(index.lookup(op.getName())));
      op.erase();
    });
    if (failed(writesToResults(module, index)))
      return signalPassFailure();

    // Calls pass the caller's parameter arguments on.
    module.walk([&](func::CallOp call) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || !users.contains(callee))
        return;
      auto caller = call->getParentOfType<func::FuncOp>();
      SmallVector<Value> operands(
          caller.getArguments().take_front(params.size()));
      llvm::append_range(operands, call.getOperands());
      call->setOperands(operands);
    });
  }
};
} // namespace
