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

    int64_t dil[2], padded[2], full[2];
    for (int a = 0; a < 2; ++a) {
      dil[a] = (dyType.getDimSize(1 + a) - 1) * s[a] + 1;
      padded[a] = dxType.getDimSize(1 + a) + pads[2 * a] + pads[2 * a + 1];
      full[a] = (k[a] - 1) * d[a]; // "full" padding before
    }
    // dy with (stride - 1) zeros between its elements, padded so the
    // stride-1 convolution yields exactly the input's positions: the "full"
    // padding (k-1)d less the forward padding before, and after whatever the
    // forward pass left over. When the forward padding exceeds the filter's
    // reach, yield the padded input's positions and cut.
    int64_t before[2], after[2];
    bool interior = true;
    for (int a = 0; a < 2; ++a) {
      before[a] = full[a] - pads[2 * a];
      after[a] = dxType.getDimSize(1 + a) + full[a] - dil[a] - before[a];
      interior &= before[a] >= 0 && after[a] >= 0;
    }
    if (!interior)
      for (int a = 0; a < 2; ++a) {
        before[a] = full[a];
        after[a] = padded[a] - dil[a];
      }
    Value dyPadded = op.getOutputGrad();
    if (s[0] != 1 || s[1] != 1 || before[0] || before[1] || after[0] ||
        after[1]) {
      // One zero-filled tensor with dy inserted at its strided positions.
      auto holesType = RankedTensorType::get(
          {n, before[0] + dil[0] + after[0], before[1] + dil[1] + after[1], f},
          elt);
      dyPadded = tensor::InsertSliceOp::create(
          rewriter, loc, dyPadded, filled(rewriter, loc, holesType, 0.0),
          indexAttrs(rewriter, {0, before[0], before[1], 0}),
          indexAttrs(rewriter, dyType.getShape()),
          indexAttrs(rewriter, {1, s[0], s[1], 1}));
    }

    // w'[kh, kw, f, c] = w[K-1-kh, K-1-kw, c, f]
    AffineExpr e[4];
    bindDims(ctx, e[0], e[1], e[2], e[3]);
    auto flipMap = AffineMap::get(
        4, 0, {k[0] - 1 - e[0], k[1] - 1 - e[1], e[3], e[2]}, ctx);
    auto flippedType = RankedTensorType::get({k[0], k[1], f, c}, elt);
    Value flipped = generic(
        rewriter, loc, flippedType, op.getFilter(), {flipMap, identity(ctx, 4)},
        parallel(4), [](OpBuilder &, Location, ValueRange a) { return a[0]; });

    auto fullType =
        interior ? dxType
                 : RankedTensorType::get({n, padded[0], padded[1], c}, elt);
    const int64_t ones[2] = {1, 1};
    Value conv =
        linalg::Conv2DNhwcHwcfOp::create(
            rewriter, loc, TypeRange{fullType}, ValueRange{dyPadded, flipped},
            ValueRange{filled(rewriter, loc, fullType, 0.0)},
            pairAttr(rewriter, ones), pairAttr(rewriter, d))
            .getResult(0);
    if (interior) {
      rewriter.replaceOp(op, conv);
      return success();
    }
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

/// dx of a pooling op: zeros of the padded input's shape; then, for each
/// window offset (kh, kw) in turn, the strided view of dx that offset covers
/// (one position per output window, so no two writes collide) gets
/// `term(inputs..., k)` added, k = kh * KW + kw; then the padding is cut off.
/// Each step is an elementwise op, contiguous along the channels.
Value accumulateWindows(
    OpBuilder &b, Location loc, RankedTensorType dxType,
    RankedTensorType dyType, ArrayRef<int64_t> window,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> pads, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange, int64_t)> term) {
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> padded(dxType.getShape());
  padded[1] += pads[0] + pads[1];
  padded[2] += pads[2] + pads[3];
  Type elt = dxType.getElementType();
  Value dx = filled(b, loc, RankedTensorType::get(padded, elt), 0.0);
  SmallVector<AffineMap> maps(inputs.size() + 1, identity(ctx, 4));
  for (int64_t kh = 0; kh < window[0]; ++kh)
    for (int64_t kw = 0; kw < window[1]; ++kw) {
      Value view = windowSlice(b, loc, dx, kh, kw, strides, dyType.getShape());
      int64_t k = kh * window[1] + kw;
      auto update = linalg::GenericOp::create(
          b, loc, TypeRange{view.getType()}, inputs, ValueRange{view}, maps,
          parallel(4), [&](OpBuilder &nb, Location l, ValueRange a) {
            Value sum = arith::AddFOp::create(nb, l, a.back(),
                                              term(nb, l, a.drop_back(), k));
            linalg::YieldOp::create(nb, l, sum);
          });
      auto slice = view.getDefiningOp<tensor::ExtractSliceOp>();
      dx = tensor::InsertSliceOp::create(
          b, loc, update.getResult(0), dx, slice.getMixedOffsets(),
          slice.getMixedSizes(), slice.getMixedStrides());
    }
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return dx;
  return tensor::ExtractSliceOp::create(
      b, loc, dxType, dx, indexAttrs(b, {0, pads[0], pads[2], 0}),
      indexAttrs(b, dxType.getShape()), indexAttrs(b, {1, 1, 1, 1}));
}

struct MaxPoolGradLowering : OpRewritePattern<nn::MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    ArrayRef<int64_t> win = op.getWindow(), str = op.getStrides();
    const int64_t ones[2] = {1, 1};
    SmallVector<int64_t, 4> pads =
        explicitPads(xType, win, str, ones, op.getPadding(), op.getPad());
    double lowest = -std::numeric_limits<double>::infinity();
    Value x = padNHWC(rewriter, loc, op.getInput(), pads, lowest);

    // The winner of each window: the offset k = kh * KW + kw of its first
    // maximum (row-major window order), over the window's strided views.
    SmallVector<Value> views;
    for (int64_t kh = 0; kh < win[0]; ++kh)
      for (int64_t kw = 0; kw < win[1]; ++kw)
        views.push_back(
            windowSlice(rewriter, loc, x, kh, kw, str, dyType.getShape()));
    auto idxType =
        RankedTensorType::get(dyType.getShape(), rewriter.getI32Type());
    Value winners = elementwise(
        rewriter, loc, idxType, views,
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value best = a[0];
          for (size_t k = 1; k < views.size(); ++k)
            best = arith::MaximumFOp::create(b, l, best, a[k]);
          Value winner = arith::ConstantOp::create(
              b, l, b.getI32IntegerAttr(views.size() - 1));
          for (size_t k = views.size() - 1; k-- > 0;) {
            Value hit = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                              a[k], best);
            winner = arith::SelectOp::create(
                b, l, hit,
                arith::ConstantOp::create(b, l, b.getI32IntegerAttr(k)),
                winner);
          }
          return winner;
        });
    Type elt = xType.getElementType();
    rewriter.replaceOp(
        op, accumulateWindows(
                rewriter, loc, xType, dyType, win, str, pads,
                ValueRange{winners, op.getOutputGrad()},
                [&](OpBuilder &b, Location l, ValueRange a, int64_t k) {
                  Value won = arith::CmpIOp::create(
                      b, l, arith::CmpIPredicate::eq, a[0],
                      arith::ConstantOp::create(b, l, b.getI32IntegerAttr(k)));
                  return arith::SelectOp::create(b, l, won, a[1],
                                                 floatConst(b, l, elt, 0.0));
                }));
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
    Type elt = dxType.getElementType();
    // Each window's gradient divided by its real (unpadded) positions,
    // once; then shared by every position of the window.
    Value shares = elementwise(
        rewriter, loc, dyType, op.getOutputGrad(),
        [&](OpBuilder &b, Location l, ValueRange a) {
          Value oh = linalg::IndexOp::create(b, l, 1);
          Value ow = linalg::IndexOp::create(b, l, 2);
          Value count =
              arith::MulIOp::create(b, l,
                                    realCount(b, l, oh, str[0], pads[0], win[0],
                                              dxType.getDimSize(1)),
                                    realCount(b, l, ow, str[1], pads[2], win[1],
                                              dxType.getDimSize(2)));
          Value countF = arith::SIToFPOp::create(
              b, l, elt,
              arith::IndexCastOp::create(b, l, b.getI64Type(), count));
          return arith::DivFOp::create(b, l, a[0], countF);
        });
    rewriter.replaceOp(op,
                       accumulateWindows(rewriter, loc, dxType, dyType, win,
                                         str, pads, ValueRange{shares},
                                         [](OpBuilder &, Location, ValueRange a,
                                            int64_t) { return a[0]; }));
    return success();
  }
};

} // namespace

void nnc::populateGradConvPoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DBackpropInputLowering, Conv2DBackpropFilterLowering,
               MaxPoolGradLowering, AvgPoolGradLowering>(patterns.getContext());
}
