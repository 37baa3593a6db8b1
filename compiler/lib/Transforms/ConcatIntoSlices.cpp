//===- ConcatIntoSlices.cpp - the nnc-concat-into-slices pass -------------===//
//
// Part of nnc. A tensor.concat bufferizes into a fresh buffer and one copy
// per input. Here every input computed by a linalg op into a tensor.empty
// is computed into its slice of the concatenation instead:
//
//   %all = tensor.empty()                  (before the first such producer)
//   %s0  = tensor.extract_slice %all[...]
//   %a   = linalg.generic ... outs(%s0)
//   %all1 = tensor.insert_slice %a into %all[...]
//   ...
//
// which one-shot bufferization turns into subviews of one allocation that
// the producers write, and no copies. Other inputs are inserted where the
// concat was (a copy, as before).
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace nnc {
#define GEN_PASS_DEF_CONCATINTOSLICESPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// The linalg op computing `v` into a tensor.empty, in the concat's block,
/// with `v` used only by the concat; null otherwise. (Other users of the
/// same tensor.empty are unaffected: each use is a tensor of its own.)
linalg::LinalgOp producerInto(Value v, tensor::ConcatOp concat) {
  auto op = v.getDefiningOp<linalg::LinalgOp>();
  if (!op || !v.hasOneUse() || op->getNumResults() != 1 ||
      op->getBlock() != concat->getBlock() || !op.hasPureTensorSemantics())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!init->get().getDefiningOp<tensor::EmptyOp>())
    return nullptr;
  return op;
}

struct Input {
  unsigned index;
  int64_t offset;
  Operation *producer; // a linalg op; null: copied in at the concat
};

/// Computes the inputs of `concat` into slices of one tensor.
void rewrite(tensor::ConcatOp concat) {
  auto type = cast<RankedTensorType>(concat.getType());
  int64_t dim = concat.getDim(), rank = type.getRank();
  SmallVector<Input> inputs;
  int64_t offset = 0;
  for (auto [i, v] : llvm::enumerate(concat.getInputs())) {
    inputs.push_back({unsigned(i), offset, producerInto(v, concat)});
    offset += cast<RankedTensorType>(v.getType()).getDimSize(dim);
  }
  // The producers in program order, then the copies at the concat.
  llvm::stable_sort(inputs, [&](const Input &a, const Input &b) {
    Operation *x = a.producer ? a.producer : concat.getOperation();
    Operation *y = b.producer ? b.producer : concat.getOperation();
    return x != y && x->isBeforeInBlock(y);
  });
  if (!inputs.front().producer)
    return;
  OpBuilder b(inputs.front().producer);
  Location loc = concat.getLoc();
  Value all =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  for (const Input &in : inputs) {
    Value v = concat.getInputs()[in.index];
    auto vType = cast<RankedTensorType>(v.getType());
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
        strides(rank, b.getIndexAttr(1)), sizes;
    for (int64_t d : vType.getShape())
      sizes.push_back(b.getIndexAttr(d));
    offsets[dim] = b.getIndexAttr(in.offset);
    if (in.producer) {
      b.setInsertionPoint(in.producer);
      OpOperand *init =
          cast<linalg::LinalgOp>(in.producer).getDpsInitOperand(0);
      Operation *empty = init->get().getDefiningOp();
      Value slice = tensor::ExtractSliceOp::create(b, loc, vType, all, offsets,
                                                   sizes, strides);
      init->set(slice);
      if (empty->use_empty())
        empty->erase();
      b.setInsertionPointAfter(in.producer);
    } else {
      b.setInsertionPoint(concat);
    }
    all =
        tensor::InsertSliceOp::create(b, loc, v, all, offsets, sizes, strides);
  }
  concat.replaceAllUsesWith(all);
  concat.erase();
}

struct ConcatIntoSlicesPass
    : nnc::impl::ConcatIntoSlicesPassBase<ConcatIntoSlicesPass> {
  void runOnOperation() override {
    SmallVector<tensor::ConcatOp> concats;
    getOperation().walk([&](tensor::ConcatOp op) {
      if (cast<RankedTensorType>(op.getType()).hasStaticShape())
        concats.push_back(op);
    });
    for (tensor::ConcatOp op : concats)
      rewrite(op);
  }
};
} // namespace
