//===- LossToLinalg.cpp - nn losses to linalg -----------------------------===//
//
// Part of nnc. Losses reduce to rank-0 tensors: l2_loss and weight decay are
// scaled sums of squares; the cross-entropies work row by row (numerically
// stable log-sum-exp for softmax; Keras' normalise-and-clip for
// probabilities) and average over the batch.
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

Value square(OpBuilder &b, Location loc, Value x) {
  return arith::MulFOp::create(b, loc, x, x);
}

/// A rank-0 tensor times a constant.
Value scaled(OpBuilder &b, Location loc, Value scalar, double factor) {
  auto type = cast<RankedTensorType>(scalar.getType());
  return elementwise(
      b, loc, type, scalar, [&](OpBuilder &nb, Location l, ValueRange a) {
        return arith::MulFOp::create(nb, l, a[0],
                                     floatConst(nb, l, a[0].getType(), factor));
      });
}

struct L2LossLowering : OpRewritePattern<nn::L2LossOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::L2LossOp op,
                                PatternRewriter &rewriter) const override {
    Value sum = sumAll(rewriter, op.getLoc(), op.getInput(), square);
    rewriter.replaceOp(op, scaled(rewriter, op.getLoc(), sum, 0.5));
    return success();
  }
};

struct WeightDecayLowering : OpRewritePattern<nn::WeightDecayOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::WeightDecayOp op,
                                PatternRewriter &rewriter) const override {
    Value sum = sumAll(rewriter, op.getLoc(), op.getInput(), square);
    double factor = 0.5 * op.getScale().convertToDouble();
    rewriter.replaceOp(op, scaled(rewriter, op.getLoc(), sum, factor));
    return success();
  }
};

/// x[i, labels[i]] for the row handled by the enclosing generic.
Value atLabel(OpBuilder &b, Location loc, Value x, Value label) {
  Value i = linalg::IndexOp::create(b, loc, 0);
  Value j = arith::IndexCastOp::create(b, loc, b.getIndexType(), label);
  return tensor::ExtractOp::create(b, loc, x, ValueRange{i, j});
}

/// The batch mean of per-row losses `[N]`.
Value batchMean(OpBuilder &b, Location loc, Value rows) {
  auto type = cast<RankedTensorType>(rows.getType());
  Value sum =
      sumAll(b, loc, rows, [](OpBuilder &, Location, Value v) { return v; });
  return scaled(b, loc, sum, 1.0 / static_cast<double>(type.getDimSize(0)));
}

struct SparseSoftmaxCELowering
    : OpRewritePattern<nn::SparseSoftmaxCrossEntropyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SparseSoftmaxCrossEntropyOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value logits = op.getLogits();
    MLIRContext *ctx = rewriter.getContext();

    // loss_i = log(sum_j exp(x_ij - m_i)) + m_i - x_i,label
    Value rowMax =
        reduceAlong(rewriter, loc, logits, /*axis=*/1,
                    -std::numeric_limits<double>::infinity(),
                    [](OpBuilder &b, Location l, Value acc, Value v) {
                      return arith::MaximumFOp::create(b, l, acc, v);
                    });
    auto rowType = cast<RankedTensorType>(rowMax.getType());
    AffineMap row = dropAxisMap(ctx, 2, 1);
    Value sumExp = generic(
        rewriter, loc, rowType, ValueRange{logits, rowMax},
        {identity(ctx, 2), row, row}, parallel(1, 1),
        [](OpBuilder &b, Location l, ValueRange a) {
          Value e = math::ExpOp::create(
              b, l, arith::SubFOp::create(b, l, a[0], a[1]));
          return arith::AddFOp::create(b, l, a[2], e);
        },
        /*init=*/0.0);
    Value rows = elementwise(
        rewriter, loc, rowType, ValueRange{sumExp, rowMax, op.getLabels()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value lse = arith::AddFOp::create(
              b, l, math::LogOp::create(b, l, a[0]), a[1]);
          return arith::SubFOp::create(b, l, lse, atLabel(b, l, logits, a[2]));
        });
    rewriter.replaceOp(op, batchMean(rewriter, loc, rows));
    return success();
  }
};

struct CategoricalCELowering : OpRewritePattern<nn::CategoricalCrossEntropyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::CategoricalCrossEntropyOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value probs = op.getProbs();
    double eps = op.getEpsilon().convertToDouble();

    // loss_i = -log(clip(p_i,label / sum_j p_ij, eps, 1 - eps))
    Value rowSum =
        reduceAlong(rewriter, loc, probs, /*axis=*/1, 0.0,
                    [](OpBuilder &b, Location l, Value acc, Value v) {
                      return arith::AddFOp::create(b, l, acc, v);
                    });
    auto rowType = cast<RankedTensorType>(rowSum.getType());
    Value rows = elementwise(
        rewriter, loc, rowType, ValueRange{rowSum, op.getLabels()},
        [&](OpBuilder &b, Location l, ValueRange a) {
          Type elt = a[0].getType();
          Value p =
              arith::DivFOp::create(b, l, atLabel(b, l, probs, a[1]), a[0]);
          Value lo = floatConst(b, l, elt, eps);
          Value hi = floatConst(b, l, elt, 1.0 - eps);
          Value clipped = arith::MinimumFOp::create(
              b, l, arith::MaximumFOp::create(b, l, p, lo), hi);
          return arith::NegFOp::create(b, l,
                                       math::LogOp::create(b, l, clipped));
        });
    rewriter.replaceOp(op, batchMean(rewriter, loc, rows));
    return success();
  }
};

} // namespace

void nnc::populateLossToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<L2LossLowering, WeightDecayLowering, SparseSoftmaxCELowering,
               CategoricalCELowering>(patterns.getContext());
}
