//===- ElementwiseToLinalg.cpp - nn elementwise ops to linalg -------------===//
//
// Part of nnc. relu, sigmoid, tanh, add and bias_add become elementwise
// linalg.generic ops (which the fusion passes merge); inference dropout is
// the identity.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
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

} // namespace

void nnc::populateElementwiseToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<UnaryLowering<nn::ReluOp>>(ctx, reluBody);
  patterns.add<UnaryLowering<nn::SigmoidOp>>(ctx, sigmoidBody);
  patterns.add<UnaryLowering<nn::TanhOp>>(ctx, tanhBody);
  patterns.add<AddLowering, BiasAddLowering, DropoutLowering>(ctx);
}
