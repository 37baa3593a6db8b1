//===- NormToLinalg.cpp - nn normalisations to linalg ---------------------===//
//
// Part of nnc. LRN (TensorFlow semantics: alpha not divided by the window)
// is a windowed channel sum of squares over a zero-padded channel axis;
// batch norm and softmax are generic ops.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace nnc::linalg_utils;

namespace {

struct LRNLowering : OpRewritePattern<nn::LRNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::LRNOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    int64_t r = op.getDepthRadius();

    // s[n,h,w,c] = sum of x^2 over channels c-r .. c+r.
    Value sq = elementwise(rewriter, loc, type, op.getInput(),
                           [](OpBuilder &b, Location l, ValueRange a) {
                             return arith::MulFOp::create(b, l, a[0], a[0]);
                           });
    Value sums = channelWindowSum(rewriter, loc, sq, r);

    // out = x * (bias + alpha * s)^-beta
    double bias = op.getBias().convertToDouble();
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    Value result = elementwise(
        rewriter, loc, type, ValueRange{op.getInput(), sums},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value scaled =
              arith::MulFOp::create(b, l, floatConst(b, l, elt, alpha), a[1]);
          Value base =
              arith::AddFOp::create(b, l, floatConst(b, l, elt, bias), scaled);
          Value factor = powConst(b, l, base, -beta);
          return arith::MulFOp::create(b, l, a[0], factor);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BatchNormLowering : OpRewritePattern<nn::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    unsigned rank = type.getRank();
    AffineMap all = identity(ctx, rank);
    AffineMap channel =
        AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
    double eps = op.getEpsilon().convertToDouble();
    Value result =
        generic(rewriter, op.getLoc(), type,
                ValueRange{op.getInput(), op.getScale(), op.getOffset(),
                           op.getMean(), op.getVariance()},
                {all, channel, channel, channel, channel, all}, parallel(rank),
                [&](OpBuilder &b, Location l, ValueRange a) {
                  // scale * (x - mean) / sqrt(variance + eps) + offset
                  Value var = arith::AddFOp::create(
                      b, l, a[4], floatConst(b, l, a[4].getType(), eps));
                  Value inv = math::RsqrtOp::create(b, l, var);
                  Value centred = arith::SubFOp::create(b, l, a[0], a[3]);
                  Value norm = arith::MulFOp::create(
                      b, l, centred, arith::MulFOp::create(b, l, a[1], inv));
                  return arith::AddFOp::create(b, l, norm, a[2]);
                });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// exp(x - max) / sum(exp(x - max)) along `axis`, as three generic ops.
struct SoftmaxLowering : OpRewritePattern<nn::SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    unsigned rank = type.getRank();
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += rank;
    AffineMap all = identity(ctx, rank);
    AffineMap reduced = dropAxisMap(ctx, rank, axis);
    Value x = op.getInput();
    Value max = reduceAlong(rewriter, loc, x, axis,
                            -std::numeric_limits<double>::infinity(),
                            [](OpBuilder &b, Location l, Value acc, Value v) {
                              return arith::MaximumFOp::create(b, l, acc, v);
                            });
    Value exps =
        generic(rewriter, loc, type, ValueRange{x, max}, {all, reduced, all},
                parallel(rank), [](OpBuilder &b, Location l, ValueRange a) {
                  return math::ExpOp::create(
                      b, l, arith::SubFOp::create(b, l, a[0], a[1]));
                });
    Value sums = reduceAlong(rewriter, loc, exps, axis, 0.0,
                             [](OpBuilder &b, Location l, Value acc, Value v) {
                               return arith::AddFOp::create(b, l, acc, v);
                             });
    Value result = generic(rewriter, loc, type, ValueRange{exps, sums},
                           {all, reduced, all}, parallel(rank),
                           [](OpBuilder &b, Location l, ValueRange a) {
                             return arith::DivFOp::create(b, l, a[0], a[1]);
                           });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void nnc::populateNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LRNLowering, BatchNormLowering, SoftmaxLowering>(
      patterns.getContext());
}
