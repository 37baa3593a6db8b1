//===- SplitReductions.cpp - the nnc-cuda-split-reductions pass -----------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace nnc::cuda {
#define GEN_PASS_DEF_SPLITREDUCTIONSPASS
#include "nnc/Codegen/CUDA/Passes.h.inc"
} // namespace nnc::cuda

using namespace mlir;

namespace {
/// The body is `yield(out + f(inputs))` with `out` used once.
bool isSum(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  Value out = body.getArguments().back();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  return add && out.hasOneUse() && (add.getLhs() == out || add.getRhs() == out);
}

/// The result position of loop `d` in `map`, if it is there as a plain
/// dimension.
std::optional<unsigned> position(AffineMap map, unsigned d) {
  for (auto [i, e] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(e); dim && dim.getPosition() == d)
      return i;
  return std::nullopt;
}

/// Where a sum is split: loop `dim` becomes [pieces, size / pieces].
struct Split {
  unsigned dim = 0;
  int64_t pieces = 1;
};

/// The split of `op` (a sum on buffers) that gives about `threads` parallel
/// iterations, each still reducing more than `chunk` elements: the
/// outermost reduction dimension that divides, read by every operand as a
/// plain dimension. Nullopt when the op needs none or allows none.
std::optional<Split> chooseSplit(linalg::GenericOp op, int64_t threads,
                                 int64_t chunk) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.hasIndexSemantics() || op.hasDynamicShape() || !isSum(op))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  int64_t outputs = 1, reduced = 1;
  for (auto [range, iter] : llvm::zip(ranges, iters))
    (iter == utils::IteratorType::parallel ? outputs : reduced) *= range;
  if (outputs >= threads || reduced <= chunk)
    return std::nullopt;
  int64_t want =
      std::min(std::max<int64_t>(2, threads / outputs), reduced / chunk);
  Split split;
  for (unsigned i = 0; i < ranges.size() && split.pieces == 1; ++i) {
    if (iters[i] != utils::IteratorType::reduction)
      continue;
    for (int64_t p = std::min(want, ranges[i]); p >= 2; --p)
      if (ranges[i] % p == 0) {
        split = {i, p};
        break;
      }
  }
  if (split.pieces == 1)
    return std::nullopt;
  for (OpOperand *in : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(in);
    if (map.isFunctionOfDim(split.dim) && !position(map, split.dim))
      return std::nullopt;
  }
  return split;
}

/// Input `in` of `op` as the new op reads it, with loop `numLoops` the
/// piece: unchanged when it does not read the split loop, else viewed with
/// that dimension as [pieces, size / pieces]. Appends the view and its map.
LogicalResult viewInput(RewriterBase &rewriter, linalg::GenericOp op,
                        OpOperand *in, Split split, unsigned numLoops,
                        SmallVector<Value> &inputs,
                        SmallVector<AffineMap> &maps) {
  MLIRContext *ctx = rewriter.getContext();
  AffineMap map = op.getMatchingIndexingMap(in);
  std::optional<unsigned> at = position(map, split.dim);
  if (!at) {
    inputs.push_back(in->get());
    maps.push_back(AffineMap::get(numLoops + 1, 0, map.getResults(), ctx));
    return success();
  }
  auto type = cast<MemRefType>(in->get().getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  SmallVector<AffineExpr> results;
  for (unsigned r = 0; r < type.getRank(); ++r) {
    auto next = static_cast<int64_t>(shape.size());
    if (r != *at) {
      groups.push_back({next});
      shape.push_back(type.getDimSize(r));
      results.push_back(map.getResult(r));
      continue;
    }
    groups.push_back({next, next + 1});
    shape.push_back(split.pieces);
    shape.push_back(type.getDimSize(r) / split.pieces);
    results.push_back(getAffineDimExpr(numLoops, ctx));
    results.push_back(getAffineDimExpr(split.dim, ctx));
  }
  FailureOr<MemRefType> viewType =
      memref::ExpandShapeOp::computeExpandedType(type, shape, groups);
  if (failed(viewType))
    return failure();
  inputs.push_back(memref::ExpandShapeOp::create(rewriter, op.getLoc(),
                                                 *viewType, in->get(), groups));
  maps.push_back(AffineMap::get(numLoops + 1, 0, results, ctx));
  return success();
}

/// out += the sum of `partial` [pieces, out's shape] over the pieces.
linalg::GenericOp addPieces(RewriterBase &rewriter, Location loc, Value partial,
                            Value out) {
  MLIRContext *ctx = rewriter.getContext();
  unsigned rank = cast<MemRefType>(out.getType()).getRank();
  SmallVector<AffineExpr> rest;
  for (unsigned i = 0; i < rank; ++i)
    rest.push_back(getAffineDimExpr(i + 1, ctx));
  SmallVector<utils::IteratorType> iters(rank + 1,
                                         utils::IteratorType::parallel);
  iters[0] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, ValueRange{partial}, ValueRange{out},
      {AffineMap::getMultiDimIdentityMap(rank + 1, ctx),
       AffineMap::get(rank + 1, 0, rest, ctx)},
      iters, [](OpBuilder &b, Location l, ValueRange a) {
        linalg::YieldOp::create(
            b, l, arith::AddFOp::create(b, l, a[1], a[0]).getResult());
      });
}

/// Splits `op` as `split` says: partial sums [pieces, outputs] from zero in
/// parallel, then their sum added to the output. Returns that final sum,
/// or null when an input cannot be viewed.
linalg::GenericOp splitSum(RewriterBase &rewriter, linalg::GenericOp op,
                           Split split) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  unsigned numLoops = op.getNumLoops();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : op.getDpsInputOperands())
    if (failed(viewInput(rewriter, op, in, split, numLoops, inputs, maps)))
      return nullptr;
  Value out = op.getDpsInitOperand(0)->get();
  auto outType = cast<MemRefType>(out.getType());
  SmallVector<int64_t> partialShape = {split.pieces};
  llvm::append_range(partialShape, outType.getShape());
  Type elt = outType.getElementType();
  Value partial = memref::AllocOp::create(rewriter, loc,
                                          MemRefType::get(partialShape, elt));
  Value zero =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elt));
  linalg::FillOp::create(rewriter, loc, zero, partial);
  SmallVector<AffineExpr> partialResults = {getAffineDimExpr(numLoops, ctx)};
  llvm::append_range(
      partialResults,
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults());
  maps.push_back(AffineMap::get(numLoops + 1, 0, partialResults, ctx));
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  iters.push_back(utils::IteratorType::parallel);
  auto partials = linalg::GenericOp::create(rewriter, loc, TypeRange{}, inputs,
                                            ValueRange{partial}, maps, iters);
  rewriter.cloneRegionBefore(op.getRegion(), partials.getRegion(),
                             partials.getRegion().end());
  linalg::GenericOp sum = addPieces(rewriter, loc, partial, out);
  memref::DeallocOp::create(rewriter, loc, partial);
  rewriter.eraseOp(op);
  return sum;
}

struct SplitReductionsPass
    : nnc::cuda::impl::SplitReductionsPassBase<SplitReductionsPass> {
  using Base::Base;

  /// Splits `op` once; the final sum it leaves, or null.
  linalg::GenericOp split(RewriterBase &rewriter, linalg::GenericOp op) {
    std::optional<Split> split = chooseSplit(op, threads, chunk);
    return split ? splitSum(rewriter, op, *split) : nullptr;
  }

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation().walk([&](linalg::GenericOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops)
      for (linalg::GenericOp next = op; next;)
        next = split(rewriter, next);
  }
};
} // namespace
