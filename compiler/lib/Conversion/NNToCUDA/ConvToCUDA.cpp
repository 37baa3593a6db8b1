//===- ConvToCUDA.cpp - convolutions and their gradients to cuDNN calls ---===//
//
// Part of nnc. conv2d, conv2d_backprop_input, conv2d_backprop_filter. How
// an nn convolution (or one of its gradients) becomes a cuDNN call:
// - the runtime takes symmetric padding (cuDNN's); TensorFlow's SAME
//   padding is asymmetric when the total is odd (AlexNet's conv1 pads 3
//   then 4), so such convolutions get an explicitly padded input (forward,
//   filter gradient) or produce the padded input's gradient and drop the
//   border (input gradient);
// - with TF32 or bf16 tensor cores, input channels are padded with zeros
//   to a multiple of 4 (8 for bf16) where they are not (an RGB image), and
//   gradients with respect to them are cut back;
// - in bf16, the operands are converted to bf16 storage and the result
//   back to f32.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"
#include "nnc/Conversion/Utils/Padding.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::cuda;
using namespace nnc::conversion;

namespace {
/// Input channels the tensor cores want a multiple of (1: no constraint).
int64_t channelMultiple(CudaMath math) {
  return math == CudaMath::BF16 ? 8 : math == CudaMath::TF32 ? 4 : 1;
}

/// `x` with axis `axis` grown to `size` by zeros after it.
Value growAxis(OpBuilder &b, Location loc, Value x, unsigned axis,
               int64_t size) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t extra = size - type.getDimSize(axis);
  if (extra == 0)
    return x;
  SmallVector<int64_t> low(type.getRank(), 0), high(type.getRank(), 0);
  high[axis] = extra;
  return padTensor(b, loc, x, low, high, 0.0);
}

struct ConvCall {
  CudaMath math;
  ArrayRef<int64_t> strides, dilations;

  /// Calls `name` on `operands` (f32) for a result shaped `shape`, in the
  /// storage `math` asks for; the result comes back as f32.
  Value call(OpBuilder &b, Location loc, StringRef name,
             SmallVector<Value> operands, ArrayRef<int64_t> shape,
             ArrayRef<int64_t> pads) const {
    Type storage = math == CudaMath::BF16 ? b.getBF16Type() : b.getF32Type();
    for (Value &v : operands)
      v = castTensor(b, loc, v, storage);
    Value result = callRuntime(
        b, loc, name, operands, RankedTensorType::get(shape, storage),
        {Scalar::integer(strides[0]), Scalar::integer(strides[1]),
         Scalar::integer(dilations[0]), Scalar::integer(dilations[1]),
         Scalar::integer(pads[0]), Scalar::integer(pads[2]),
         Scalar::integer(static_cast<int64_t>(math))});
    return castTensor(b, loc, result, b.getF32Type());
  }
};

bool symmetric(ArrayRef<int64_t> pads) {
  return pads[0] == pads[1] && pads[2] == pads[3];
}

int64_t roundUp(int64_t v, int64_t m) { return (v + m - 1) / m * m; }

/// TensorFlow's padding of a convolution or its gradient `op` on `input`.
template <typename Op>
SmallVector<int64_t, 4> tfPads(Op op, RankedTensorType input,
                               RankedTensorType filter) {
  return convPads(op, input, filter.getShape().take_front(2));
}

template <typename Op> struct CudaPattern : OpRewritePattern<Op> {
  CudaPattern(MLIRContext *ctx, CudaMath math)
      : OpRewritePattern<Op>(ctx), math(math) {}
  CudaMath math;
  ConvCall conv(Op op) const {
    return {math, op.getStrides(), op.getDilations()};
  }
};

struct Conv2DToCUDA : CudaPattern<nn::Conv2DOp> {
  using CudaPattern::CudaPattern;
  LogicalResult matchAndRewrite(nn::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto wType = cast<RankedTensorType>(op.getFilter().getType());
    SmallVector<int64_t, 4> pads = tfPads(op, xType, wType);
    Value x = op.getInput(), w = op.getFilter();
    if (!symmetric(pads)) {
      x = padNHWC(rewriter, loc, x, pads, 0.0);
      pads.assign(4, 0);
    }
    int64_t channels = roundUp(xType.getDimSize(3), channelMultiple(math));
    x = growAxis(rewriter, loc, x, 3, channels);
    w = growAxis(rewriter, loc, w, 2, channels);
    rewriter.replaceOp(
        op,
        conv(op).call(rewriter, loc, "conv2d", {x, w},
                      cast<RankedTensorType>(op.getType()).getShape(), pads));
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
    SmallVector<int64_t, 4> pads = tfPads(op, dxType, wType);
    // The gradient of the padded input (asymmetric padding made explicit,
    // channels grown), then its interior.
    SmallVector<int64_t> full(dxType.getShape());
    SmallVector<int64_t, 4> cuPads = pads;
    if (!symmetric(pads)) {
      full[1] += pads[0] + pads[1];
      full[2] += pads[2] + pads[3];
      cuPads.assign(4, 0);
    }
    full[3] = roundUp(full[3], channelMultiple(math));
    Value w = growAxis(rewriter, loc, op.getFilter(), 2, full[3]);
    Value dx = conv(op).call(rewriter, loc, "conv2d_backprop_input",
                             {op.getOutputGrad(), w}, full, cuPads);
    int64_t top = symmetric(pads) ? 0 : pads[0];
    int64_t left = symmetric(pads) ? 0 : pads[2];
    rewriter.replaceOp(op,
                       sliceTo(rewriter, loc, dx, dxType, {0, top, left, 0}));
    return success();
  }
};

struct Conv2DBackpropFilterToCUDA : CudaPattern<nn::Conv2DBackpropFilterOp> {
  using CudaPattern::CudaPattern;
  LogicalResult matchAndRewrite(nn::Conv2DBackpropFilterOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto xType = cast<RankedTensorType>(op.getInput().getType());
    auto dwType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t, 4> pads = tfPads(op, xType, dwType);
    Value x = op.getInput();
    if (!symmetric(pads)) {
      x = padNHWC(rewriter, loc, x, pads, 0.0);
      pads.assign(4, 0);
    }
    SmallVector<int64_t> shape(dwType.getShape());
    shape[2] = roundUp(shape[2], channelMultiple(math));
    x = growAxis(rewriter, loc, x, 3, shape[2]);
    Value dw = conv(op).call(rewriter, loc, "conv2d_backprop_filter",
                             {x, op.getOutputGrad()}, shape, pads);
    rewriter.replaceOp(op, sliceTo(rewriter, loc, dw, dwType));
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
