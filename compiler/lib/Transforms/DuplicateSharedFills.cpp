//===- DuplicateSharedFills.cpp - the nnc-duplicate-shared-fills pass -----===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace nnc {
#define GEN_PASS_DEF_DUPLICATESHAREDFILLSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct DuplicateSharedFillsPass
    : nnc::impl::DuplicateSharedFillsPassBase<DuplicateSharedFillsPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> shared;
    getOperation().walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->getResult(0).hasOneUse() &&
          fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
        shared.push_back(fill);
    });
    OpBuilder b(&getContext());
    for (linalg::FillOp fill : shared) {
      Value result = fill->getResult(0);
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : result.getUses())
        uses.push_back(&use);
      // The first user in program order keeps the original.
      auto before = [](OpOperand *x, OpOperand *y) {
        Operation *a = x->getOwner(), *b = y->getOwner();
        return a->getBlock() == b->getBlock() && a != b &&
               a->isBeforeInBlock(b);
      };
      for (size_t i = 1; i < uses.size(); ++i)
        for (size_t j = i; j > 0 && before(uses[j], uses[j - 1]); --j)
          std::swap(uses[j], uses[j - 1]);
      auto empty =
          fill.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>();
      for (OpOperand *use : llvm::drop_begin(uses)) {
        b.setInsertionPoint(use->getOwner());
        Operation *init = b.clone(*empty);
        IRMapping map;
        map.map(empty.getResult(), init->getResult(0));
        use->set(b.clone(*fill, map)->getResult(0));
      }
    }
  }
};
} // namespace
