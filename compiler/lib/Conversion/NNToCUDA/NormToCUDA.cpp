//===- NormToCUDA.cpp - LRN and its gradient to cuDNN calls ---------------===//
//
// Part of nnc. lrn and lrn_grad go to cuDNN within its limits (window of at
// most 16 channels, bias >= 1e-5, beta >= 0.01); others stay with the
// generated kernels. cuDNN's backward call takes the forward output as
// well, which lrn_grad does not carry: it is computed again.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"

#include "nn/IR/NNDialect.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::cuda;

namespace {
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

void nnc::populateNormToCUDAPatterns(RewritePatternSet &patterns) {
  patterns.add<LRNToCUDA, LRNGradToCUDA>(patterns.getContext());
}
