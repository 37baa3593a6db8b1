//===- ReduceToLinalg.cpp - nn.mean and its gradient to linalg ------------===//
//
// Part of nnc. mean loops over the kept axes first (parallel), then the
// reduced ones, accumulating x / count; its gradient spreads the output's
// gradient, divided by the count, back over the reduced axes.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// The loops of a mean over `axes` of a rank-`rank` tensor: kept axes
/// first, then the reduced ones. `input` maps loops to the input's axes,
/// `output` to the result's.
struct MeanLoops {
  AffineMap input, output;
  unsigned kept = 0;
  double count = 1;

  MeanLoops(MLIRContext *ctx, RankedTensorType type, ArrayRef<int64_t> axes) {
    unsigned rank = type.getRank();
    SmallVector<AffineExpr> in(rank), out;
    unsigned loop = 0;
    for (unsigned i = 0; i < rank; ++i)
      if (!llvm::is_contained(axes, int64_t(i))) {
        in[i] = getAffineDimExpr(loop++, ctx);
        out.push_back(in[i]);
      }
    kept = loop;
    for (int64_t a : axes) {
      in[a] = getAffineDimExpr(loop++, ctx);
      count *= double(type.getDimSize(a));
    }
    input = AffineMap::get(rank, 0, in, ctx);
    output = AffineMap::get(rank, 0, out, ctx);
  }
};

struct MeanLowering : OpRewritePattern<nn::MeanOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MeanOp op,
                                PatternRewriter &rewriter) const override {
    auto inType = cast<RankedTensorType>(op.getInput().getType());
    MeanLoops loops(rewriter.getContext(), inType, op.getAxes());
    rewriter.replaceOp(
        op, generic(rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                    op.getInput(), {loops.input, loops.output},
                    parallel(loops.kept, inType.getRank() - loops.kept),
                    [&](OpBuilder &b, Location l, ValueRange a) {
                      Value inv =
                          floatConst(b, l, a[0].getType(), 1.0 / loops.count);
                      return add(b, l, a[1], mul(b, l, a[0], inv));
                    },
                    /*init=*/0.0));
    return success();
  }
};

struct MeanGradLowering : OpRewritePattern<nn::MeanGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MeanGradOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    MeanLoops loops(rewriter.getContext(), type, op.getAxes());
    unsigned rank = type.getRank();
    // Written in the input's own loop order: every loop parallel.
    AffineMap dyMap = loops.output.compose(inversePermutation(loops.input));
    rewriter.replaceOp(
        op, generic(rewriter, op.getLoc(), type, op.getOutputGrad(),
                    {dyMap, identity(rewriter.getContext(), rank)},
                    parallel(rank), [&](OpBuilder &b, Location l, ValueRange a) {
                      return mul(b, l, a[0],
                                 floatConst(b, l, a[0].getType(),
                                            1.0 / loops.count));
                    }));
    return success();
  }
};

} // namespace

void nnc::populateReduceToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MeanLowering, MeanGradLowering>(patterns.getContext());
}
