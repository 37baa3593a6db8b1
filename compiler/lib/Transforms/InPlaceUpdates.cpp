//===- InPlaceUpdates.cpp - the nnc-in-place-updates pass -----------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"

namespace nnc {
#define GEN_PASS_DEF_INPLACEUPDATESPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct InPlaceUpdatesPass
    : nnc::impl::InPlaceUpdatesPassBase<InPlaceUpdatesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      llvm::StringMap<Value> params;
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (auto name = nn::getArgParam(func, i))
          params[name.getValue()] = func.getArgument(i);
      llvm::BitVector drop(func.getNumResults());
      Operation *ret = func.getBody().back().getTerminator();
      for (unsigned i = 0; i < func.getNumResults(); ++i) {
        auto name = nn::getResultUpdates(func, i);
        if (!name)
          continue;
        Value param = params.lookup(name.getValue());
        if (!param || !isa<MemRefType>(param.getType())) {
          func.emitOpError("updates '")
              << name.getValue() << "', which it does not take as a buffer";
          return signalPassFailure();
        }
        Value value = ret->getOperand(i);
        if (value != param) {
          OpBuilder b(ret);
          memref::CopyOp::create(b, ret->getLoc(), value, param);
        }
        drop.set(i);
      }
      if (drop.none())
        continue;
      ret->eraseOperands(drop);
      if (failed(func.eraseResults(drop)))
        return signalPassFailure();
    }
  }
};
} // namespace
