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
  SmallVector<StringAttr> names;
  SmallVector<Type> types;
  SmallVector<Location> locs;
  for (nn::ParameterOp p : params) {
    names.push_back(p.getSymNameAttr());
    types.push_back(p.getType());
    locs.push_back(p.getLoc());
  }
  SmallVector<unsigned> positions(params.size(), 0);
  SmallVector<DictionaryAttr> attrs(params.size());
  for (func::FuncOp func : users) {
    if (func.isExternal())
      return func.emitOpError("declares no body but reads parameters");
    if (failed(func.insertArguments(positions, types, attrs, locs)))
      return failure();
    for (auto [i, name] : llvm::enumerate(names))
      nn::setArgParam(func, i, name);
  }
  return success();
}

/// Writes become extra results, each materialised in its parameter's
/// argument and tagged {nn.updates = "<name>"}; after bufferization
/// nnc-in-place-updates drops them (the parameter buffer holds the value).
LogicalResult writesToResults(ModuleOp module,
                              const llvm::StringMap<unsigned> &index) {
  SmallVector<nn::AssignParamOp> assigns;
  module.walk([&](nn::AssignParamOp op) { assigns.push_back(op); });
  for (nn::AssignParamOp op : assigns) {
    auto func = op->getParentOfType<func::FuncOp>();
    if (!func.isPublic() || func.getBody().getBlocks().size() != 1)
      return op.emitOpError(
          "is supported in single-block public functions only");
    OpBuilder b(op);
    Value arg = func.getArgument(index.lookup(op.getName()));
    Value written = bufferization::MaterializeInDestinationOp::create(
                        b, op.getLoc(), op.getValue(), arg)
                        .getResult();
    Operation *ret = func.getBody().front().getTerminator();
    ret->insertOperands(ret->getNumOperands(), written);
    unsigned result = func.getNumResults();
    if (failed(func.insertResult(result, written.getType(), DictionaryAttr())))
      return failure();
    nn::setResultUpdates(func, result, op.getNameAttr().getAttr());
    op.erase();
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
