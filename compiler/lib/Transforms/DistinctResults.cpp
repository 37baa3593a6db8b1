//===- DistinctResults.cpp - the nnc-distinct-results pass ----------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace nnc {
#define GEN_PASS_DEF_DISTINCTRESULTSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct DistinctResultsPass
    : nnc::impl::DistinctResultsPassBase<DistinctResultsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      Operation *ret = func.getBody().back().getTerminator();
      OpBuilder b(ret);
      llvm::DenseSet<Value> seen;
      for (OpOperand &operand : ret->getOpOperands()) {
        auto type = dyn_cast<MemRefType>(operand.get().getType());
        if (!type || seen.insert(operand.get()).second)
          continue;
        Value copy = memref::AllocOp::create(b, ret->getLoc(), type);
        memref::CopyOp::create(b, ret->getLoc(), operand.get(), copy);
        operand.set(copy);
      }
    }
  }
};
} // namespace
