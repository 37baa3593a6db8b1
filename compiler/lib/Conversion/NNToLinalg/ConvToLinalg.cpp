//===- ConvToLinalg.cpp - nn convolutions and their gradients to linalg ---===//
//
// Part of nnc. conv2d, conv2d_backprop_input, conv2d_backprop_filter.
// TensorFlow's padding (SAME is asymmetric: AlexNet's conv1 pads 3 before
// and 4 after) becomes an explicitly padded input, then linalg's NHWC named
// convolution runs unpadded. The input gradient is a stride-1 convolution
// of the output gradient (TensorFlow's padding becomes the "full" padding)
// with the flipped, transposed filter; at a larger stride, one such
// convolution per phase of the input positions with the taps that reach
// them, so that no product with the zeros between strided outputs is
// computed. The filter gradient is a generic reduction over the batch and
// output positions.
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

/// The taps of one phase of a strided filter, flipped and transposed:
/// w'[jh, jw, f, c] = w[r_h + (t_h-1-jh) s_h, r_w + (t_w-1-jw) s_w, c, f]
/// for t taps from r on with step s (at stride 1, r = 0 and t = K: the
/// whole filter, flipped).
Value flipFilter(OpBuilder &b, Location loc, Value filter,
                 ArrayRef<int64_t> first, ArrayRef<int64_t> taps,
                 ArrayRef<int64_t> step) {
  MLIRContext *ctx = b.getContext();
  auto wType = cast<RankedTensorType>(filter.getType());
  AffineExpr e[4];
  bindDims(ctx, e[0], e[1], e[2], e[3]);
  auto flipMap =
      AffineMap::get(4, 0,
                     {first[0] + (taps[0] - 1 - e[0]) * step[0],
                      first[1] + (taps[1] - 1 - e[1]) * step[1], e[3], e[2]},
                     ctx);
  auto flippedType = RankedTensorType::get(
      {taps[0], taps[1], wType.getDimSize(3), wType.getDimSize(2)},
      wType.getElementType());
  return generic(b, loc, flippedType, filter, {flipMap, identity(ctx, 4)},
                 parallel(4),
                 [](OpBuilder &, Location, ValueRange a) { return a[0]; });
}

Value flipFilter(OpBuilder &b, Location loc, Value filter) {
  auto wType = cast<RankedTensorType>(filter.getType());
  int64_t k[2] = {wType.getDimSize(0), wType.getDimSize(1)};
  const int64_t zeros[2] = {0, 0}, ones[2] = {1, 1};
  return flipFilter(b, loc, filter, zeros, k, ones);
}

/// One phase of a strided convolution's input gradient along one axis:
/// the input positions i = i0, i0 + s, ... (count of them) whose padded
/// position is r modulo the stride, and the taps r, r + s, ... that reach
/// them (t of them). Input position i0 + j*s gets
/// sum_{u<t} dy[q0 + j - u] * w[r + u*s].
struct Phase {
  int64_t r = 0, i0 = 0, count = 0, taps = 0, q0 = 0;
};

Phase phaseOf(int64_t r, int64_t stride, int64_t kernel, int64_t size,
              int64_t padBefore) {
  Phase p;
  p.r = r;
  p.i0 = ((r - padBefore) % stride + stride) % stride;
  p.count = p.i0 < size ? (size - p.i0 + stride - 1) / stride : 0;
  p.taps = r < kernel ? (kernel - r + stride - 1) / stride : 0;
  p.q0 = (p.i0 + padBefore - r) / stride;
  return p;
}

/// dy's rows [start, start + length) along both spatial axes, zeros where
/// they fall outside dy; null when none of them is inside.
Value dyWindow(OpBuilder &b, Location loc, Value dy, ArrayRef<int64_t> start,
               ArrayRef<int64_t> length) {
  auto type = cast<RankedTensorType>(dy.getType());
  SmallVector<int64_t, 4> shape(type.getShape()), offsets(4, 0), pads(4, 0);
  for (int a = 0; a < 2; ++a) {
    int64_t size = type.getDimSize(1 + a);
    int64_t lo = std::max<int64_t>(start[a], 0);
    int64_t hi = std::min(start[a] + length[a], size);
    if (hi <= lo)
      return Value();
    offsets[1 + a] = lo;
    shape[1 + a] = hi - lo;
    pads[2 * a] = lo - start[a];
    pads[2 * a + 1] = start[a] + length[a] - hi;
  }
  Value window = sliceTo(
      b, loc, dy, RankedTensorType::get(shape, type.getElementType()), offsets);
  return padNHWC(b, loc, window, pads, 0.0);
}

/// The input gradient at the positions of phases (ph, pw): a stride-1
/// convolution of dy's window with the phases' taps; null when it is zero.
Value phaseGradient(OpBuilder &b, Location loc, nn::Conv2DBackpropInputOp op,
                    const Phase &ph, const Phase &pw) {
  if (!ph.taps || !pw.taps)
    return Value();
  Value window = dyWindow(b, loc, op.getOutputGrad(),
                          {ph.q0 - (ph.taps - 1), pw.q0 - (pw.taps - 1)},
                          {ph.count + ph.taps - 1, pw.count + pw.taps - 1});
  if (!window)
    return Value();
  auto dxType = cast<RankedTensorType>(op.getType());
  Value taps = flipFilter(b, loc, op.getFilter(), {ph.r, pw.r},
                          {ph.taps, pw.taps}, op.getStrides());
  auto type = RankedTensorType::get(
      {dxType.getDimSize(0), ph.count, pw.count, dxType.getDimSize(3)},
      dxType.getElementType());
  const int64_t ones[2] = {1, 1};
  return linalg::Conv2DNhwcHwcfOp::create(b, loc, TypeRange{type},
                                          ValueRange{window, taps},
                                          ValueRange{filled(b, loc, type, 0.0)},
                                          pairAttr(b, ones), pairAttr(b, ones))
      .getResult(0);
}

/// The input gradient of a strided, undilated convolution without the
/// zeros a stride-1 convolution of the holed dy would multiply: for each
/// of the s_h x s_w phases of the input positions, a stride-1 convolution
/// of dy with that phase's taps, written to the phase's strided positions
/// (ResNet's 1x1 stride-2 projections: one quarter of the positions, one
/// matrix product, instead of a product four times as large).
Value phasedInputGradient(OpBuilder &b, Location loc,
                          nn::Conv2DBackpropInputOp op,
                          ArrayRef<int64_t> pads) {
  auto dxType = cast<RankedTensorType>(op.getType());
  ArrayRef<int64_t> s = op.getStrides();
  auto wType = cast<RankedTensorType>(op.getFilter().getType());
  int64_t n = dxType.getDimSize(0), c = dxType.getDimSize(3);
  Type elt = dxType.getElementType();

  // Phases without taps (a kernel smaller than the stride) or out of dy's
  // reach keep the zeros of an initial fill.
  SmallVector<std::tuple<Value, Phase, Phase>> pieces;
  bool anyZero = false;
  for (int64_t rh = 0; rh < s[0]; ++rh)
    for (int64_t rw = 0; rw < s[1]; ++rw) {
      Phase ph =
          phaseOf(rh, s[0], wType.getDimSize(0), dxType.getDimSize(1), pads[0]);
      Phase pw =
          phaseOf(rw, s[1], wType.getDimSize(1), dxType.getDimSize(2), pads[2]);
      if (!ph.count || !pw.count)
        continue;
      Value piece = phaseGradient(b, loc, op, ph, pw);
      if (piece)
        pieces.push_back({piece, ph, pw});
      else
        anyZero = true;
    }
  Value dx =
      anyZero
          ? filled(b, loc, dxType, 0.0)
          : tensor::EmptyOp::create(b, loc, dxType.getShape(), elt).getResult();
  for (auto [piece, ph, pw] : pieces)
    dx = tensor::InsertSliceOp::create(
        b, loc, piece, dx, indexAttrs(b, {0, ph.i0, pw.i0, 0}),
        indexAttrs(b, {n, ph.count, pw.count, c}),
        indexAttrs(b, {1, s[0], s[1], 1}));
  return dx;
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
    if ((s[0] != 1 || s[1] != 1) && d[0] == 1 && d[1] == 1) {
      rewriter.replaceOp(op, phasedInputGradient(rewriter, loc, op, pads));
      return success();
    }

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
