//===- NormToLinalg.cpp - nn normalisations and their gradients to linalg -===//
//
// Part of nnc. lrn and lrn_grad. LRN (TensorFlow semantics: alpha not
// divided by the window) is a windowed channel sum of squares over a
// zero-padded channel axis, its gradient two such sums. Batch
// normalisation is in BatchNormToLinalg.cpp.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// base^exponent for a constant exponent. Multiples of 1/4 up to 4 in
/// magnitude (LRN's beta = 0.75 and its gradient's -1.75) are products of
/// sqrt, which vectorise and round well; other exponents use math.powf.
Value powConst(OpBuilder &b, Location loc, Value base, double exponent) {
  Type type = base.getType();
  double quarters = exponent * 4;
  if (quarters != std::round(quarters) || std::abs(exponent) > 4)
    return math::PowFOp::create(b, loc, base,
                                floatConst(b, loc, type, exponent));
  int64_t q = static_cast<int64_t>(std::abs(quarters));
  Value result = floatConst(b, loc, type, 1.0);
  auto times = [&](Value v) {
    result = arith::MulFOp::create(b, loc, result, v);
  };
  for (int64_t i = 0; i < q / 4; ++i)
    times(base);
  if (q % 4) {
    Value root = math::SqrtOp::create(b, loc, base); // base^1/2
    if (q % 4 >= 2)
      times(root);
    if (q % 2)
      times(math::SqrtOp::create(b, loc, root)); // base^1/4
  }
  if (exponent < 0)
    result =
        arith::DivFOp::create(b, loc, floatConst(b, loc, type, 1.0), result);
  return result;
}

/// s[n,h,w,c] = sum of x[n,h,w,c-r .. c+r] (zeros beyond the channels).
Value channelWindowSum(OpBuilder &b, Location loc, Value x, int64_t r) {
  // The sum of 2r+1 channel-shifted views of the zero-padded input: an
  // elementwise op, contiguous along the channels.
  auto type = cast<RankedTensorType>(x.getType());
  Value padded = padTensor(b, loc, x, {0, 0, 0, r}, {0, 0, 0, r}, 0.0);
  SmallVector<Value> shifted;
  for (int64_t k = 0; k <= 2 * r; ++k) {
    SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0)), sizes, steps;
    offsets[3] = b.getIndexAttr(k);
    for (int64_t d : type.getShape()) {
      sizes.push_back(b.getIndexAttr(d));
      steps.push_back(b.getIndexAttr(1));
    }
    shifted.push_back(tensor::ExtractSliceOp::create(b, loc, type, padded,
                                                     offsets, sizes, steps));
  }
  return foldInputs(b, loc, type, shifted, add);
}

/// S: the sum of x^2 over channels c-r .. c+r.
Value channelWindowSquares(OpBuilder &b, Location loc, Value x, int64_t r) {
  auto type = cast<RankedTensorType>(x.getType());
  Value sq =
      elementwise(b, loc, type, x, [](OpBuilder &nb, Location l, ValueRange a) {
        return mul(nb, l, a[0], a[0]);
      });
  return channelWindowSum(b, loc, sq, r);
}

struct LRNLowering : OpRewritePattern<nn::LRNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::LRNOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    Value sums =
        channelWindowSquares(rewriter, loc, op.getInput(), op.getDepthRadius());

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
    Value norm = pointwise(
        rewriter, loc, type, channelWindowSquares(rewriter, loc, x, r),
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

} // namespace

void nnc::populateNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<LRNLowering, LRNGradLowering>(patterns.getContext());
}
