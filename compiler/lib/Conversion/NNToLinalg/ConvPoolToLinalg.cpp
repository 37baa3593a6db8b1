//===- ConvPoolToLinalg.cpp - nn convolution and pooling to linalg --------===//
//
// Part of nnc. TensorFlow's padding (SAME is asymmetric: AlexNet's conv1
// pads 3 before and 4 after) becomes an explicit tensor.pad, then linalg's
// NHWC named ops run unpadded. Max pooling pads with -inf, so padding never
// wins; average pooling divides each window by the number of real elements
// in it, as TensorFlow does.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include <limits>

using namespace mlir;
using namespace nnc::linalg_utils;

namespace {

struct Conv2DLowering : OpRewritePattern<nn::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto filterType = cast<RankedTensorType>(op.getFilter().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t, 4> pads = explicitPads(
        inputType, filterType.getShape().take_front(2), op.getStrides(),
        op.getDilations(), op.getPadding(), op.getPad());
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

template <typename SourceOp> SmallVector<int64_t, 4> poolPads(SourceOp op) {
  const int64_t ones[2] = {1, 1};
  return explicitPads(cast<RankedTensorType>(op.getInput().getType()),
                      op.getWindow(), op.getStrides(), ones, op.getPadding(),
                      op.getPad());
}

struct MaxPoolLowering : OpRewritePattern<nn::MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    // The maximum of the window's strided views of the input, padded with
    // -inf: elementwise, contiguous along the channels.
    double lowest = -std::numeric_limits<double>::infinity();
    Value padded =
        padNHWC(rewriter, op.getLoc(), op.getInput(), poolPads(op), lowest);
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
    SmallVector<int64_t, 4> pads = poolPads(op);
    Value padded = padNHWC(rewriter, loc, op.getInput(), pads, 0.0);
    Value sums = foldWindow(rewriter, loc, padded, op.getWindow(),
                            op.getStrides(), resultType,
                            [](OpBuilder &b, Location l, Value acc, Value v) {
                              return arith::AddFOp::create(b, l, acc, v);
                            });
    ArrayRef<int64_t> win = op.getWindow(), strides = op.getStrides();
    int64_t height = inputType.getDimSize(1), width = inputType.getDimSize(2);
    Value avg = elementwise(
        rewriter, loc, resultType, sums,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value oh = linalg::IndexOp::create(b, l, 1);
          Value ow = linalg::IndexOp::create(b, l, 2);
          Value count = arith::MulIOp::create(
              b, l, realCount(b, l, oh, strides[0], pads[0], win[0], height),
              realCount(b, l, ow, strides[1], pads[2], win[1], width));
          Value countI64 =
              arith::IndexCastOp::create(b, l, b.getI64Type(), count);
          Value countF =
              arith::SIToFPOp::create(b, l, args[0].getType(), countI64);
          return arith::DivFOp::create(b, l, args[0], countF);
        });
    rewriter.replaceOp(op, avg);
    return success();
  }
};

} // namespace

void nnc::populateConvPoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DLowering, MaxPoolLowering, AvgPoolLowering>(
      patterns.getContext());
}
