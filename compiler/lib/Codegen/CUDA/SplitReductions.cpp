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

struct SplitReductionsPass
    : nnc::cuda::impl::SplitReductionsPassBase<SplitReductionsPass> {
  using Base::Base;

  /// Splits `op` once; the final sum it leaves, or null.
  linalg::GenericOp split(RewriterBase &rewriter, linalg::GenericOp op) {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
        op.hasIndexSemantics() || op.hasDynamicShape() || !isSum(op))
      return nullptr;
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    int64_t outputs = 1, reduced = 1;
    for (auto [range, iter] : llvm::zip(ranges, iters))
      (iter == utils::IteratorType::parallel ? outputs : reduced) *= range;
    if (outputs >= threads || reduced <= chunk)
      return nullptr;
    // The outermost reduction dimension that divides, in as many pieces as
    // the threads want, each still reducing at least `chunk` elements.
    int64_t want =
        std::min(std::max<int64_t>(2, threads / outputs), reduced / chunk);
    unsigned d = 0;
    int64_t pieces = 1;
    for (unsigned i = 0; i < ranges.size() && pieces == 1; ++i) {
      if (iters[i] != utils::IteratorType::reduction)
        continue;
      for (int64_t p = std::min(want, ranges[i]); p >= 2; --p)
        if (ranges[i] % p == 0) {
          d = i;
          pieces = p;
          break;
        }
    }
    if (pieces == 1)
      return nullptr;
    // Every operand that reads loop d must read it as a plain dimension,
    // which is viewed as [pieces, size / pieces].
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (OpOperand *in : op.getDpsInputOperands())
      if (maps[in->getOperandNumber()].isFunctionOfDim(d) &&
          !position(maps[in->getOperandNumber()], d))
        return nullptr;

    MLIRContext *ctx = rewriter.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    unsigned n = ranges.size(); // the new loop: the piece
    SmallVector<Value> inputs;
    SmallVector<AffineMap> newMaps;
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = maps[in->getOperandNumber()];
      std::optional<unsigned> at = position(map, d);
      if (!at) {
        inputs.push_back(in->get());
        newMaps.push_back(AffineMap::get(n + 1, 0, map.getResults(), ctx));
        continue;
      }
      auto type = cast<MemRefType>(in->get().getType());
      SmallVector<int64_t> shape;
      SmallVector<ReassociationIndices> groups;
      SmallVector<AffineExpr> results;
      for (unsigned r = 0; r < type.getRank(); ++r) {
        if (r == *at) {
          groups.push_back({static_cast<int64_t>(shape.size()),
                            static_cast<int64_t>(shape.size()) + 1});
          shape.push_back(pieces);
          shape.push_back(type.getDimSize(r) / pieces);
          results.push_back(getAffineDimExpr(n, ctx));
          results.push_back(getAffineDimExpr(d, ctx));
          continue;
        }
        groups.push_back({static_cast<int64_t>(shape.size())});
        shape.push_back(type.getDimSize(r));
        results.push_back(map.getResult(r));
      }
      FailureOr<MemRefType> viewType =
          memref::ExpandShapeOp::computeExpandedType(type, shape, groups);
      if (failed(viewType))
        return nullptr;
      inputs.push_back(memref::ExpandShapeOp::create(rewriter, loc, *viewType,
                                                     in->get(), groups));
      newMaps.push_back(AffineMap::get(n + 1, 0, results, ctx));
    }
    // Partial sums [pieces, output shape], from zero.
    Value out = op.getDpsInitOperand(0)->get();
    auto outType = cast<MemRefType>(out.getType());
    SmallVector<int64_t> partialShape = {pieces};
    llvm::append_range(partialShape, outType.getShape());
    Type elt = outType.getElementType();
    Value partial = memref::AllocOp::create(rewriter, loc,
                                            MemRefType::get(partialShape, elt));
    linalg::FillOp::create(
        rewriter, loc,
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(elt))
            .getResult(),
        partial);
    AffineMap outMap = maps.back();
    SmallVector<AffineExpr> partialResults = {getAffineDimExpr(n, ctx)};
    llvm::append_range(partialResults, outMap.getResults());
    newMaps.push_back(AffineMap::get(n + 1, 0, partialResults, ctx));
    SmallVector<utils::IteratorType> newIters(iters);
    newIters.push_back(utils::IteratorType::parallel);
    auto partials =
        linalg::GenericOp::create(rewriter, loc, TypeRange{}, inputs,
                                  ValueRange{partial}, newMaps, newIters);
    rewriter.cloneRegionBefore(op.getRegion(), partials.getRegion(),
                               partials.getRegion().end());
    // out += sum over the pieces.
    unsigned rank = outType.getRank();
    SmallVector<AffineExpr> rest;
    for (unsigned i = 0; i < rank; ++i)
      rest.push_back(getAffineDimExpr(i + 1, ctx));
    SmallVector<utils::IteratorType> sumIters(rank + 1,
                                              utils::IteratorType::parallel);
    sumIters[0] = utils::IteratorType::reduction;
    auto sum = linalg::GenericOp::create(
        rewriter, loc, TypeRange{}, ValueRange{partial}, ValueRange{out},
        {AffineMap::getMultiDimIdentityMap(rank + 1, ctx),
         AffineMap::get(rank + 1, 0, rest, ctx)},
        sumIters, [](OpBuilder &b, Location l, ValueRange a) {
          linalg::YieldOp::create(
              b, l, arith::AddFOp::create(b, l, a[1], a[0]).getResult());
        });
    memref::DeallocOp::create(rewriter, loc, partial);
    rewriter.eraseOp(op);
    return sum;
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
