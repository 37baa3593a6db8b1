//===- BatchNormToLinalg.cpp - batch normalisation to linalg --------------===//
//
// Part of nnc. batch_norm (the moving statistics), batch_norm_train (the
// batch's mean and biased variance, each a per-channel sum), its gradient
// and the moving averages. A per-channel sum loops over the channel first
// (parallel) and every other axis after it (reduction), as bias_add_grad.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// Elements per channel.
double perChannel(Value x) {
  auto t = cast<RankedTensorType>(x.getType());
  return double(t.getNumElements() / t.getShape().back());
}

/// 1 / sqrt(variance + epsilon).
Value rstd(OpBuilder &b, Location l, Value variance, double epsilon) {
  Value v = add(b, l, variance, floatConst(b, l, variance.getType(), epsilon));
  return math::RsqrtOp::create(b, l, v);
}

/// scale * (x - mean) / sqrt(variance + epsilon) + offset, as one
/// elementwise op over x with the per-channel vectors broadcast.
Value normalize(OpBuilder &b, Location loc, Value x, Value scale, Value offset,
                Value mean, Value variance, double epsilon) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap all = identity(ctx, rank);
  AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
  return generic(b, loc, type, ValueRange{x, scale, offset, mean, variance},
                 {all, channel, channel, channel, channel, all}, parallel(rank),
                 [&](OpBuilder &nb, Location l, ValueRange a) {
                   Value inv = rstd(nb, l, a[4], epsilon);
                   Value centred = sub(nb, l, a[0], a[3]);
                   Value factor = mul(nb, l, a[1], inv);
                   return add(nb, l, mul(nb, l, centred, factor), a[2]);
                 });
}

/// v * factor for a per-channel vector.
Value scaled(OpBuilder &b, Location loc, Value v, double factor) {
  return elementwise(b, loc, cast<RankedTensorType>(v.getType()), v,
                     [&](OpBuilder &nb, Location l, ValueRange a) {
                       return mul(nb, l, a[0],
                                  floatConst(nb, l, a[0].getType(), factor));
                     });
}

struct BatchNormLowering : OpRewritePattern<nn::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, normalize(rewriter, op.getLoc(), op.getInput(),
                                     op.getScale(), op.getOffset(),
                                     op.getMean(), op.getVariance(),
                                     op.getEpsilon().convertToDouble()));
    return success();
  }
};

struct BatchNormTrainLowering : OpRewritePattern<nn::BatchNormTrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormTrainOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    double n = perChannel(x);
    Value sum = channelSum(rewriter, loc, x, {},
                           [](OpBuilder &, Location, ValueRange a) {
                             return a[0];
                           });
    Value mean = scaled(rewriter, loc, sum, 1.0 / n);
    // Two passes: the squares of the centred values, not E[x^2] - E[x]^2.
    Value squares = channelSum(rewriter, loc, x, mean,
                               [](OpBuilder &b, Location l, ValueRange a) {
                                 Value d = sub(b, l, a[0], a[1]);
                                 return mul(b, l, d, d);
                               });
    Value variance = scaled(rewriter, loc, squares, 1.0 / n);
    Value y = normalize(rewriter, loc, x, op.getScale(), op.getOffset(), mean,
                        variance, op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, {y, mean, variance});
    return success();
  }
};

struct BatchNormGradLowering : OpRewritePattern<nn::BatchNormGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput(), dy = op.getOutputGrad();
    double eps = op.getEpsilon().convertToDouble(), n = perChannel(x);
    Value offsetGrad = channelSum(rewriter, loc, dy, {},
                                  [](OpBuilder &, Location, ValueRange a) {
                                    return a[0];
                                  });
    // sum(dy * xhat), xhat = (x - mean) * rstd.
    Value scaleGrad = channelSum(
        rewriter, loc, {x, dy}, {op.getMean(), op.getVariance()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value xhat = mul(b, l, sub(b, l, a[0], a[2]), rstd(b, l, a[3], eps));
          return mul(b, l, a[1], xhat);
        });
    auto type = cast<RankedTensorType>(x.getType());
    unsigned rank = type.getRank();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap all = identity(ctx, rank);
    AffineMap ch = AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
    // scale * rstd * (dy - offset_grad / n - xhat * scale_grad / n)
    Value dx = generic(
        rewriter, loc, type,
        ValueRange{x, dy, op.getScale(), op.getMean(), op.getVariance(),
                   scaleGrad, offsetGrad},
        {all, all, ch, ch, ch, ch, ch, all}, parallel(rank),
        [&](OpBuilder &b, Location l, ValueRange a) {
          Type elt = a[0].getType();
          Value r = rstd(b, l, a[4], eps);
          Value xhat = mul(b, l, sub(b, l, a[0], a[3]), r);
          Value invN = floatConst(b, l, elt, 1.0 / n);
          Value centred = sub(b, l, a[1], mul(b, l, a[6], invN));
          Value g = sub(b, l, centred, mul(b, l, xhat, mul(b, l, a[5], invN)));
          return mul(b, l, mul(b, l, a[2], r), g);
        });
    rewriter.replaceOp(op, {dx, scaleGrad, offsetGrad});
    return success();
  }
};

struct MovingAverageLowering : OpRewritePattern<nn::MovingAverageOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MovingAverageOp op,
                                PatternRewriter &rewriter) const override {
    double decay = op.getDecay().convertToDouble();
    double weight = (1.0 - decay) * op.getCorrection().convertToDouble();
    rewriter.replaceOp(
        op, elementwise(rewriter, op.getLoc(),
                        cast<RankedTensorType>(op.getType()),
                        ValueRange{op.getAverage(), op.getValue()},
                        [&](OpBuilder &b, Location l, ValueRange a) {
                          Type elt = a[0].getType();
                          return add(b, l, mul(b, l, a[0],
                                               floatConst(b, l, elt, decay)),
                                     mul(b, l, a[1],
                                         floatConst(b, l, elt, weight)));
                        }));
    return success();
  }
};

} // namespace

void nnc::populateBatchNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormLowering, BatchNormTrainLowering,
               BatchNormGradLowering, MovingAverageLowering>(
      patterns.getContext());
}
