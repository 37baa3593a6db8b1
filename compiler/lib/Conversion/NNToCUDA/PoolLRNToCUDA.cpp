//===- PoolLRNToCUDA.cpp - pooling and LRN to cuDNN calls -----------------===//
//
// Part of nnc. cuDNN pools with symmetric padding smaller than the window;
// a max pool with TensorFlow's asymmetric SAME padding gets its input
// padded with -inf first (padded positions never win), an average pool
// whose padding cuDNN cannot express stays with the generated kernels (its
// divisor counts only real positions). cuDNN's backward calls take the
// forward output as well, which the gradient ops do not carry: it is
// computed again. LRN goes to cuDNN within its limits (window of at most
// 16 channels, bias >= 1e-5, beta >= 0.01).
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"

#include "../NNToLinalg/Utils.h"
#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace nnc;
using namespace nnc::cuda;
using namespace nnc::linalg_utils;

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
  const int64_t ones[2] = {1, 1};
  ArrayRef<int64_t> win = op.getWindow();
  PoolSetup setup{input, explicitPads(type, win, op.getStrides(), ones,
                                      op.getPadding(), op.getPad())};
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

/// The interior of `full` (padded by `pads`), of `type`.
Value interior(OpBuilder &b, Location loc, Value full, RankedTensorType type,
               ArrayRef<int64_t> pads) {
  SmallVector<OpFoldResult> offsets = {
      b.getIndexAttr(0), b.getIndexAttr(pads[0]), b.getIndexAttr(pads[2]),
      b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes, strides;
  for (int64_t d : type.getShape()) {
    sizes.push_back(b.getIndexAttr(d));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::ExtractSliceOp::create(b, loc, type, full, offsets, sizes,
                                        strides);
}

struct MaxPoolGradToCUDA : OpRewritePattern<nn::MaxPool2DGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MaxPool2DGradOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dxType = cast<RankedTensorType>(op.getType());
    auto dyType = cast<RankedTensorType>(op.getOutputGrad().getType());
    const int64_t ones[2] = {1, 1};
    SmallVector<int64_t, 4> tfPads =
        explicitPads(dxType, op.getWindow(), op.getStrides(), ones,
                     op.getPadding(), op.getPad());
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
      dx = interior(rewriter, loc, dx, dxType, tfPads);
    rewriter.replaceOp(op, dx);
    return success();
  }
};

template <typename Op> bool lrnFits(Op op) {
  return op.getDepthRadius() <= 7 && op.getBias().convertToDouble() >= 1e-5 &&
         op.getBeta().convertToDouble() >= 0.01;
}

template <typename Op> SmallVector<Scalar> lrnScalars(Op op) {
  return {Scalar::integer(op.getDepthRadius()),
          Scalar::real(op.getBias().convertToDouble()),
          Scalar::real(op.getAlpha().convertToDouble()),
          Scalar::real(op.getBeta().convertToDouble())};
}

struct LRNToCUDA : OpRewritePattern<nn::LRNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::LRNOp op,
                                PatternRewriter &rewriter) const override {
    if (!lrnFits(op))
      return rewriter.notifyMatchFailure(op, "outside cuDNN's LRN limits");
    rewriter.replaceOp(
        op, callRuntime(rewriter, op.getLoc(), "lrn", {op.getInput()},
                        cast<RankedTensorType>(op.getType()), lrnScalars(op)));
    return success();
  }
};

struct LRNGradToCUDA : OpRewritePattern<nn::LRNGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::LRNGradOp op,
                                PatternRewriter &rewriter) const override {
    if (!lrnFits(op))
      return rewriter.notifyMatchFailure(op, "outside cuDNN's LRN limits");
    auto type = cast<RankedTensorType>(op.getType());
    SmallVector<Scalar> scalars = lrnScalars(op);
    Value y = callRuntime(rewriter, op.getLoc(), "lrn", {op.getInput()}, type,
                          scalars);
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(), "lrn_backward",
                                       {op.getInput(), y, op.getOutputGrad()},
                                       type, scalars));
    return success();
  }
};
} // namespace

void nnc::populatePoolLRNToCUDAPatterns(RewritePatternSet &patterns) {
  patterns.add<PoolToCUDA<nn::MaxPool2DOp, kMax>,
               PoolToCUDA<nn::AvgPool2DOp, kAverage>, MaxPoolGradToCUDA,
               LRNToCUDA, LRNGradToCUDA>(patterns.getContext());
}
