//===- BatchNormToLinalg.cpp - batch normalisation to linalg --------------===//
//
// Part of nnc. batch_norm (the moving statistics), batch_norm_train (the
// batch's mean and biased variance, each a per-channel sum), its gradient
// and the moving averages. A per-channel sum loops over the channel first
// (parallel) and every other axis after it (reduction), as bias_add_grad.
// What depends on the channel alone (rstd, the normalisation's factor, the
// gradient's coefficients) is a small op over the channels, so that the
// passes over the activations need no square root or division. The
// gradient's two sums share one pass, and the gradient of a relu'd
// normalisation takes the relu's gradient itself (lowerBatchNormReluGrads):
// these passes are memory-bound, and each activation-sized read or write
// saved is a pass's worth of time.
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

/// The per-channel mean and biased variance of x (rank 3 or more) in one
/// pass over it, not two (a sum, then the squares of the centred values).
/// Each row of an image (the axis before the channel, W values) is summed
/// shifted by its own first value s: S1 = sum(x - s), S2 = sum((x - s)^2),
/// so the row's mean is s + S1 / W and the sum of its squared deviations
/// M2 = S2 - S1^2 / W, without the cancellation of E[x^2] - E[x]^2 (s is
/// one of the row's own values, so S1 / W is the distance from it to the
/// row's mean). The rows then combine as equal-sized groups do (Chan et
/// al.): the mean is the mean of the rows' means, and the squared
/// deviations sum to sum(M2) + W * sum((row mean - mean)^2). The second
/// stage reads the rows' sums, a W-th of x.
std::pair<Value, Value> statistics(OpBuilder &b, Location loc, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank(), row = rank - 2;
  double n = perChannel(x), w = type.getDimSize(row), rows = n / w;
  // s: each row's first value, shaped as the rows' sums.
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1)), sizes;
  SmallVector<int64_t> rowShape;
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = d == row ? 1 : type.getDimSize(d);
    sizes.push_back(b.getIndexAttr(size));
    if (d != row)
      rowShape.push_back(size);
  }
  Value shift = tensor::ExtractSliceOp::create(
      b, loc, RankedTensorType::get(rowShape, type.getElementType()), x,
      offsets, sizes, strides);
  auto shifted = [](OpBuilder &nb, Location l, ValueRange a) {
    return sub(nb, l, a[0], a[1]);
  };
  auto squared = [](OpBuilder &nb, Location l, ValueRange a) {
    Value d = sub(nb, l, a[0], a[1]);
    return mul(nb, l, d, d);
  };
  SmallVector<Value> partial =
      rowSums(b, loc, x, shift, {}, {Body(shifted), Body(squared)});
  // A row's mean: s + S1 / W.
  auto rowMean = [&](OpBuilder &nb, Location l, Value s1, Value s) {
    return add(nb, l, s,
               mul(nb, l, s1, floatConst(nb, l, s1.getType(), 1.0 / w)));
  };
  auto meanOfRow = [&](OpBuilder &nb, Location l, ValueRange a) {
    return rowMean(nb, l, a[0], a[1]);
  };
  Value meanSum =
      channelSumsInOneNest(b, loc, {partial[0], shift}, {}, Body(meanOfRow))
          .front();
  Value mean = scaled(b, loc, meanSum, 1.0 / rows);
  // Arguments S1, S2, s, mean.
  auto deviations = [&](OpBuilder &nb, Location l, ValueRange a) {
    Value s1 = a[0], s2 = a[1];
    Value m2 = sub(nb, l, s2,
                   mul(nb, l, mul(nb, l, s1, s1),
                       floatConst(nb, l, s1.getType(), 1.0 / w)));
    Value d = sub(nb, l, rowMean(nb, l, s1, a[2]), a[3]);
    return add(nb, l, m2,
               mul(nb, l, mul(nb, l, d, d), floatConst(nb, l, d.getType(), w)));
  };
  Value squares = channelSumsInOneNest(b, loc, {partial[0], partial[1], shift},
                                       mean, Body(deviations))
                      .front();
  return {mean, scaled(b, loc, squares, 1.0 / n)};
}

struct BatchNormTrainLowering : OpRewritePattern<nn::BatchNormTrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormTrainOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getInput();
    double n = perChannel(x);
    Value mean, variance;
    if (cast<RankedTensorType>(x.getType()).getRank() >= 3) {
      std::tie(mean, variance) = statistics(rewriter, loc, x);
    } else {
      Value sum =
          channelSum(rewriter, loc, x, {},
                     [](OpBuilder &, Location, ValueRange a) { return a[0]; });
      mean = scaled(rewriter, loc, sum, 1.0 / n);
      // Two passes: the squares of the centred values, not E[x^2] -
      // E[x]^2.
      Value squares = channelSum(rewriter, loc, x, mean,
                                 [](OpBuilder &b, Location l, ValueRange a) {
                                   Value d = sub(b, l, a[0], a[1]);
                                   return mul(b, l, d, d);
                                 });
      variance = scaled(rewriter, loc, squares, 1.0 / n);
    }
    Value y = normalize(rewriter, loc, x, op.getScale(), op.getOffset(), mean,
                        variance, op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, {y, mean, variance});
    return success();
  }
};

/// The gradients of batch_norm_train's input, scale and offset, for
/// `op`'s operands, from `grad`: the gradient of the normalisation's
/// output, or, with `reluOffset` (the normalisation's offset), the
/// gradient of its relu. The relu's mask is then recomputed from x in each
/// pass, `(x - mean) * g + offset > 0` with g = scale * rstd, as the
/// forward pass computed the relu's input: relu_grad's pass, which read
/// the relu's output and the gradient and wrote the masked gradient for
/// three more passes to read, is gone. Two passes remain: both sums (one
/// reduction with two outputs), then dx. Of the nine activation-sized
/// reads and writes of the two ops, five remain; of batch_norm_grad's six
/// alone (its sums in two passes), five.
SmallVector<Value> batchNormGrad(OpBuilder &b, Location loc,
                                 nn::BatchNormGradOp op, Value grad,
                                 Value reluOffset) {
  Value x = op.getInput(), mean = op.getMean();
  double eps = op.getEpsilon().convertToDouble(), n = perChannel(x);
  // rstd and everything else per channel is computed once per channel.
  Value r = perChannelOp(b, loc, op.getVariance(),
                         [&](OpBuilder &nb, Location l, ValueRange a) {
                           return rstd(nb, l, a[0], eps);
                         });
  Value g = perChannelOp(b, loc, {op.getScale(), r},
                         [](OpBuilder &nb, Location l, ValueRange a) {
                           return mul(nb, l, a[0], a[1]);
                         });
  // Every pass reads x, the gradient and these vectors first (the sums
  // only the mean when there is no relu); `dy(a)` is the normalisation's
  // output gradient at those arguments.
  SmallVector<Value> vectors = {mean, g};
  if (reluOffset)
    vectors.push_back(reluOffset);
  auto dy = [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
    if (!reluOffset)
      return a[1];
    Value y = add(nb, l, mul(nb, l, sub(nb, l, a[0], a[2]), a[3]), a[4]);
    Value zero = floatConst(nb, l, y.getType(), 0.0);
    Value positive =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, y, zero);
    return arith::SelectOp::create(nb, l, positive, a[1], zero);
  };
  // offset_grad = sum(dy) and sum(dy * xhat) = rstd * sum(dy * (x -
  // mean)), in one pass over x and the gradient.
  auto centred = [&](OpBuilder &nb, Location l, ValueRange a) {
    return mul(nb, l, dy(nb, l, a), sub(nb, l, a[0], a[2]));
  };
  ValueRange sumVectors = reluOffset ? ValueRange(vectors) : mean;
  SmallVector<Value> sums =
      channelSums(b, loc, {x, grad}, sumVectors, {Body(dy), Body(centred)});
  Value offsetGrad = sums[0], dyCentred = sums[1];
  Value scaleGrad = perChannelOp(b, loc, {dyCentred, r},
                                 [](OpBuilder &nb, Location l, ValueRange a) {
                                   return mul(nb, l, a[0], a[1]);
                                 });
  // dx = scale * rstd * (dy - offset_grad / n - xhat * scale_grad / n)
  //    = g * ((dy - o) - (x - mean) * k), with per channel o = offset_grad
  //    / n and k = rstd * scale_grad / n.
  Value o = scaled(b, loc, offsetGrad, 1.0 / n);
  Value k = perChannelOp(
      b, loc, {r, scaleGrad}, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value invN = floatConst(nb, l, a[0].getType(), 1.0 / n);
        return mul(nb, l, mul(nb, l, a[0], a[1]), invN);
      });
  // o and k come after x, the gradient and `vectors`.
  SmallVector<Value> dxVectors(vectors);
  dxVectors.append({o, k});
  unsigned oAt = 2 + vectors.size(), kAt = oAt + 1;
  Value dx = overChannels(
      b, loc, {x, grad}, dxVectors,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value shifted = sub(nb, l, dy(nb, l, a), a[oAt]);
        Value centred = sub(nb, l, a[0], a[2]);
        return mul(nb, l, a[3],
                   sub(nb, l, shifted, mul(nb, l, centred, a[kAt])));
      });
  return {dx, scaleGrad, offsetGrad};
}

struct BatchNormGradLowering : OpRewritePattern<nn::BatchNormGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormGradOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, batchNormGrad(rewriter, op.getLoc(), op,
                                         op.getOutputGrad(), Value()));
    return success();
  }
};

/// The relu_grad that `op`'s output gradient comes from, when it is the
/// gradient of a relu of the batch_norm_train that `op` differentiates and
/// nothing else reads it; its offset in `offset`.
nn::ReluGradOp reluGradOf(nn::BatchNormGradOp op, Value &offset) {
  auto reluGrad = op.getOutputGrad().getDefiningOp<nn::ReluGradOp>();
  if (!reluGrad || !reluGrad->hasOneUse())
    return nullptr;
  auto relu = reluGrad.getOutput().getDefiningOp<nn::ReluOp>();
  auto forward =
      relu ? relu.getInput().getDefiningOp<nn::BatchNormTrainOp>() : nullptr;
  if (!forward || relu.getInput() != forward.getOutput() ||
      forward.getInput() != op.getInput() ||
      forward.getScale() != op.getScale() ||
      forward.getMean() != op.getMean() ||
      forward.getVariance() != op.getVariance() ||
      forward.getEpsilon() != op.getEpsilon())
    return nullptr;
  offset = forward.getOffset();
  return reluGrad;
}

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

void nnc::lowerBatchNormReluGrads(Operation *root) {
  SmallVector<nn::BatchNormGradOp> grads;
  root->walk([&](nn::BatchNormGradOp op) { grads.push_back(op); });
  for (nn::BatchNormGradOp op : grads) {
    Value offset;
    nn::ReluGradOp reluGrad = reluGradOf(op, offset);
    if (!reluGrad)
      continue;
    OpBuilder b(op);
    op->replaceAllUsesWith(
        batchNormGrad(b, op.getLoc(), op, reluGrad.getOutputGrad(), offset));
    op.erase();
    reluGrad.erase();
  }
}

void nnc::populateBatchNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormLowering, BatchNormTrainLowering, BatchNormGradLowering,
               MovingAverageLowering>(patterns.getContext());
}
