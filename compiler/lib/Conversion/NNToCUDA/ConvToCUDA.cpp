//===- ConvToCUDA.cpp - convolutions to cuDNN calls -----------------------===//
//
// Part of nnc. The runtime takes symmetric padding (cuDNN's); TensorFlow's
// SAME padding is asymmetric when the total is odd (AlexNet's conv1 pads 3
// then 4), so such convolutions get an explicitly padded input (forward,
// filter gradient) or produce the padded input's gradient and drop the
// border (input gradient).
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"

#include "../NNToLinalg/Utils.h"
#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::cuda;
using namespace nnc::linalg_utils;

namespace {
bool symmetric(ArrayRef<int64_t> pads) {
  return pads[0] == pads[1] && pads[2] == pads[3];
}

/// The scalars every convolution call takes.
SmallVector<Scalar> convScalars(ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations, int64_t padH,
                                int64_t padW, CudaMath math) {
  return {Scalar::integer(strides[0]),
          Scalar::integer(strides[1]),
          Scalar::integer(dilations[0]),
          Scalar::integer(dilations[1]),
          Scalar::integer(padH),
          Scalar::integer(padW),
          Scalar::integer(static_cast<int64_t>(math))};
}

template <typename Op> struct CudaPattern : OpRewritePattern<Op> {
  CudaPattern(MLIRContext *ctx, CudaMath math)
      : OpRewritePattern<Op>(ctx), math(math) {}
  CudaMath math;
};

struct Conv2DToCUDA : CudaPattern<nn::Conv2DOp> {
  using CudaPattern::CudaPattern;
  LogicalResult matchAndRewrite(nn::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto wType = cast<RankedTensorType>(op.getFilter().getType());
    SmallVector<int64_t, 4> pads =
        explicitPads(xType, wType.getShape().take_front(2), op.getStrides(),
                     op.getDilations(), op.getPadding(), op.getPad());
    Value x = op.getInput();
    if (!symmetric(pads)) {
      x = padNHWC(rewriter, op.getLoc(), x, pads, 0.0);
      pads.assign(4, 0);
    }
    rewriter.replaceOp(
        op, callRuntime(rewriter, op.getLoc(), "conv2d", {x, op.getFilter()},
                        cast<RankedTensorType>(op.getType()),
                        convScalars(op.getStrides(), op.getDilations(), pads[0],
                                    pads[2], math)));
    return success();
  }
};

struct Conv2DBackpropInputToCUDA : CudaPattern<nn::Conv2DBackpropInputOp> {
  using CudaPattern::CudaPattern;
  LogicalResult matchAndRewrite(nn::Conv2DBackpropInputOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dxType = cast<RankedTensorType>(op.getType());
    auto wType = cast<RankedTensorType>(op.getFilter().getType());
    SmallVector<int64_t, 4> pads =
        explicitPads(dxType, wType.getShape().take_front(2), op.getStrides(),
                     op.getDilations(), op.getPadding(), op.getPad());
    SmallVector<Value> operands = {op.getOutputGrad(), op.getFilter()};
    if (symmetric(pads)) {
      rewriter.replaceOp(
          op,
          callRuntime(rewriter, loc, "conv2d_backprop_input", operands, dxType,
                      convScalars(op.getStrides(), op.getDilations(), pads[0],
                                  pads[2], math)));
      return success();
    }
    // The gradient of the padded input, then its interior.
    SmallVector<int64_t> padded(dxType.getShape());
    padded[1] += pads[0] + pads[1];
    padded[2] += pads[2] + pads[3];
    Value full = callRuntime(
        rewriter, loc, "conv2d_backprop_input", operands,
        RankedTensorType::get(padded, dxType.getElementType()),
        convScalars(op.getStrides(), op.getDilations(), 0, 0, math));
    SmallVector<OpFoldResult> offsets = {
        rewriter.getIndexAttr(0), rewriter.getIndexAttr(pads[0]),
        rewriter.getIndexAttr(pads[2]), rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t d : dxType.getShape()) {
      sizes.push_back(rewriter.getIndexAttr(d));
      strides.push_back(rewriter.getIndexAttr(1));
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, dxType, full, offsets, sizes, strides);
    return success();
  }
};

struct Conv2DBackpropFilterToCUDA : CudaPattern<nn::Conv2DBackpropFilterOp> {
  using CudaPattern::CudaPattern;
  LogicalResult matchAndRewrite(nn::Conv2DBackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto dwType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t, 4> pads =
        explicitPads(xType, dwType.getShape().take_front(2), op.getStrides(),
                     op.getDilations(), op.getPadding(), op.getPad());
    Value x = op.getInput();
    if (!symmetric(pads)) {
      x = padNHWC(rewriter, op.getLoc(), x, pads, 0.0);
      pads.assign(4, 0);
    }
    rewriter.replaceOp(
        op, callRuntime(rewriter, op.getLoc(), "conv2d_backprop_filter",
                        {x, op.getOutputGrad()}, dwType,
                        convScalars(op.getStrides(), op.getDilations(), pads[0],
                                    pads[2], math)));
    return success();
  }
};
} // namespace

void nnc::populateConvToCUDAPatterns(RewritePatternSet &patterns,
                                     CudaMath math) {
  patterns
      .add<Conv2DToCUDA, Conv2DBackpropInputToCUDA, Conv2DBackpropFilterToCUDA>(
          patterns.getContext(), math);
}
