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
#include "llvm/ADT/SmallPtrSet.h"

namespace nnc {
#define GEN_PASS_DEF_CONCATINTOSLICESPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// The init operand through which a linalg op computes `v` into a
/// tensor.empty, in the concat's block, with `v` an input of the concat
/// once; null otherwise. Other users of `v` read it from the slice
/// (bufferization copies it should the slice be overwritten before they
/// run); other users of the same tensor.empty are unaffected, each use
/// being a tensor of its own.
OpOperand *initOf(Value v, tensor::ConcatOp concat) {
  auto result = dyn_cast<OpResult>(v);
  auto op = v.getDefiningOp<linalg::LinalgOp>();
  if (!op || llvm::count(concat.getInputs(), v) != 1 ||
      op->getBlock() != concat->getBlock() || !op.hasPureTensorSemantics())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(result.getResultNumber());
  if (!init->get().getDefiningOp<tensor::EmptyOp>())
    return nullptr;
  return init;
}

struct Input {
  unsigned index;
  int64_t offset;
  OpOperand *init; // the producer's; null: copied in at the concat
  Operation *producer;
};

/// Uses of a producer's result after the last insert_slice read its slice
/// of the whole result `all` instead, so that bufferization sees no read of
/// a slice after a later producer wrote the buffer (it would copy).
void readFromResult(Value all,
                    ArrayRef<std::pair<Value, tensor::InsertSliceOp>> placed) {
  Operation *last = all.getDefiningOp();
  OpBuilder b(last->getContext());
  b.setInsertionPointAfter(last);
  for (auto [v, insert] : placed) {
    Value slice;
    for (OpOperand &use : llvm::make_early_inc_range(v.getUses())) {
      Operation *at = last->getBlock()->findAncestorOpInBlock(*use.getOwner());
      if (!at || at == last || !last->isBeforeInBlock(at))
        continue;
      if (!slice)
        slice = tensor::ExtractSliceOp::create(
            b, insert.getLoc(), cast<RankedTensorType>(v.getType()), all,
            insert.getMixedOffsets(), insert.getMixedSizes(),
            insert.getMixedStrides());
      use.set(slice);
    }
  }
}

/// Computes the inputs of `concat` into slices of one tensor.
void rewrite(tensor::ConcatOp concat) {
  auto type = cast<RankedTensorType>(concat.getType());
  int64_t dim = concat.getDim(), rank = type.getRank();
  SmallVector<Input> inputs;
  int64_t offset = 0;
  llvm::SmallPtrSet<Operation *, 4> producers;
  for (auto [i, v] : llvm::enumerate(concat.getInputs())) {
    OpOperand *init = initOf(v, concat);
    // One slice per producer: a second result of the same op is copied.
    if (init && !producers.insert(init->getOwner()).second)
      init = nullptr;
    inputs.push_back(
        {unsigned(i), offset, init, init ? init->getOwner() : nullptr});
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
  // Each producer's result and the insert_slice that puts it back.
  SmallVector<std::pair<Value, tensor::InsertSliceOp>> placed;
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
      OpOperand *init = in.init;
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
    auto insert =
        tensor::InsertSliceOp::create(b, loc, v, all, offsets, sizes, strides);
    if (in.producer)
      placed.push_back({v, insert});
    all = insert;
  }
  concat.replaceAllUsesWith(all);
  concat.erase();
  readFromResult(all, placed);
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
