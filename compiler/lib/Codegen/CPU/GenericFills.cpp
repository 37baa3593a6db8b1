//===- GenericFills.cpp - the nnc-cpu-generic-fills pass ------------------===//
//
// Part of nnc. A fill's code hardly depends on its buffer's shape, yet one
// kernel per shape cost AlexNet's training program 38 kernels (the padded
// buffers' borders, the zeroed gradients) and a sixth of its LLVM code
// generation time. Each fill an entry point makes now writes a view of its
// buffer with dynamic sizes and strides, so outlining leaves one kernel
// per rank and value.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Utils/MemRefUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_GENERICFILLSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
/// The dimensions of `type` that can merge into one, in runs: a dimension
/// joins the previous run when that run's last stride is its stride times
/// its size (the two walk one contiguous range).
SmallVector<ReassociationIndices> contiguousRuns(MemRefType type,
                                                 ArrayRef<int64_t> strides) {
  SmallVector<ReassociationIndices> runs;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!runs.empty() &&
        strides[runs.back().back()] == strides[d] * type.getDimSize(d))
      runs.back().push_back(d);
    else
      runs.push_back({d});
  }
  return runs;
}

/// `type` with dynamic sizes, offset and strides, but for a unit innermost
/// stride, which stays static so the innermost loop is known contiguous.
MemRefType dynamicType(MemRefType type, ArrayRef<int64_t> strides) {
  SmallVector<int64_t> dynamicStrides(strides.size(), ShapedType::kDynamic);
  if (strides.back() == 1)
    dynamicStrides.back() = 1;
  auto layout = StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic,
                                       dynamicStrides);
  SmallVector<int64_t> sizes(type.getRank(), ShapedType::kDynamic);
  return MemRefType::get(sizes, type.getElementType(), layout,
                         type.getMemorySpace());
}

/// Elements one thread stores at a time when a fill has one dimension.
constexpr int64_t kChunk = 8192;

/// Stores `value` at every element of `view` (sizes and strides dynamic):
/// threads over its rows (every dimension but the innermost, as one index),
/// or over chunks of kChunk elements when it has one dimension; a loop of
/// scalar stores along each row, which LLVM vectorises (or, storing zeros,
/// turns into a memset).
void emitFill(OpBuilder &b, Location loc, Value value, Value view) {
  auto type = cast<MemRefType>(view.getType());
  int64_t rank = type.getRank();
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(memref::DimOp::create(b, loc, view, d));
  Value units = rank == 1
                    ? arith::CeilDivUIOp::create(b, loc, sizes[0], idx(kChunk))
                    : sizes[0];
  for (int64_t d = 1; d + 1 < rank; ++d)
    units = arith::MulIOp::create(b, loc, units, sizes[d]);
  scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{units}, ValueRange{}, std::nullopt,
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value unit = ivs[0], lo = idx(0), hi = sizes.back();
        SmallVector<Value> indices(rank);
        if (rank == 1) {
          lo = arith::MulIOp::create(b, loc, unit, idx(kChunk));
          Value end = arith::AddIOp::create(b, loc, lo, idx(kChunk));
          hi = arith::MinUIOp::create(b, loc, end, sizes[0]);
        }
        for (int64_t d = rank - 2; d >= 0; --d) {
          indices[d] =
              d == 0 ? unit : arith::RemUIOp::create(b, loc, unit, sizes[d]);
          if (d > 0)
            unit = arith::DivUIOp::create(b, loc, unit, sizes[d]);
        }
        auto loop = scf::ForOp::create(b, loc, lo, hi, idx(1));
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          indices.back() = loop.getInductionVar();
          memref::StoreOp::create(b, loc, value, view, indices);
        }
        scf::InParallelOp::create(b, loc);
      });
}

/// Replaces `fill` by the loops of emitFill on its buffer viewed with merged
/// contiguous dimensions and dynamic sizes and strides; false when the
/// buffer's layout is not static.
bool makeGeneric(linalg::FillOp fill) {
  Value out = fill.getOutputs().front();
  std::optional<nnc::StaticLayout> layout = nnc::getStaticLayout(out.getType());
  if (!layout || layout->strides.empty())
    return false;
  auto type = cast<MemRefType>(out.getType());
  OpBuilder b(fill);
  Location loc = fill.getLoc();
  SmallVector<ReassociationIndices> runs =
      contiguousRuns(type, layout->strides);
  if (runs.size() < static_cast<size_t>(type.getRank()) &&
      memref::CollapseShapeOp::isGuaranteedCollapsible(type, runs)) {
    out = memref::CollapseShapeOp::create(b, loc, out, runs);
    type = cast<MemRefType>(out.getType());
    // Merging dimensions of a static layout leaves a static layout.
    layout = nnc::getStaticLayout(type);
    assert(layout && "a collapsed static layout is static");
  }
  Value view =
      memref::CastOp::create(b, loc, dynamicType(type, layout->strides), out);
  emitFill(b, loc, fill.getInputs().front(), view);
  fill->erase();
  return true;
}

struct GenericFillsPass
    : nnc::cpu::impl::GenericFillsPassBase<GenericFillsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // Only the top-level fills of the model's functions (entry points and
    // the training pass they call) become kernels of their own
    // (nnc-cpu-outline-kernels); a fill inside a loop nest keeps its shape.
    if (func.isExternal())
      return;
    SmallVector<linalg::FillOp> fills(
        func.getBody().front().getOps<linalg::FillOp>());
    for (linalg::FillOp fill : fills)
      if (fill.hasPureBufferSemantics())
        makeGeneric(fill);
  }
};
} // namespace
