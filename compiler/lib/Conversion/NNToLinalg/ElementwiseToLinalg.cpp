//===- ElementwiseToLinalg.cpp - nn activations and their gradients -------===//
//
// Part of nnc. relu, sigmoid, tanh, softmax, add, bias_add, dropout and the
// gradients relu_grad, sigmoid_grad, tanh_grad, softmax_grad, bias_add_grad
// and scale, to linalg. Elementwise ops become elementwise linalg.generic
// ops (which the fusion passes merge), rank-0 operands broadcast; softmax
// and its gradient reduce along their axis; bias_add_grad sums over every
// axis but the channel; inference dropout is the identity.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <limits>

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

template <typename OpTy> struct UnaryLowering : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  using BodyFn = Value (*)(OpBuilder &, Location, Value);
  UnaryLowering(MLIRContext *ctx, BodyFn fn)
      : OpRewritePattern<OpTy>(ctx), fn(fn) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    Value result =
        elementwise(rewriter, op.getLoc(), type, op.getInput(),
                    [&](OpBuilder &b, Location loc, ValueRange args) {
                      return fn(b, loc, args[0]);
                    });
    rewriter.replaceOp(op, result);
    return success();
  }
  BodyFn fn;
};

Value reluBody(OpBuilder &b, Location loc, Value x) {
  return arith::MaximumFOp::create(b, loc, x,
                                   floatConst(b, loc, x.getType(), 0.0));
}

Value sigmoidBody(OpBuilder &b, Location loc, Value x) {
  // 1 / (1 + exp(-x))
  Value one = floatConst(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}

Value tanhBody(OpBuilder &b, Location loc, Value x) {
  return math::TanhOp::create(b, loc, x);
}

struct AddLowering : OpRewritePattern<nn::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::AddOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    rewriter.replaceOp(
        op, elementwise(rewriter, op.getLoc(), type,
                        ValueRange{op.getLhs(), op.getRhs()},
                        [](OpBuilder &b, Location loc, ValueRange args) {
                          return arith::AddFOp::create(b, loc, args[0],
                                                       args[1]);
                        }));
    return success();
  }
};

struct BiasAddLowering : OpRewritePattern<nn::BiasAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BiasAddOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    unsigned rank = type.getRank();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap lastAxis =
        AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
    Value result = generic(
        rewriter, op.getLoc(), type, ValueRange{op.getInput(), op.getBias()},
        {identity(ctx, rank), lastAxis, identity(ctx, rank)}, parallel(rank),
        [](OpBuilder &b, Location loc, ValueRange args) {
          return arith::AddFOp::create(b, loc, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DropoutLowering : OpRewritePattern<nn::DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::DropoutOp op,
                                PatternRewriter &rewriter) const override {
    // Inverted dropout is the identity at inference; the training step
    // rewrites dropout into a mask before this pass runs.
    rewriter.replaceOp(op, op.getInput());
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

/// An op whose result is `fn(op, operands...)` at every position, rank-0
/// operands broadcast.
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

/// x * s * factor: the gradient of l2_loss and weight_decay.
Value scale(nn::ScaleOp op, OpBuilder &b, Location l, ValueRange a) {
  Type t = a[0].getType();
  return mul(b, l, mul(b, l, a[0], a[1]),
             floatConst(b, l, t, op.getFactor().convertToDouble()));
}

struct BiasAddGradLowering : OpRewritePattern<nn::BiasAddGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BiasAddGradOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, channelSum(rewriter, op.getLoc(),
                                      op.getOutputGrad(), {},
                                      [](OpBuilder &, Location, ValueRange a) {
                                        return a[0];
                                      }));
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

} // namespace

void nnc::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<UnaryLowering<nn::ReluOp>>(ctx, reluBody);
  patterns.add<UnaryLowering<nn::SigmoidOp>>(ctx, sigmoidBody);
  patterns.add<UnaryLowering<nn::TanhOp>>(ctx, tanhBody);
  patterns.add<AddLowering, BiasAddLowering, DropoutLowering, SoftmaxLowering>(
      ctx);
  patterns.add<PointwiseLowering<nn::ReluGradOp>>(ctx, reluGrad);
  patterns.add<PointwiseLowering<nn::SigmoidGradOp>>(ctx, sigmoidGrad);
  patterns.add<PointwiseLowering<nn::TanhGradOp>>(ctx, tanhGrad);
  patterns.add<PointwiseLowering<nn::ScaleOp>>(ctx, scale);
  patterns.add<BiasAddGradLowering, SoftmaxGradLowering>(ctx);
}
