//===- FillBorders.cpp - the nnc-cpu-fill-borders pass --------------------===//
//
// Part of nnc. A padded buffer is filled whole, then its interior is
// written: the fill shrinks to the border.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_FILLBORDERSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
/// `buf` and every view of it, transitively.
llvm::SetVector<Value> viewsOf(Value buf) {
  llvm::SetVector<Value> views;
  views.insert(buf);
  for (unsigned i = 0; i < views.size(); ++i)
    for (Operation *user : views[i].getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == views[i])
          views.insert(view->getResult(0));
  return views;
}

/// The first op after `fill` in its block that touches `views` other than
/// by making a view; null when none does.
Operation *firstAccess(linalg::FillOp fill,
                       const llvm::SetVector<Value> &views) {
  Block *block = fill->getBlock();
  Operation *first = nullptr;
  for (Value view : views)
    for (Operation *user : view.getUsers()) {
      if (user == fill || isa<ViewLikeOpInterface>(user))
        continue;
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at || !fill->isBeforeInBlock(at))
        continue;
      if (!first || at->isBeforeInBlock(first))
        first = at;
    }
  return first;
}

/// The box `writer` overwrites whole without reading any of `views`: the
/// static unit-stride subview of the filled buffer that is a copy's target,
/// or a linalg op's one output written at every point of a parallel
/// iteration space; null otherwise.
memref::SubViewOp overwrittenBox(Operation *writer,
                                 const llvm::SetVector<Value> &views,
                                 Value buf) {
  auto isBox = [&](Value v) {
    auto box = v.getDefiningOp<memref::SubViewOp>();
    if (!box || box.getSource() != buf || !box.hasUnitStride() ||
        ShapedType::isDynamicShape(box.getStaticOffsets()) ||
        ShapedType::isDynamicShape(box.getStaticSizes()) ||
        box.getSourceType().getRank() != box.getType().getRank())
      return memref::SubViewOp();
    return box;
  };
  if (auto copy = dyn_cast<memref::CopyOp>(writer))
    return views.contains(copy.getSource()) ? memref::SubViewOp()
                                            : isBox(copy.getTarget());
  auto op = dyn_cast<linalg::LinalgOp>(writer);
  if (!op || !op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isPermutation())
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (op.payloadUsesValueFromOperand(init))
    return nullptr;
  for (OpOperand &operand : writer->getOpOperands())
    if (&operand != init && views.contains(operand.get()))
      return nullptr;
  // Nothing nested in the op touches the buffer either.
  bool nested = false;
  writer->walk([&](Operation *inner) {
    if (inner != writer)
      for (Value v : inner->getOperands())
        nested |= views.contains(v);
  });
  return nested ? memref::SubViewOp() : isBox(init->get());
}

/// Replaces `fill` of `buf` by fills of the parts of `buf` outside `box`:
/// per dimension, the slabs before and after the box's extent, within the
/// box along the dimensions before it and whole along those after.
void fillOutside(linalg::FillOp fill, MemRefType type, memref::SubViewOp box) {
  OpBuilder b(fill);
  ArrayRef<int64_t> shape = type.getShape();
  ArrayRef<int64_t> offsets = box.getStaticOffsets();
  ArrayRef<int64_t> sizes = box.getStaticSizes();
  int64_t rank = type.getRank();
  SmallVector<int64_t> ones(rank, 1);
  auto slab = [&](int64_t d, int64_t from, int64_t size) {
    if (size == 0)
      return;
    SmallVector<int64_t> at(rank, 0), extent(shape);
    for (int64_t e = 0; e < d; ++e) {
      at[e] = offsets[e];
      extent[e] = sizes[e];
    }
    at[d] = from;
    extent[d] = size;
    Value part = memref::SubViewOp::create(
        b, fill.getLoc(), fill.getOutputs()[0], at, extent, ones);
    linalg::FillOp::create(b, fill.getLoc(), fill.getInputs(),
                           ValueRange{part});
  };
  for (int64_t d = 0; d < rank; ++d) {
    slab(d, 0, offsets[d]);
    slab(d, offsets[d] + sizes[d], shape[d] - offsets[d] - sizes[d]);
  }
  fill->erase();
}

struct FillBordersPass : nnc::cpu::impl::FillBordersPassBase<FillBordersPass> {
  void runOnOperation() override {
    SmallVector<linalg::FillOp> fills;
    getOperation().walk([&](linalg::FillOp fill) { fills.push_back(fill); });
    for (linalg::FillOp fill : fills) {
      if (!fill.hasPureBufferSemantics())
        continue;
      Value buf = fill.getOutputs()[0];
      auto type = dyn_cast<MemRefType>(buf.getType());
      if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
          !type.getLayout().isIdentity())
        continue;
      llvm::SetVector<Value> views = viewsOf(buf);
      Operation *writer = firstAccess(fill, views);
      memref::SubViewOp box =
          writer ? overwrittenBox(writer, views, buf) : nullptr;
      // Only whole rows of the innermost dimension, so that every part
      // stays contiguous along it; and only when most of the buffer is the
      // box's.
      if (!box || box.getStaticOffsets().back() != 0 ||
          box.getStaticSizes().back() != type.getShape().back() ||
          2 * box.getType().getNumElements() < type.getNumElements())
        continue;
      fillOutside(fill, type, box);
    }
  }
};
} // namespace
