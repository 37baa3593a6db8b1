//===- ConvToLinalg.cpp - nn convolutions and their gradients to linalg ---===//
//
// Part of nnc. conv2d, conv2d_backprop_input, conv2d_backprop_filter.
// TensorFlow's padding (SAME is asymmetric: AlexNet's conv1 pads 3 before
// and 4 after) becomes an explicitly padded input, then linalg's NHWC named
// convolution runs unpadded. The input gradient is a stride-1 convolution
// of the output gradient (strides become holes, TensorFlow's padding
// becomes the "full" padding) with the flipped, transposed filter; the
// filter gradient is a generic reduction over the batch and output
// positions.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// A two-element i64 attribute (linalg's strides and dilations).
DenseIntElementsAttr pairAttr(OpBuilder &b, ArrayRef<int64_t> values) {
  return DenseIntElementsAttr::get(RankedTensorType::get({2}, b.getI64Type()),
                                   values);
}

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  SmallVector<OpFoldResult> out;
  for (int64_t v : values)
    out.push_back(b.getIndexAttr(v));
  return out;
}

struct Conv2DLowering : OpRewritePattern<nn::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto filterType = cast<RankedTensorType>(op.getFilter().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t, 4> pads =
        convPads(op, inputType, filterType.getShape().take_front(2));
    Value padded = padNHWC(rewriter, loc, op.getInput(), pads, 0.0);
    Value init = filled(rewriter, loc, resultType, 0.0);
    auto conv = linalg::Conv2DNhwcHwcfOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{padded, op.getFilter()}, ValueRange{init},
        pairAttr(rewriter, op.getStrides()),
        pairAttr(rewriter, op.getDilations()));
    rewriter.replaceOp(op, conv.getResult(0));
    return success();
  }
};

/// w'[kh, kw, f, c] = w[K-1-kh, K-1-kw, c, f]: the filter of the input
/// gradient's convolution.
Value flipFilter(OpBuilder &b, Location loc, Value filter) {
  MLIRContext *ctx = b.getContext();
  auto wType = cast<RankedTensorType>(filter.getType());
  int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1);
  AffineExpr e[4];
  bindDims(ctx, e[0], e[1], e[2], e[3]);
  auto flipMap =
      AffineMap::get(4, 0, {kh - 1 - e[0], kw - 1 - e[1], e[3], e[2]}, ctx);
  auto flippedType =
      RankedTensorType::get({kh, kw, wType.getDimSize(3), wType.getDimSize(2)},
                            wType.getElementType());
  return generic(b, loc, flippedType, filter, {flipMap, identity(ctx, 4)},
                 parallel(4),
                 [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

struct Conv2DBackpropInputLowering
    : OpRewritePattern<nn::Conv2DBackpropInputOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dxType = cast<RankedTensorType>(op.getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    auto wType = cast<RankedTensorType>(op.getFilter().getType());
    Type elt = dxType.getElementType();
    int64_t n = dxType.getDimSize(0), c = dxType.getDimSize(3);
    int64_t f = wType.getDimSize(3);
    ArrayRef<int64_t> s = op.getStrides(), d = op.getDilations();
    int64_t k[2] = {wType.getDimSize(0), wType.getDimSize(1)};
    SmallVector<int64_t, 4> pads = convPads(op, dxType, k);

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
    Value flipped = flipFilter(rewriter, loc, op.getFilter());

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
    // Drop the forward padding where the convolution yielded it.
    rewriter.replaceOp(op, unpadNHWC(rewriter, loc, conv, dxType, pads));
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
        convPads(op, xType, dwType.getShape().take_front(2));
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
          return add(b, l, a[2], mul(b, l, a[0], a[1]));
        },
        /*init=*/0.0);
    rewriter.replaceOp(op, dw);
    return success();
  }
};

} // namespace

void nnc::populateConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DLowering, Conv2DBackpropInputLowering,
               Conv2DBackpropFilterLowering>(patterns.getContext());
}
