//===- PoolToLinalg.cpp - nn pooling and its gradients to linalg ----------===//
//
// Part of nnc. max_pool2d, avg_pool2d, max_pool2d_grad, avg_pool2d_grad.
// A pool is one elementwise op over the window's strided views of the
// padded input, contiguous along the channels. Max pooling pads with -inf,
// so padding never wins; average pooling divides each window by the number
// of real elements in it, as TensorFlow does. The gradients gather: each
// position of the input's gradient sums the output gradients of the windows
// where it won (max) or its share of them (average), one elementwise op per
// phase of the stride (gatherWindows). At stride 1 an average pool's
// gradient is the forward pool over the padded shares, and a window over
// the whole image broadcasts its share.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include <limits>

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// Number of real (unpadded) positions of an axis in the window of output
/// index `o`: min(o*s - before + k, size) - max(o*s - before, 0).
Value realCount(OpBuilder &b, Location loc, Value o, int64_t stride,
                int64_t before, int64_t window, int64_t size) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value start = arith::SubIOp::create(
      b, loc, arith::MulIOp::create(b, loc, o, cst(stride)), cst(before));
  Value end = arith::AddIOp::create(b, loc, start, cst(window));
  Value lo = arith::MaxSIOp::create(b, loc, start, cst(0));
  Value hi = arith::MinSIOp::create(b, loc, end, cst(size));
  return arith::SubIOp::create(b, loc, hi, lo);
}

/// `v` divided by the number of real positions in the window of the
/// output position the enclosing generic is at (indices 1 and 2).
Value divideByWindowCount(OpBuilder &b, Location l, Value v,
                          ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> pads, RankedTensorType input) {
  Value oh = linalg::IndexOp::create(b, l, 1);
  Value ow = linalg::IndexOp::create(b, l, 2);
  Value rows =
      realCount(b, l, oh, strides[0], pads[0], window[0], input.getDimSize(1));
  Value cols =
      realCount(b, l, ow, strides[1], pads[2], window[1], input.getDimSize(2));
  Value count = arith::MulIOp::create(b, l, rows, cols);
  Value countI64 = arith::IndexCastOp::create(b, l, b.getI64Type(), count);
  Value countF = arith::SIToFPOp::create(b, l, v.getType(), countI64);
  return arith::DivFOp::create(b, l, v, countF);
}

/// What window offset (kh, kw) of a strided NHWC window reads at every
/// output position: x[n, oh*s0 + kh, ow*s1 + kw, c] for the `outShape`
/// [N, OH, OW, C] positions (a strided view of padded `x`).
Value windowSlice(OpBuilder &b, Location loc, Value x, int64_t kh, int64_t kw,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> outShape) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> offsets, sizes, steps;
  const int64_t off[4] = {0, kh, kw, 0},
                step[4] = {1, strides[0], strides[1], 1};
  for (int i = 0; i < 4; ++i) {
    offsets.push_back(b.getIndexAttr(off[i]));
    sizes.push_back(b.getIndexAttr(outShape[i]));
    steps.push_back(b.getIndexAttr(step[i]));
  }
  auto sliceType = RankedTensorType::get(outShape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliceType, x, offsets, sizes,
                                        steps)
      .getResult();
}

/// Every window offset's slice of padded `x`, in row-major window order.
SmallVector<Value> windowSlices(OpBuilder &b, Location loc, Value x,
                                ArrayRef<int64_t> window,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> outShape) {
  SmallVector<Value> slices;
  for (int64_t kh = 0; kh < window[0]; ++kh)
    for (int64_t kw = 0; kw < window[1]; ++kw)
      slices.push_back(windowSlice(b, loc, x, kh, kw, strides, outShape));
  return slices;
}

/// An elementwise op over every window offset's slice of padded `x`:
/// `combine(acc, slice_k)` folded from slice 0, in row-major window order.
Value foldWindow(
    OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> window,
    ArrayRef<int64_t> strides, RankedTensorType outType,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  SmallVector<Value> slices =
      windowSlices(b, loc, x, window, strides, outType.getShape());
  return foldInputs(b, loc, outType, slices, combine);
}

struct MaxPoolLowering : OpRewritePattern<nn::MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    // The maximum of the window's strided views of the input, padded with
    // -inf: elementwise, contiguous along the channels.
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    double lowest = -std::numeric_limits<double>::infinity();
    Value padded = padNHWC(rewriter, op.getLoc(), op.getInput(),
                           poolPads(op, inputType), lowest);
    rewriter.replaceOp(
        op, foldWindow(rewriter, op.getLoc(), padded, op.getWindow(),
                       op.getStrides(), cast<RankedTensorType>(op.getType()),
                       [](OpBuilder &b, Location l, Value acc, Value v) {
                         return arith::MaximumFOp::create(b, l, acc, v);
                       }));
    return success();
  }
};

struct AvgPoolLowering : OpRewritePattern<nn::AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::AvgPool2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t, 4> pads = poolPads(op, inputType);
    Value padded = padNHWC(rewriter, loc, op.getInput(), pads, 0.0);
    Value sums = foldWindow(rewriter, loc, padded, op.getWindow(),
                            op.getStrides(), resultType, add);
    Value avg = elementwise(rewriter, loc, resultType, sums,
                            [&](OpBuilder &b, Location l, ValueRange args) {
                              return divideByWindowCount(
                                  b, l, args[0], op.getWindow(),
                                  op.getStrides(), pads, inputType);
                            });
    rewriter.replaceOp(op, avg);
    return success();
  }
};

/// The windows that hold the positions of one phase of an axis of dx (the
/// positions i = r, r + s, r + 2s, ... at stride s): `count` positions, and
/// for each window offset kk that lands on them, the distance q from the
/// j-th position's index to its window's (window j + q).
struct AxisPhase {
  int64_t count = 0;
  SmallVector<std::pair<int64_t, int64_t>> offsets; // (kk, q)
};

/// The phases of an axis of `size` positions under windows of `window`
/// positions at `stride`, `before` of padding, `out` windows; and the
/// padding [lo, hi] that keeps every window index j + q inside the windows'
/// tensor.
SmallVector<AxisPhase> axisPhases(int64_t size, int64_t window, int64_t stride,
                                  int64_t before, int64_t out, int64_t &lo,
                                  int64_t &hi) {
  SmallVector<AxisPhase> phases(stride);
  lo = hi = 0;
  for (int64_t r = 0; r < stride; ++r) {
    AxisPhase &phase = phases[r];
    phase.count = size > r ? (size - r + stride - 1) / stride : 0;
    if (phase.count == 0)
      continue;
    for (int64_t kk = 0; kk < window; ++kk) {
      // Position r + j*s is offset kk of window w when
      // w*s + kk = r + j*s + before.
      int64_t d = r + before - kk;
      if (d % stride != 0)
        continue;
      int64_t q = d / stride;
      phase.offsets.push_back({kk, q});
      lo = std::max(lo, -q);
      hi = std::max(hi, phase.count - 1 + q - (out - 1));
    }
  }
  return phases;
}

/// dx of a pooling op, gathered: every position sums `term(inputs at
/// window w, k)` over the windows w that hold it, k = kh * KW + kw its
/// offset in w, in row-major window order. The positions of one phase per
/// axis share their offsets and their distance to their windows, so each
/// phase is one elementwise op over a strided view of dx, reading views of
/// the inputs (per-window tensors of the output gradient's shape) padded
/// with `padValues`, which windows past the output read: one pass over dx,
/// contiguous along the channels. (A scatter, one pass over dx per window
/// offset, each adding to its strided view, moved ten times the bytes for
/// a 3x3 window at stride 2.)
Value gatherWindows(
    OpBuilder &b, Location loc, RankedTensorType dxType,
    RankedTensorType dyType, ArrayRef<int64_t> window,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> pads, ValueRange inputs,
    ArrayRef<double> padValues,
    function_ref<Value(OpBuilder &, Location, ValueRange, int64_t)> term) {
  MLIRContext *ctx = b.getContext();
  int64_t lo[2], hi[2];
  SmallVector<AxisPhase> phases[2];
  for (int a = 0; a < 2; ++a)
    phases[a] = axisPhases(dxType.getDimSize(1 + a), window[a], strides[a],
                           pads[2 * a], dyType.getDimSize(1 + a), lo[a], hi[a]);
  SmallVector<Value> padded;
  for (auto [input, value] : llvm::zip_equal(inputs, padValues))
    padded.push_back(
        padNHWC(b, loc, input, {lo[0], hi[0], lo[1], hi[1]}, value));
  int64_t n = dxType.getDimSize(0), c = dxType.getDimSize(3);
  Value dx = tensor::EmptyOp::create(b, loc, dxType.getShape(),
                                     dxType.getElementType());
  for (auto [rh, ph] : llvm::enumerate(phases[0]))
    for (auto [rw, pw] : llvm::enumerate(phases[1])) {
      if (ph.count == 0 || pw.count == 0)
        continue;
      SmallVector<int64_t> shape = {n, ph.count, pw.count, c};
      auto type = RankedTensorType::get(shape, dxType.getElementType());
      // The phase's positions: every stride-th from (rh, rw).
      Value view = windowSlice(b, loc, dx, rh, rw, strides, shape);
      SmallVector<Value> reads;
      SmallVector<int64_t> ks;
      for (auto [kh, qh] : ph.offsets)
        for (auto [kw, qw] : pw.offsets) {
          ks.push_back(kh * window[1] + kw);
          for (Value input : padded)
            reads.push_back(sliceTo(
                b, loc, input,
                RankedTensorType::get(
                    shape,
                    cast<RankedTensorType>(input.getType()).getElementType()),
                {0, qh + lo[0], qw + lo[1], 0}));
        }
      Value part;
      if (ks.empty()) {
        Value zero = floatConst(b, loc, dxType.getElementType(), 0.0);
        part = linalg::FillOp::create(b, loc, zero, view).getResult(0);
      } else {
        SmallVector<AffineMap> maps(reads.size() + 1, identity(ctx, 4));
        size_t per = inputs.size();
        part = linalg::GenericOp::create(
                   b, loc, TypeRange{type}, reads, ValueRange{view}, maps,
                   parallel(4),
                   [&](OpBuilder &nb, Location l, ValueRange args) {
                     Value sum;
                     for (auto [i, k] : llvm::enumerate(ks)) {
                       Value t = term(nb, l, args.slice(i * per, per), k);
                       sum = sum ? add(nb, l, sum, t) : t;
                     }
                     linalg::YieldOp::create(nb, l, sum);
                   })
                   .getResult(0);
      }
      auto slice = view.getDefiningOp<tensor::ExtractSliceOp>();
      dx = tensor::InsertSliceOp::create(
          b, loc, part, dx, slice.getMixedOffsets(), slice.getMixedSizes(),
          slice.getMixedStrides());
    }
  return dx;
}

/// The winner of each window: the offset k = kh * KW + kw (i32) of its
/// first maximum in row-major window order, over the window's views.
Value windowWinners(OpBuilder &b, Location loc, ArrayRef<Value> views,
                    ArrayRef<int64_t> outShape) {
  auto idxType = RankedTensorType::get(outShape, b.getI32Type());
  return elementwise(
      b, loc, idxType, views, [&](OpBuilder &nb, Location l, ValueRange a) {
        Value best = a[0];
        for (size_t k = 1; k < views.size(); ++k)
          best = arith::MaximumFOp::create(nb, l, best, a[k]);
        Value winner = arith::ConstantOp::create(
            nb, l, nb.getI32IntegerAttr(views.size() - 1));
        for (size_t k = views.size() - 1; k-- > 0;) {
          Value hit = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ,
                                            a[k], best);
          winner = arith::SelectOp::create(
              nb, l, hit,
              arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(k)),
              winner);
        }
        return winner;
      });
}

struct MaxPoolGradLowering : OpRewritePattern<nn::MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    ArrayRef<int64_t> win = op.getWindow(), str = op.getStrides();
    SmallVector<int64_t, 4> pads = poolPads(op, xType);
    double lowest = -std::numeric_limits<double>::infinity();
    Value x = padNHWC(rewriter, loc, op.getInput(), pads, lowest);
    Value winners = windowWinners(
        rewriter, loc,
        windowSlices(rewriter, loc, x, win, str, dyType.getShape()),
        dyType.getShape());
    Type elt = xType.getElementType();
    rewriter.replaceOp(
        op, gatherWindows(
                rewriter, loc, xType, dyType, win, str, pads,
                ValueRange{winners, op.getOutputGrad()}, {-1.0, 0.0},
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
    SmallVector<int64_t, 4> pads = poolPads(op, dxType);
    // Each window's gradient divided by its real (unpadded) positions,
    // once; then shared by every position of the window.
    Value shares = elementwise(rewriter, loc, dyType, op.getOutputGrad(),
                               [&](OpBuilder &b, Location l, ValueRange a) {
                                 return divideByWindowCount(b, l, a[0], win,
                                                            str, pads, dxType);
                               });
    // One window over the whole input (a global pool): every position
    // gets its share.
    int64_t h = dxType.getDimSize(1), w = dxType.getDimSize(2);
    if (dyType.getDimSize(1) == 1 && dyType.getDimSize(2) == 1 &&
        win[0] - pads[0] >= h && win[1] - pads[2] >= w) {
      MLIRContext *ctx = rewriter.getContext();
      AffineExpr zero = rewriter.getAffineConstantExpr(0);
      auto perImage = AffineMap::get(4, 0,
                                     {rewriter.getAffineDimExpr(0), zero, zero,
                                      rewriter.getAffineDimExpr(3)},
                                     ctx);
      rewriter.replaceOp(op, generic(rewriter, loc, dxType, shares,
                                     {perImage, identity(ctx, 4)}, parallel(4),
                                     [](OpBuilder &, Location, ValueRange a) {
                                       return a[0];
                                     }));
      return success();
    }
    // Stride 1: each position gathers the shares of the windows that hold
    // it, the window's positions ending at it in `shares` padded by the
    // window less the pool's padding. That is the forward pool's sum over
    // the window's slices, one op (gatherWindows' one phase, without its
    // comparisons of window offsets).
    SmallVector<int64_t, 4> reach = {win[0] - 1 - pads[0], win[0] - 1 - pads[1],
                                     win[1] - 1 - pads[2],
                                     win[1] - 1 - pads[3]};
    if (str[0] == 1 && str[1] == 1 &&
        llvm::all_of(reach, [](int64_t r) { return r >= 0; })) {
      Value padded = padNHWC(rewriter, loc, shares, reach, 0.0);
      rewriter.replaceOp(
          op, foldWindow(rewriter, loc, padded, win, str, dxType, add));
      return success();
    }
    rewriter.replaceOp(op, gatherWindows(rewriter, loc, dxType, dyType, win,
                                         str, pads, ValueRange{shares}, {0.0},
                                         [](OpBuilder &, Location, ValueRange a,
                                            int64_t) { return a[0]; }));
    return success();
  }
};

} // namespace

void nnc::populatePoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolLowering, AvgPoolLowering, MaxPoolGradLowering,
               AvgPoolGradLowering>(patterns.getContext());
}
