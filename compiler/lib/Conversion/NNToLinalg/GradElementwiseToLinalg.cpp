//===- GradElementwiseToLinalg.cpp - pointwise gradients to linalg --------===//
//
// Part of nnc. Activation, LRN, softmax and loss gradients, bias gradients,
// and the training step's ops (learning rate, optimizer updates, correct
// count). Optimizer updates write into the parameter's own tensor, so after
// bufferization they update the parameter buffer in place.
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
using Body = function_ref<Value(OpBuilder &, Location, ValueRange)>;

Value mul(OpBuilder &b, Location l, Value x, Value y) {
  return arith::MulFOp::create(b, l, x, y);
}
Value sub(OpBuilder &b, Location l, Value x, Value y) {
  return arith::SubFOp::create(b, l, x, y);
}
Value add(OpBuilder &b, Location l, Value x, Value y) {
  return arith::AddFOp::create(b, l, x, y);
}

/// An elementwise generic whose rank-0 operands are broadcast.
Value pointwise(OpBuilder &b, Location loc, RankedTensorType type,
                ValueRange inputs, Body body) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps;
  for (Value v : inputs)
    maps.push_back(cast<ShapedType>(v.getType()).getRank() == 0
                       ? AffineMap::get(rank, 0, {}, ctx)
                       : identity(ctx, rank));
  maps.push_back(identity(ctx, rank));
  return generic(b, loc, type, inputs, maps, parallel(rank), body);
}

template <typename Op> struct PointwiseLowering : OpRewritePattern<Op> {
  using Fn = Value (*)(Op, OpBuilder &, Location, ValueRange);
  PointwiseLowering(MLIRContext *ctx, Fn fn)
      : OpRewritePattern<Op>(ctx), fn(fn) {}
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    rewriter.replaceOp(op,
                       pointwise(rewriter, op.getLoc(), type, op->getOperands(),
                                 [&](OpBuilder &b, Location l, ValueRange a) {
                                   return fn(op, b, l, a);
                                 }));
    return success();
  }
  Fn fn;
};

Value reluGrad(nn::ReluGradOp, OpBuilder &b, Location l, ValueRange a) {
  Value zero = floatConst(b, l, a[0].getType(), 0.0);
  Value positive =
      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0], zero);
  return arith::SelectOp::create(b, l, positive, a[1], zero);
}

Value sigmoidGrad(nn::SigmoidGradOp, OpBuilder &b, Location l, ValueRange a) {
  Value one = floatConst(b, l, a[0].getType(), 1.0);
  return mul(b, l, a[1], mul(b, l, a[0], sub(b, l, one, a[0])));
}

Value tanhGrad(nn::TanhGradOp, OpBuilder &b, Location l, ValueRange a) {
  Value one = floatConst(b, l, a[0].getType(), 1.0);
  return mul(b, l, a[1], sub(b, l, one, mul(b, l, a[0], a[0])));
}

Value scale(nn::ScaleOp op, OpBuilder &b, Location l, ValueRange a) {
  Type t = a[0].getType();
  return mul(b, l, mul(b, l, a[0], a[1]),
             floatConst(b, l, t, op.getFactor().convertToDouble()));
}

Value learningRate(nn::LearningRateOp op, OpBuilder &b, Location l,
                   ValueRange a) {
  Type t = a[0].getType();
  Value rate = floatConst(b, l, t, op.getRate().convertToDouble());
  if (!op.getDecay())
    return rate;
  Value exponent = arith::DivFOp::create(
      b, l, a[0], floatConst(b, l, t, double(*op.getDecaySteps())));
  if (op.getStaircase())
    exponent = math::FloorOp::create(b, l, exponent);
  Value decay = floatConst(b, l, t, op.getDecay()->convertToDouble());
  return mul(b, l, rate, math::PowFOp::create(b, l, decay, exponent));
}

struct BiasAddGradLowering : OpRewritePattern<nn::BiasAddGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BiasAddGradOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    unsigned rank = dyType.getRank();
    // Loops: the channel first (parallel), then every other axis.
    SmallVector<AffineExpr> dims;
    for (unsigned i = 1; i < rank; ++i)
      dims.push_back(getAffineDimExpr(i, ctx));
    dims.push_back(getAffineDimExpr(0, ctx));
    auto in = AffineMap::get(rank, 0, dims, ctx);
    auto out = AffineMap::get(rank, 0, getAffineDimExpr(0, ctx), ctx);
    rewriter.replaceOp(
        op, generic(
                rewriter, op.getLoc(), cast<RankedTensorType>(op.getType()),
                op.getOutputGrad(), {in, out}, parallel(1, rank - 1),
                [](OpBuilder &b, Location l, ValueRange a) {
                  return add(b, l, a[1], a[0]);
                },
                /*init=*/0.0));
    return success();
  }
};

struct SoftmaxGradLowering : OpRewritePattern<nn::SoftmaxGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SoftmaxGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += type.getRank();
    // dx = y * (dy - sum_axis(dy * y))
    Value prod = pointwise(rewriter, loc, type,
                           ValueRange{op.getOutput(), op.getOutputGrad()},
                           [](OpBuilder &b, Location l, ValueRange a) {
                             return mul(b, l, a[0], a[1]);
                           });
    Value sums = reduceAlong(rewriter, loc, prod, axis, 0.0,
                             [](OpBuilder &b, Location l, Value acc, Value v) {
                               return add(b, l, acc, v);
                             });
    AffineMap id = identity(ctx, type.getRank());
    AffineMap dropped = dropAxisMap(ctx, type.getRank(), axis);
    rewriter.replaceOp(
        op, generic(rewriter, loc, type,
                    ValueRange{op.getOutput(), op.getOutputGrad(), sums},
                    {id, id, dropped, id}, parallel(type.getRank()),
                    [](OpBuilder &b, Location l, ValueRange a) {
                      return mul(b, l, a[0], sub(b, l, a[1], a[2]));
                    }));
    return success();
  }
};

struct LRNGradLowering : OpRewritePattern<nn::LRNGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::LRNGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    int64_t r = op.getDepthRadius();
    double bias = op.getBias().convertToDouble();
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    Value x = op.getInput(), dy = op.getOutputGrad();
    // N = bias + alpha * S, S the window sum of x^2.
    Value sq = pointwise(rewriter, loc, type, x,
                         [](OpBuilder &b, Location l, ValueRange a) {
                           return mul(b, l, a[0], a[0]);
                         });
    Value norm =
        pointwise(rewriter, loc, type, channelWindowSum(rewriter, loc, sq, r),
                  [&](OpBuilder &b, Location l, ValueRange a) {
                    return add(b, l, floatConst(b, l, elt, bias),
                               mul(b, l, floatConst(b, l, elt, alpha), a[0]));
                  });
    // t = dy * x * N^(-beta-1); T = window sum of t.
    Value t = pointwise(rewriter, loc, type, ValueRange{dy, x, norm},
                        [&](OpBuilder &b, Location l, ValueRange a) {
                          Value p = powConst(b, l, a[2], -beta - 1.0);
                          return mul(b, l, mul(b, l, a[0], a[1]), p);
                        });
    Value windowT = channelWindowSum(rewriter, loc, t, r);
    // dx = dy * N^-beta - 2 alpha beta x T
    rewriter.replaceOp(
        op, pointwise(rewriter, loc, type, ValueRange{dy, x, norm, windowT},
                      [&](OpBuilder &b, Location l, ValueRange a) {
                        Value direct =
                            mul(b, l, a[0], powConst(b, l, a[2], -beta));
                        Value cross =
                            mul(b, l, floatConst(b, l, elt, 2.0 * alpha * beta),
                                mul(b, l, a[1], a[3]));
                        return sub(b, l, direct, cross);
                      }));
    return success();
  }
};

/// Rows [N] reduced from `x` [N, C] with `combine`.
Value rowReduce(OpBuilder &b, Location loc, Value x, double init,
                function_ref<Value(OpBuilder &, Location, Value, Value)> fn) {
  return reduceAlong(b, loc, x, /*axis=*/1, init, fn);
}

/// The label of row `i` (the generic's first index) as an index.
Value labelIndex(OpBuilder &b, Location l, Value label) {
  return arith::IndexCastOp::create(b, l, b.getIndexType(), label);
}

Value isLabel(OpBuilder &b, Location l, Value label) {
  Value j = linalg::IndexOp::create(b, l, 1);
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, j,
                               labelIndex(b, l, label));
}

struct SparseCEGradLowering
    : OpRewritePattern<nn::SparseSoftmaxCrossEntropyGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SparseSoftmaxCrossEntropyGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    Value logits = op.getLogits();
    Value rowMax = rowReduce(rewriter, loc, logits,
                             -std::numeric_limits<double>::infinity(),
                             [](OpBuilder &b, Location l, Value acc, Value v) {
                               return arith::MaximumFOp::create(b, l, acc, v);
                             });
    AffineMap row = dropAxisMap(ctx, 2, 1), id = identity(ctx, 2);
    auto rowType = cast<RankedTensorType>(rowMax.getType());
    Value sumExp = generic(
        rewriter, loc, rowType, ValueRange{logits, rowMax}, {id, row, row},
        parallel(1, 1),
        [](OpBuilder &b, Location l, ValueRange a) {
          return add(b, l, a[2],
                     math::ExpOp::create(b, l, sub(b, l, a[0], a[1])));
        },
        /*init=*/0.0);
    // (softmax - onehot) * loss_grad / N
    double invN = 1.0 / double(type.getDimSize(0));
    AffineMap scalar = AffineMap::get(2, 0, {}, ctx);
    rewriter.replaceOp(
        op, generic(rewriter, loc, type,
                    ValueRange{logits, rowMax, sumExp, op.getLabels(),
                               op.getLossGrad()},
                    {id, row, row, row, scalar, id}, parallel(2),
                    [&](OpBuilder &b, Location l, ValueRange a) {
                      Value p = arith::DivFOp::create(
                          b, l,
                          math::ExpOp::create(b, l, sub(b, l, a[0], a[1])),
                          a[2]);
                      Value one = arith::SelectOp::create(
                          b, l, isLabel(b, l, a[3]), floatConst(b, l, elt, 1.0),
                          floatConst(b, l, elt, 0.0));
                      return mul(b, l, sub(b, l, p, one),
                                 mul(b, l, a[4], floatConst(b, l, elt, invN)));
                    }));
    return success();
  }
};

struct CategoricalCEGradLowering
    : OpRewritePattern<nn::CategoricalCrossEntropyGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::CategoricalCrossEntropyGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    Value probs = op.getProbs();
    double eps = op.getEpsilon().convertToDouble();
    AffineMap row = dropAxisMap(ctx, 2, 1), id = identity(ctx, 2);
    // s_i = row sum; q_i = probs[i, label] (a masked row sum).
    Value sums = rowReduce(rewriter, loc, probs, 0.0,
                           [](OpBuilder &b, Location l, Value acc, Value v) {
                             return add(b, l, acc, v);
                           });
    auto rowType = cast<RankedTensorType>(sums.getType());
    Value atLabel = generic(
        rewriter, loc, rowType, ValueRange{probs, op.getLabels()},
        {id, row, row}, parallel(1, 1),
        [&](OpBuilder &b, Location l, ValueRange a) {
          return add(b, l, a[2],
                     arith::SelectOp::create(b, l, isLabel(b, l, a[1]), a[0],
                                             floatConst(b, l, elt, 0.0)));
        },
        /*init=*/0.0);
    double invN = 1.0 / double(type.getDimSize(0));
    AffineMap scalar = AffineMap::get(2, 0, {}, ctx);
    rewriter.replaceOp(
        op,
        generic(rewriter, loc, type,
                ValueRange{sums, atLabel, op.getLabels(), op.getLossGrad()},
                {row, row, row, scalar, id}, parallel(2),
                [&](OpBuilder &b, Location l, ValueRange a) {
                  Value s = a[0];
                  Value p = arith::DivFOp::create(b, l, a[1], s);
                  // -[j = label] / (p s) + 1 / s, zero where p is clipped.
                  Value invS = arith::DivFOp::create(
                      b, l, floatConst(b, l, elt, 1.0), s);
                  Value own = arith::DivFOp::create(
                      b, l, floatConst(b, l, elt, 1.0), mul(b, l, p, s));
                  Value g = arith::SelectOp::create(b, l, isLabel(b, l, a[2]),
                                                    sub(b, l, invS, own), invS);
                  Value inside = arith::AndIOp::create(
                      b, l,
                      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, p,
                                            floatConst(b, l, elt, eps)),
                      arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, p,
                                            floatConst(b, l, elt, 1.0 - eps)));
                  Value scaled = mul(
                      b, l, g, mul(b, l, a[3], floatConst(b, l, elt, invN)));
                  return arith::SelectOp::create(b, l, inside, scaled,
                                                 floatConst(b, l, elt, 0.0));
                }));
    return success();
  }
};

struct CorrectCountLowering : OpRewritePattern<nn::CorrectCountOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::CorrectCountOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value logits = op.getLogits();
    auto type = cast<RankedTensorType>(logits.getType());
    Type elt = type.getElementType();
    int64_t n = type.getDimSize(0);
    auto i32 = rewriter.getI32Type();
    // The first maximum of each row, and its column.
    auto rowF = RankedTensorType::get({n}, elt);
    auto rowI = RankedTensorType::get({n}, i32);
    Value maxInit =
        filled(rewriter, loc, rowF, -std::numeric_limits<double>::infinity());
    Value zeroI =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(0));
    Value argInit =
        linalg::FillOp::create(rewriter, loc, ValueRange{zeroI},
                               ValueRange{tensor::EmptyOp::create(
                                   rewriter, loc, rowI.getShape(), i32)})
            .getResult(0);
    AffineMap row = dropAxisMap(ctx, 2, 1);
    auto argmax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{rowF, rowI}, ValueRange{logits},
        ValueRange{maxInit, argInit}, {identity(ctx, 2), row, row},
        parallel(1, 1), [&](OpBuilder &b, Location l, ValueRange a) {
          Value j = arith::IndexCastOp::create(
              b, l, i32, linalg::IndexOp::create(b, l, 1));
          Value better = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                               a[0], a[1]);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, better, a[0], a[1]),
                         arith::SelectOp::create(b, l, better, j, a[2])});
        });
    // Count the rows whose argmax is the label.
    auto countType = RankedTensorType::get({}, i32);
    Value countInit =
        linalg::FillOp::create(rewriter, loc, ValueRange{zeroI},
                               ValueRange{tensor::EmptyOp::create(
                                   rewriter, loc, ArrayRef<int64_t>{}, i32)})
            .getResult(0);
    auto id1 = identity(ctx, 1);
    auto scalar = AffineMap::get(1, 0, {}, ctx);
    auto count = linalg::GenericOp::create(
        rewriter, loc, TypeRange{countType},
        ValueRange{argmax.getResult(1), op.getLabels()}, ValueRange{countInit},
        {id1, id1, scalar}, parallel(0, 1),
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value label = a[1];
          if (label.getType() != i32)
            label = arith::TruncIOp::create(b, l, i32, label);
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            a[0], label);
          Value one = arith::ExtUIOp::create(b, l, i32, hit);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::AddIOp::create(b, l, a[2], one)});
        });
    rewriter.replaceOp(op, count.getResult(0));
    return success();
  }
};

/// An update written into the parameter's (and its state's) own tensors:
/// ins (param, grad, state..., scalars...), outs (param, state...).
Value updateGeneric(OpBuilder &b, Location loc, ValueRange tensors,
                    ValueRange scalars, ValueRange outs,
                    function_ref<void(OpBuilder &, Location, ValueRange)> body,
                    SmallVectorImpl<Value> &results) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(tensors[0].getType());
  unsigned rank = type.getRank();
  SmallVector<Value> ins(tensors.begin(), tensors.end());
  ins.append(scalars.begin(), scalars.end());
  SmallVector<AffineMap> maps(tensors.size(), identity(ctx, rank));
  maps.append(scalars.size(), AffineMap::get(rank, 0, {}, ctx));
  maps.append(outs.size(), identity(ctx, rank));
  SmallVector<Type> types(outs.size(), type);
  auto g = linalg::GenericOp::create(b, loc, types, ins, outs, maps,
                                     parallel(rank), body);
  results.assign(g.getResults().begin(), g.getResults().end());
  return g.getResult(0);
}

struct SGDUpdateLowering : OpRewritePattern<nn::SGDUpdateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SGDUpdateOp op,
                                PatternRewriter &rewriter) const override {
    Type elt = cast<ShapedType>(op.getParam().getType()).getElementType();
    double wd = op.getWeightDecay().convertToDouble();
    double momentum = op.getMomentum().convertToDouble();
    bool nesterov = op.getNesterov();
    Value v = op.getVelocity();
    SmallVector<Value> tensors = {op.getParam(), op.getGrad()};
    SmallVector<Value> outs = {op.getParam()};
    if (v) {
      tensors.push_back(v);
      outs.push_back(v);
    }
    SmallVector<Value> results;
    updateGeneric(
        rewriter, op.getLoc(), tensors, op.getLearningRate(), outs,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value w = a[0], g = a[1], lr = v ? a[3] : a[2];
          if (wd != 0.0)
            g = add(b, l, g, mul(b, l, floatConst(b, l, elt, wd), w));
          if (!v) {
            linalg::YieldOp::create(b, l,
                                    ValueRange{sub(b, l, w, mul(b, l, lr, g))});
            return;
          }
          Value mom = floatConst(b, l, elt, momentum);
          Value vNew = add(b, l, mul(b, l, mom, a[2]), g);
          Value step = nesterov ? add(b, l, g, mul(b, l, mom, vNew)) : vNew;
          linalg::YieldOp::create(
              b, l, ValueRange{sub(b, l, w, mul(b, l, lr, step)), vNew});
        },
        results);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct AdamUpdateLowering : OpRewritePattern<nn::AdamUpdateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::AdamUpdateOp op,
                                PatternRewriter &rewriter) const override {
    Type elt = cast<ShapedType>(op.getParam().getType()).getElementType();
    double wd = op.getWeightDecay().convertToDouble();
    double b1 = op.getBeta1().convertToDouble();
    double b2 = op.getBeta2().convertToDouble();
    double eps = op.getEpsilon().convertToDouble();
    SmallVector<Value> results;
    updateGeneric(
        rewriter, op.getLoc(),
        ValueRange{op.getParam(), op.getGrad(), op.getM(), op.getV()},
        ValueRange{op.getLearningRate(), op.getStep()},
        ValueRange{op.getParam(), op.getM(), op.getV()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          auto c = [&](double x) { return floatConst(b, l, elt, x); };
          Value w = a[0], g = a[1], m = a[2], v = a[3], lr = a[4];
          if (wd != 0.0)
            g = add(b, l, g, mul(b, l, c(wd), w));
          Value t = add(b, l, a[5], c(1.0));
          Value mNew = add(b, l, mul(b, l, c(b1), m), mul(b, l, c(1 - b1), g));
          Value vNew = add(b, l, mul(b, l, c(b2), v),
                           mul(b, l, c(1 - b2), mul(b, l, g, g)));
          Value corr = arith::DivFOp::create(
              b, l,
              math::SqrtOp::create(
                  b, l,
                  sub(b, l, c(1.0), math::PowFOp::create(b, l, c(b2), t))),
              sub(b, l, c(1.0), math::PowFOp::create(b, l, c(b1), t)));
          Value denom = add(b, l, math::SqrtOp::create(b, l, vNew), c(eps));
          Value delta = mul(b, l, mul(b, l, lr, corr),
                            arith::DivFOp::create(b, l, mNew, denom));
          linalg::YieldOp::create(b, l,
                                  ValueRange{sub(b, l, w, delta), mNew, vNew});
        },
        results);
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void nnc::populateGradElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<PointwiseLowering<nn::ReluGradOp>>(ctx, reluGrad);
  patterns.add<PointwiseLowering<nn::SigmoidGradOp>>(ctx, sigmoidGrad);
  patterns.add<PointwiseLowering<nn::TanhGradOp>>(ctx, tanhGrad);
  patterns.add<PointwiseLowering<nn::ScaleOp>>(ctx, scale);
  patterns.add<PointwiseLowering<nn::LearningRateOp>>(ctx, learningRate);
  patterns.add<BiasAddGradLowering, SoftmaxGradLowering, LRNGradLowering,
               SparseCEGradLowering, CategoricalCEGradLowering,
               CorrectCountLowering, SGDUpdateLowering, AdamUpdateLowering>(
      ctx);
}
