//===- PoolToCUDA.cpp - pooling and its gradient to cuDNN calls -----------===//
//
// Part of nnc. max_pool2d, avg_pool2d, max_pool2d_grad. cuDNN pools with
// symmetric padding smaller than the window; a max pool with TensorFlow's
// asymmetric SAME padding gets its input padded with -inf first (padded
// positions never win), an average pool whose padding cuDNN cannot express
// stays with the generated kernels (its divisor counts only real
// positions), and so does avg_pool2d_grad. cuDNN's backward call takes the
// forward output as well, which max_pool2d_grad does not carry: it is
// computed again.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"
#include "nnc/Conversion/Utils/Padding.h"

#include "nn/IR/NNDialect.h"

#include <limits>

using namespace mlir;
using namespace nnc;
using namespace nnc::conversion;
using namespace nnc::cuda;

namespace {
constexpr int64_t kMax = 0, kAverage = 1;

struct PoolSetup {
  Value input; // padded explicitly where needed
  SmallVector<int64_t, 4> pads;
};

/// The input cuDNN pools and the (symmetric) padding it applies, or
/// nullopt when it cannot pool like TensorFlow.
template <typename Op>
std::optional<PoolSetup> poolSetup(OpBuilder &b, Op op, Value input,
                                   int64_t mode) {
  auto type = cast<RankedTensorType>(input.getType());
  ArrayRef<int64_t> win = op.getWindow();
  PoolSetup setup{input, poolPads(op, type)};
  ArrayRef<int64_t> p = setup.pads;
  bool fits = p[0] == p[1] && p[2] == p[3] && p[0] < win[0] && p[2] < win[1];
  if (fits)
    return setup;
  if (mode == kAverage)
    return std::nullopt;
  setup.input = padNHWC(b, op.getLoc(), input, setup.pads,
                        -std::numeric_limits<double>::infinity());
  setup.pads.assign(4, 0);
  return setup;
}

template <typename Op>
SmallVector<Scalar> poolScalars(Op op, int64_t mode, ArrayRef<int64_t> pads) {
  return {Scalar::integer(mode),
          Scalar::integer(op.getWindow()[0]),
          Scalar::integer(op.getWindow()[1]),
          Scalar::integer(op.getStrides()[0]),
          Scalar::integer(op.getStrides()[1]),
          Scalar::integer(pads[0]),
          Scalar::integer(pads[2])};
}

template <typename Op, int64_t Mode> struct PoolToCUDA : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    std::optional<PoolSetup> setup =
        poolSetup(rewriter, op, op.getInput(), Mode);
    if (!setup)
      return rewriter.notifyMatchFailure(op, "padding cuDNN cannot express");
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(), "pool2d",
                                       {setup->input},
                                       cast<RankedTensorType>(op.getType()),
                                       poolScalars(op, Mode, setup->pads)));
    return success();
  }
};

struct MaxPoolGradToCUDA : OpRewritePattern<nn::MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dxType = cast<RankedTensorType>(op.getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    SmallVector<int64_t, 4> tfPads = poolPads(op, dxType);
    std::optional<PoolSetup> setup =
        poolSetup(rewriter, op, op.getInput(), kMax);
    SmallVector<Scalar> scalars = poolScalars(op, kMax, setup->pads);
    Value y =
        callRuntime(rewriter, loc, "pool2d", {setup->input}, dyType, scalars);
    auto xType = cast<RankedTensorType>(setup->input.getType());
    Value dx =
        callRuntime(rewriter, loc, "pool2d_backward",
                    {setup->input, y, op.getOutputGrad()}, xType, scalars);
    if (setup->input != op.getInput())
      dx = unpadNHWC(rewriter, loc, dx, dxType, tfPads);
    rewriter.replaceOp(op, dx);
    return success();
  }
};

} // namespace

void nnc::populatePoolToCUDAPatterns(RewritePatternSet &patterns) {
  patterns.add<PoolToCUDA<nn::MaxPool2DOp, kMax>,
               PoolToCUDA<nn::AvgPool2DOp, kAverage>, MaxPoolGradToCUDA>(
      patterns.getContext());
}
