//===- LossToLinalg.cpp - nn losses and their gradients to linalg ---------===//
//
// Part of nnc. l2_loss, weight_decay, sparse_softmax_cross_entropy,
// categorical_cross_entropy, their cross-entropy gradients, and
// correct_count. Losses reduce to rank-0 tensors: l2_loss and weight decay
// are scaled sums of squares (their gradients are nn.scale); the
// cross-entropies work row by row (numerically stable log-sum-exp for
// softmax; Keras' normalise-and-clip for probabilities) and average over the
// batch, and so do their gradients. correct_count compares each row's first
// maximum with its label.
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

/// Sums a tensor to a rank-0 tensor after applying `term` to each element.
Value sumAll(OpBuilder &b, Location loc, Value x,
             function_ref<Value(OpBuilder &, Location, Value)> term) {
  // Whole-tensor sums (losses, weight decay) run over up to millions of
  // terms: they accumulate in f64 and round once.
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  Type elt = type.getElementType(), wide = b.getF64Type();
  auto scalar = RankedTensorType::get({}, elt);
  AffineMap toScalar = AffineMap::get(rank, 0, {}, b.getContext());
  Value sum = generic(
      b, loc, RankedTensorType::get({}, wide), x,
      {identity(b.getContext(), rank), toScalar}, parallel(0, rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value t = term(nb, nloc, args[0]);
        if (t.getType() != wide)
          t = arith::ExtFOp::create(nb, nloc, wide, t);
        return arith::AddFOp::create(nb, nloc, args[1], t);
      },
      /*init=*/0.0);
  if (elt == wide)
    return sum;
  return elementwise(b, loc, scalar, sum,
                     [&](OpBuilder &nb, Location nloc, ValueRange args) {
                       return arith::TruncFOp::create(nb, nloc, elt, args[0]);
                     });
}

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

/// Per row of `logits` [N, C]: the maximum m_i, and sum_j exp(x_ij - m_i).
std::pair<Value, Value> rowMaxAndSumExp(OpBuilder &b, Location loc,
                                        Value logits) {
  MLIRContext *ctx = b.getContext();
  Value rowMax = reduceAlong(b, loc, logits, /*axis=*/1,
                             -std::numeric_limits<double>::infinity(),
                             [](OpBuilder &nb, Location l, Value acc, Value v) {
                               return arith::MaximumFOp::create(nb, l, acc, v);
                             });
  auto rowType = cast<RankedTensorType>(rowMax.getType());
  AffineMap row = dropAxisMap(ctx, 2, 1);
  Value sumExp = generic(
      b, loc, rowType, ValueRange{logits, rowMax}, {identity(ctx, 2), row, row},
      parallel(1, 1),
      [](OpBuilder &nb, Location l, ValueRange a) {
        return add(nb, l, a[2],
                   math::ExpOp::create(nb, l, sub(nb, l, a[0], a[1])));
      },
      /*init=*/0.0);
  return {rowMax, sumExp};
}

/// The row sums of `x` [N, C].
Value rowSum(OpBuilder &b, Location loc, Value x) {
  return reduceAlong(b, loc, x, /*axis=*/1, 0.0,
                     [](OpBuilder &nb, Location l, Value acc, Value v) {
                       return add(nb, l, acc, v);
                     });
}

struct SparseSoftmaxCELowering
    : OpRewritePattern<nn::SparseSoftmaxCrossEntropyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SparseSoftmaxCrossEntropyOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value logits = op.getLogits();
    // loss_i = log(sum_j exp(x_ij - m_i)) + m_i - x_i,label
    auto [rowMax, sumExp] = rowMaxAndSumExp(rewriter, loc, logits);
    auto rowType = cast<RankedTensorType>(rowMax.getType());
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
    Value sums = rowSum(rewriter, loc, probs);
    auto rowType = cast<RankedTensorType>(sums.getType());
    Value rows = elementwise(
        rewriter, loc, rowType, ValueRange{sums, op.getLabels()},
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

/// Whether column j (the generic's second index) is the row's `label`.
Value isLabel(OpBuilder &b, Location l, Value label) {
  Value j = linalg::IndexOp::create(b, l, 1);
  return arith::CmpIOp::create(
      b, l, arith::CmpIPredicate::eq, j,
      arith::IndexCastOp::create(b, l, b.getIndexType(), label));
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
    auto [rowMax, sumExp] = rowMaxAndSumExp(rewriter, loc, logits);
    AffineMap row = dropAxisMap(ctx, 2, 1), id = identity(ctx, 2);
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
    Value sums = rowSum(rewriter, loc, probs);
    auto rowType = cast<RankedTensorType>(sums.getType());
    Value labelProbs = generic(
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
                ValueRange{sums, labelProbs, op.getLabels(), op.getLossGrad()},
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

} // namespace

void nnc::populateLossToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<L2LossLowering, WeightDecayLowering, SparseSoftmaxCELowering,
               CategoricalCELowering, SparseCEGradLowering,
               CategoricalCEGradLowering, CorrectCountLowering>(
      patterns.getContext());
}
