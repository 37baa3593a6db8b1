//===- BatchNormToLinalg.cpp - batch normalisation to linalg --------------===//
//
// Part of nnc. batch_norm (the moving statistics), batch_norm_train (the
// batch's mean and biased variance, each a per-channel sum), its gradient
// and the moving averages. A per-channel sum loops over the channel first
// (parallel) and every other axis after it (reduction), as bias_add_grad.
// What depends on the channel alone (rstd, the normalisation's factor, the
// gradient's coefficients) is a small op over the channels, so that the
// passes over the activations need no square root or division.
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

/// A per-channel vector of `inputs` (vectors of the same length).
Value perChannelOp(OpBuilder &b, Location loc, ValueRange inputs, Body body) {
  return elementwise(b, loc, cast<RankedTensorType>(inputs[0].getType()),
                     inputs, body);
}

/// x's elements, with the per-channel vectors `vectors` broadcast.
Value overChannels(OpBuilder &b, Location loc, ValueRange tensors,
                   ValueRange vectors, Body body) {
  auto type = cast<RankedTensorType>(tensors[0].getType());
  unsigned rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineMap> maps(tensors.size(), identity(ctx, rank));
  maps.append(vectors.size(),
              AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx)));
  maps.push_back(identity(ctx, rank));
  SmallVector<Value> inputs(tensors);
  inputs.append(vectors.begin(), vectors.end());
  return generic(b, loc, type, inputs, maps, parallel(rank), body);
}

/// scale * (x - mean) / sqrt(variance + epsilon) + offset. The square root
/// and the division are per channel, once, not per element: the pass over
/// x is a subtraction and a multiply-add.
Value normalize(OpBuilder &b, Location loc, Value x, Value scale, Value offset,
                Value mean, Value variance, double epsilon) {
  Value factor = perChannelOp(
      b, loc, {scale, variance}, [&](OpBuilder &nb, Location l, ValueRange a) {
        return mul(nb, l, a[0], rstd(nb, l, a[1], epsilon));
      });
  return overChannels(b, loc, x, {factor, offset, mean},
                      [&](OpBuilder &nb, Location l, ValueRange a) {
                        Value centred = sub(nb, l, a[0], a[3]);
                        return add(nb, l, mul(nb, l, centred, a[1]), a[2]);
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
    // rstd and everything else per channel is computed once per channel.
    Value r = perChannelOp(rewriter, loc, op.getVariance(),
                           [&](OpBuilder &b, Location l, ValueRange a) {
                             return rstd(b, l, a[0], eps);
                           });
    // sum(dy * xhat) = rstd * sum(dy * (x - mean)).
    Value dyCentred =
        channelSum(rewriter, loc, {x, dy}, op.getMean(),
                   [&](OpBuilder &b, Location l, ValueRange a) {
                     return mul(b, l, a[1], sub(b, l, a[0], a[2]));
                   });
    Value scaleGrad = perChannelOp(rewriter, loc, {dyCentred, r},
                                   [](OpBuilder &b, Location l, ValueRange a) {
                                     return mul(b, l, a[0], a[1]);
                                   });
    // dx = scale * rstd * (dy - offset_grad / n - xhat * scale_grad / n)
    //    = g * ((dy - o) - (x - mean) * k), with per channel g = scale *
    //    rstd, o = offset_grad / n and k = rstd * scale_grad / n.
    Value g = perChannelOp(rewriter, loc, {op.getScale(), r},
                           [](OpBuilder &b, Location l, ValueRange a) {
                             return mul(b, l, a[0], a[1]);
                           });
    Value o = scaled(rewriter, loc, offsetGrad, 1.0 / n);
    Value k = perChannelOp(rewriter, loc, {r, scaleGrad},
                           [&](OpBuilder &b, Location l, ValueRange a) {
                             Value invN =
                                 floatConst(b, l, a[0].getType(), 1.0 / n);
                             return mul(b, l, mul(b, l, a[0], a[1]), invN);
                           });
    Value dx = overChannels(
        rewriter, loc, {x, dy}, {g, o, k, op.getMean()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value shifted = sub(b, l, a[1], a[3]);
          Value centred = sub(b, l, a[0], a[5]);
          return mul(b, l, a[2], sub(b, l, shifted, mul(b, l, centred, a[4])));
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
        op,
        elementwise(rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                    ValueRange{op.getAverage(), op.getValue()},
                    [&](OpBuilder &b, Location l, ValueRange a) {
                      Type elt = a[0].getType();
                      return add(
                          b, l, mul(b, l, a[0], floatConst(b, l, elt, decay)),
                          mul(b, l, a[1], floatConst(b, l, elt, weight)));
                    }));
    return success();
  }
};

} // namespace

void nnc::populateBatchNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormLowering, BatchNormTrainLowering, BatchNormGradLowering,
               MovingAverageLowering>(patterns.getContext());
}
