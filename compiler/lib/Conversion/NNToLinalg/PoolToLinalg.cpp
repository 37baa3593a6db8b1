//===- PoolToLinalg.cpp - nn pooling and its gradients to linalg ----------===//
//
// Part of nnc. max_pool2d, avg_pool2d, max_pool2d_grad, avg_pool2d_grad.
// A pool is one elementwise op over the window's strided views of the
// padded input, contiguous along the channels. Max pooling pads with -inf,
// so padding never wins; average pooling divides each window by the number
// of real elements in it, as TensorFlow does. The gradients scatter: each
// window offset adds the output gradients of the windows whose position
// there won (max) or shared (average) to a strided view of the input's
// gradient. At stride 1 an average pool's gradient gathers instead, the
// forward pool over the padded shares, and a window over the whole image
// broadcasts its share.
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
            Value sum = add(nb, l, a.back(), term(nb, l, a.drop_back(), k));
            linalg::YieldOp::create(nb, l, sum);
          });
      auto slice = view.getDefiningOp<tensor::ExtractSliceOp>();
      dx = tensor::InsertSliceOp::create(
          b, loc, update.getResult(0), dx, slice.getMixedOffsets(),
          slice.getMixedSizes(), slice.getMixedStrides());
    }
  return unpadNHWC(b, loc, dx, dxType, pads);
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
    // the window's slices, one pass over dx; the scatter below makes one
    // pass per window offset, each a slice inserted into the last, and the
    // bufferization's analysis of such chains grows with the square of
    // their length.
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
    rewriter.replaceOp(op,
                       accumulateWindows(rewriter, loc, dxType, dyType, win,
                                         str, pads, ValueRange{shares},
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
