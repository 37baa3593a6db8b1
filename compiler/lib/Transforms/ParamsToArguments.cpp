//===- ParamsToArguments.cpp - the nn-params-to-arguments pass ------------===//
//
// Part of nnc.
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
struct ParamsToArgumentsPass
    : nnc::impl::ParamsToArgumentsPassBase<ParamsToArgumentsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<nn::ParameterOp> params(module.getOps<nn::ParameterOp>());
    if (params.empty())
      return;

    // Functions that read parameters, directly or through calls.
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

    // Leading arguments, one per parameter, in declaration order.
    SmallVector<Type> paramTypes;
    for (nn::ParameterOp p : params)
      paramTypes.push_back(p.getType());
    for (func::FuncOp func : users) {
      if (func.isExternal()) {
        func.emitOpError("declares no body but reads parameters");
        return signalPassFailure();
      }
      SmallVector<unsigned> positions(params.size(), 0);
      SmallVector<DictionaryAttr> attrs;
      SmallVector<Location> locs;
      for (nn::ParameterOp p : params) {
        attrs.push_back(DictionaryAttr::get(
            &getContext(),
            NamedAttribute(StringAttr::get(&getContext(), "nn.param"),
                           StringAttr::get(&getContext(), p.getSymName()))));
        locs.push_back(p.getLoc());
      }
      if (failed(func.insertArguments(positions, paramTypes, attrs, locs)))
        return signalPassFailure();
    }

    // Reads become the arguments; calls pass the caller's arguments on.
    llvm::StringMap<unsigned> index;
    for (auto [i, p] : llvm::enumerate(params))
      index[p.getSymName()] = i;
    module.walk([&](nn::GetParamOp op) {
      auto func = op->getParentOfType<func::FuncOp>();
      op.replaceAllUsesWith(func.getArgument(index.lookup(op.getName())));
      op.erase();
    });
    // Writes become extra results, each materialised in its parameter's
    // argument and tagged {nn.updates = "<name>"}; after bufferization
    // nnc-in-place-updates drops them (the parameter buffer holds the value).
    SmallVector<nn::AssignParamOp> assigns;
    module.walk([&](nn::AssignParamOp op) { assigns.push_back(op); });
    for (nn::AssignParamOp op : assigns) {
      auto func = op->getParentOfType<func::FuncOp>();
      if (!func.isPublic() || func.getBody().getBlocks().size() != 1) {
        op.emitOpError("is supported in single-block public functions only");
        return signalPassFailure();
      }
      OpBuilder b(op);
      Value arg = func.getArgument(index.lookup(op.getName()));
      Value written = bufferization::MaterializeInDestinationOp::create(
                          b, op.getLoc(), op.getValue(), arg)
                          .getResult();
      Operation *ret = func.getBody().front().getTerminator();
      ret->insertOperands(ret->getNumOperands(), written);
      unsigned result = func.getNumResults();
      if (failed(func.insertResult(
              result, written.getType(),
              DictionaryAttr::get(
                  &getContext(),
                  NamedAttribute(StringAttr::get(&getContext(), "nn.updates"),
                                 op.getNameAttr().getAttr())))))
        return signalPassFailure();
      op.erase();
    }
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
