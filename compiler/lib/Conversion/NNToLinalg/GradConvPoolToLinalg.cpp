//===- GradConvPoolToLinalg.cpp - conv and pooling gradients to linalg ----===//
//
// Part of nnc. The input gradient of a convolution is a stride-1
// convolution of the output gradient (strides become holes, TensorFlow's
// padding becomes the "full" padding) with the flipped, transposed filter;
// the filter gradient is a generic reduction over the batch and output
// positions. Pooling gradients gather: each input position sums the output
// gradients of the windows it won (max) or shared (average).
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include <limits>

using namespace mlir;
using namespace nnc::linalg_utils;

namespace {

Value cstIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> out;
  for (int64_t v : values)
    out.push_back(b.getIndexAttr(v));
  return out;
}

struct Conv2DBackpropInputLowering
    : OpRewritePattern<nn::Conv2DBackpropInputOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto dxType = cast<RankedTensorType>(op.getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    auto wType = cast<RankedTensorType>(op.getFilter().getType());
    Type elt = dxType.getElementType();
    int64_t n = dxType.getDimSize(0), c = dxType.getDimSize(3);
    int64_t f = wType.getDimSize(3);
    ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations();
    int64_t k[2] = {wType.getDimSize(0), wType.getDimSize(1)};
    SmallVector<int64_t, 4> pads =
        explicitPads(dxType, {k[0], k[1]}, s, d, op.getPadding(), op.getPad());

    // dy with (stride - 1) zeros between its elements.
    Value dy = op.getOutputGrad();
    int64_t dil[2], padded[2], full[2];
    for (int a = 0; a < 2; ++a) {
      dil[a] = (dyType.getDimSize(1 + a) - 1) * s[a] + 1;
      padded[a] = dxType.getDimSize(1 + a) + pads[2 * a] + pads[2 * a + 1];
      full[a] = (k[a] - 1) * d[a]; // "full" padding before
    }
    if (s[0] != 1 || s[1] != 1) {
      auto holesType = RankedTensorType::get({n, dil[0], dil[1], f}, elt);
      Value zeros = filled(rewriter, loc, holesType, 0.0);
      dy = tensor::InsertSliceOp::create(
          rewriter, loc, dy, zeros, indexAttrs(rewriter, {0, 0, 0, 0}),
          indexAttrs(rewriter, dyType.getShape()),
          indexAttrs(rewriter, {1, s[0], s[1], 1}));
    }
    // Pad so the stride-1 convolution yields every position of the padded
    // input: (k-1)d before, and after whatever the forward pass left over.
    Value dyPadded =
        padTensor(rewriter, loc, dy, {0, full[0], full[1], 0},
                  {0, padded[0] - dil[0], padded[1] - dil[1], 0}, 0.0);

    // w'[kh, kw, f, c] = w[K-1-kh, K-1-kw, c, f]
    AffineExpr e[4];
    bindDims(ctx, e[0], e[1], e[2], e[3]);
    auto flipMap = AffineMap::get(
        4, 0, {k[0] - 1 - e[0], k[1] - 1 - e[1], e[3], e[2]}, ctx);
    auto flippedType = RankedTensorType::get({k[0], k[1], f, c}, elt);
    Value flipped = generic(
        rewriter, loc, flippedType, op.getFilter(), {flipMap, identity(ctx, 4)},
        parallel(4), [](OpBuilder &, Location, ValueRange a) { return a[0]; });

    auto fullType = RankedTensorType::get({n, padded[0], padded[1], c}, elt);
    const int64_t ones[2] = {1, 1};
    Value conv =
        linalg::Conv2DNhwcHwcfOp::create(
            rewriter, loc, TypeRange{fullType}, ValueRange{dyPadded, flipped},
            ValueRange{filled(rewriter, loc, fullType, 0.0)},
            pairAttr(rewriter, ones), pairAttr(rewriter, d))
            .getResult(0);
    // Drop the forward padding.
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, dxType, conv, indexAttrs(rewriter, {0, pads[0], pads[2], 0}),
        indexAttrs(rewriter, dxType.getShape()),
        indexAttrs(rewriter, {1, 1, 1, 1}));
    return success();
  }
};

struct Conv2DBackpropFilterLowering
    : OpRewritePattern<nn::Conv2DBackpropFilterOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::Conv2DBackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto dwType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations();
    SmallVector<int64_t, 4> pads =
        explicitPads(xType, dwType.getShape().take_front(2), s, d,
                     op.getPadding(), op.getPad());
    Value x = padNHWC(rewriter, loc, op.getInput(), pads, 0.0);
    // dw[kh, kw, c, f] = sum_{n, oh, ow} x[n, oh*s + kh*d, ow*s + kw*d, c]
    //                                    * dy[n, oh, ow, f]
    AffineExpr kh, kw, c, f, n, oh, ow;
    bindDims(ctx, kh, kw, c, f, n, oh, ow);
    auto xMap = AffineMap::get(
        7, 0, {n, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1], c}, ctx);
    auto dyMap = AffineMap::get(7, 0, {n, oh, ow, f}, ctx);
    auto dwMap = AffineMap::get(7, 0, {kh, kw, c, f}, ctx);
    Value dw = generic(
        rewriter, loc, dwType, ValueRange{x, op.getOutputGrad()},
        {xMap, dyMap, dwMap}, parallel(4, 3),
        [](OpBuilder &b, Location l, ValueRange a) {
          return arith::AddFOp::create(b, l, a[2],
                                       arith::MulFOp::create(b, l, a[0], a[1]));
        },
        /*init=*/0.0);
    rewriter.replaceOp(op, dw);
    return success();
  }
};

/// The output window index that input position `i` (padded coordinates)
/// falls in at window offset `k`, with whether it exists: (i - k) / s when
/// that divides and lies in [0, size).
std::pair<Value, Value> windowOf(OpBuilder &b, Location loc, Value i, Value k,
                                 int64_t stride, int64_t size) {
  Value t = arith::SubIOp::create(b, loc, i, k);
  Value q = arith::DivSIOp::create(b, loc, t, cstIndex(b, loc, stride));
  Value r = arith::RemSIOp::create(b, loc, t, cstIndex(b, loc, stride));
  Value zero = cstIndex(b, loc, 0);
  Value ok = arith::AndIOp::create(
      b, loc,
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, t, zero),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, r, zero)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, q,
                            cstIndex(b, loc, size)));
  Value safe = arith::SelectOp::create(b, loc, ok, q, zero);
  return {safe, ok};
}

/// dx[n, h, w, c] = sum over window offsets (kh, kw) of
/// `term(oh, ow, kh, kw)` for the output windows that cover (h, w).
template <typename Term>
Value gatherPoolGrad(OpBuilder &rewriter, Location loc, RankedTensorType dxType,
                     RankedTensorType dyType, ArrayRef<int64_t> window,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                     Term term) {
  MLIRContext *ctx = rewriter.getContext();
  Type elt = dxType.getElementType();
  Value windowShape = tensor::EmptyOp::create(rewriter, loc, window, elt);
  AffineExpr e[6];
  bindDims(ctx, e[0], e[1], e[2], e[3], e[4], e[5]);
  auto winMap = AffineMap::get(6, 0, {e[4], e[5]}, ctx);
  auto outMap = AffineMap::get(6, 0, {e[0], e[1], e[2], e[3]}, ctx);
  return generic(
      rewriter, loc, dxType, ValueRange{windowShape}, {winMap, outMap},
      parallel(4, 2),
      [&](OpBuilder &b, Location l, ValueRange a) {
        Value idx[6];
        for (int i = 0; i < 6; ++i)
          idx[i] = linalg::IndexOp::create(b, l, i);
        Value h = arith::AddIOp::create(b, l, idx[1], cstIndex(b, l, pads[0]));
        Value w = arith::AddIOp::create(b, l, idx[2], cstIndex(b, l, pads[2]));
        auto [oh, okH] =
            windowOf(b, l, h, idx[4], strides[0], dyType.getDimSize(1));
        auto [ow, okW] =
            windowOf(b, l, w, idx[5], strides[1], dyType.getDimSize(2));
        Value ok = arith::AndIOp::create(b, l, okH, okW);
        Value v = term(b, l, idx[0], oh, ow, idx[3], idx[4], idx[5]);
        Value contribution =
            arith::SelectOp::create(b, l, ok, v, floatConst(b, l, elt, 0.0));
        return arith::AddFOp::create(b, l, a[1], contribution);
      },
      /*init=*/0.0);
}

struct MaxPoolGradLowering : OpRewritePattern<nn::MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    ArrayRef<int64_t> win = op.getWindow(), str = op.getStrides();
    const int64_t ones[2] = {1, 1};
    SmallVector<int64_t, 4> pads =
        explicitPads(xType, win, str, ones, op.getPadding(), op.getPad());
    double lowest = -std::numeric_limits<double>::infinity();
    Value x = padNHWC(rewriter, loc, op.getInput(), pads, lowest);

    // The winner of each window: its first maximum, as a flat window offset.
    AffineExpr e[6];
    bindDims(ctx, e[0], e[1], e[2], e[3], e[4], e[5]);
    auto xMap = AffineMap::get(
        6, 0, {e[0], e[1] * str[0] + e[4], e[2] * str[1] + e[5], e[3]}, ctx);
    auto winMap = AffineMap::get(6, 0, {e[4], e[5]}, ctx);
    auto outMap = AffineMap::get(6, 0, {e[0], e[1], e[2], e[3]}, ctx);
    Type elt = xType.getElementType();
    auto idxType =
        RankedTensorType::get(dyType.getShape(), rewriter.getI32Type());
    Value maxInit = filled(rewriter, loc, dyType, lowest);
    Value argInit =
        linalg::FillOp::create(
            rewriter, loc,
            ValueRange{arith::ConstantOp::create(
                rewriter, loc, rewriter.getI32IntegerAttr(0))},
            ValueRange{tensor::EmptyOp::create(
                rewriter, loc, idxType.getShape(), rewriter.getI32Type())})
            .getResult(0);
    Value windowShape = tensor::EmptyOp::create(rewriter, loc, win, elt);
    auto argmax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{dyType, idxType}, ValueRange{x, windowShape},
        ValueRange{maxInit, argInit}, {xMap, winMap, outMap, outMap},
        parallel(4, 2), [&](OpBuilder &b, Location l, ValueRange a) {
          Value kh = linalg::IndexOp::create(b, l, 4);
          Value kw = linalg::IndexOp::create(b, l, 5);
          Value flat = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, kh, cstIndex(b, l, win[1])),
              kw);
          Value flatI32 =
              arith::IndexCastOp::create(b, l, b.getI32Type(), flat);
          Value better = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                               a[0], a[2]);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, better, a[0], a[2]),
                         arith::SelectOp::create(b, l, better, flatI32, a[3])});
        });
    Value winners = argmax.getResult(1);
    Value dy = op.getOutputGrad();
    Value dx = gatherPoolGrad(
        rewriter, loc, xType, dyType, win, str, pads,
        [&](OpBuilder &b, Location l, Value n, Value oh, Value ow, Value c,
            Value kh, Value kw) -> Value {
          Value flat = arith::AddIOp::create(
              b, l, arith::MulIOp::create(b, l, kh, cstIndex(b, l, win[1])),
              kw);
          Value winner = arith::IndexCastOp::create(
              b, l, b.getIndexType(),
              tensor::ExtractOp::create(b, l, winners,
                                        ValueRange{n, oh, ow, c}));
          Value g =
              tensor::ExtractOp::create(b, l, dy, ValueRange{n, oh, ow, c});
          Value won = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            winner, flat);
          return arith::SelectOp::create(b, l, won, g,
                                         floatConst(b, l, elt, 0.0));
        });
    rewriter.replaceOp(op, dx);
    return success();
  }
};

struct AvgPoolGradLowering : OpRewritePattern<nn::AvgPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::AvgPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dxType = cast<RankedTensorType>(op.getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    ArrayRef<int64_t> win = op.getWindow(), str = op.getStrides();
    const int64_t ones[2] = {1, 1};
    SmallVector<int64_t, 4> pads =
        explicitPads(dxType, win, str, ones, op.getPadding(), op.getPad());
    Value dy = op.getOutputGrad();
    Type elt = dxType.getElementType();
    Value dx = gatherPoolGrad(
        rewriter, loc, dxType, dyType, win, str, pads,
        [&](OpBuilder &b, Location l, Value n, Value oh, Value ow, Value c,
            Value, Value) -> Value {
          Value count =
              arith::MulIOp::create(b, l,
                                    realCount(b, l, oh, str[0], pads[0], win[0],
                                              dxType.getDimSize(1)),
                                    realCount(b, l, ow, str[1], pads[2], win[1],
                                              dxType.getDimSize(2)));
          Value countF = arith::SIToFPOp::create(
              b, l, elt,
              arith::IndexCastOp::create(b, l, b.getI64Type(), count));
          Value g =
              tensor::ExtractOp::create(b, l, dy, ValueRange{n, oh, ow, c});
          return arith::DivFOp::create(b, l, g, countF);
        });
    rewriter.replaceOp(op, dx);
    return success();
  }
};

} // namespace

void nnc::populateGradConvPoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DBackpropInputLowering, Conv2DBackpropFilterLowering,
               MaxPoolGradLowering, AvgPoolGradLowering>(patterns.getContext());
}
