//===- BatchNormToCUDA.cpp - batch normalisation to cuDNN calls -----------===//
//
// Part of nnc. batch_norm (the moving statistics), batch_norm_train (the
// batch's mean and biased variance) and batch_norm_grad become cuDNN's
// spatial batch-norm calls on f32 NHWC tensors. The statistics run over
// every axis but the last, so an input of another rank is reshaped (no
// copy) to the rank 4 the calls take: [N, C] and [N, L, C] become
// [N*L, 1, 1, C], ranks above 4 fold their leading axes into N. cuDNN's
// backward call takes 1 / sqrt(variance + epsilon) where batch_norm_grad
// carries the variance: it is computed per channel first.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::cuda;

namespace {
/// Whether the call can take these operands: static f32 tensors of rank 2
/// or more.
bool fits(Operation *op) {
  auto f32Static = [](Type t) {
    auto type = dyn_cast<RankedTensorType>(t);
    return type && type.hasStaticShape() && type.getElementType().isF32();
  };
  auto x = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  return x && x.getRank() >= 2 &&
         llvm::all_of(op->getOperandTypes(), f32Static) &&
         llvm::all_of(op->getResultTypes(), f32Static);
}

/// How a tensor of `type` is seen as [N, H, W, C]: its reassociation into
/// the rank-4 shape, or none when it is rank 4 already.
struct Rank4 {
  RankedTensorType type, rank4;
  SmallVector<ReassociationIndices> groups;

  explicit Rank4(RankedTensorType t) : type(t) {
    ArrayRef<int64_t> shape = t.getShape();
    int64_t rank = t.getRank();
    if (rank == 4) {
      rank4 = t;
      return;
    }
    SmallVector<int64_t> shape4;
    if (rank < 4) {
      // [N, C] -> [N, 1, 1, C]; [N, L, C] -> [N, 1, L, C].
      groups = rank == 2 ? SmallVector<ReassociationIndices>{{0, 1, 2}, {3}}
                         : SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}};
      shape4 = rank == 2
                   ? SmallVector<int64_t>{shape[0], 1, 1, shape[1]}
                   : SmallVector<int64_t>{shape[0], 1, shape[1], shape[2]};
    } else {
      // The leading axes fold into N.
      ReassociationIndices lead;
      int64_t n = 1;
      for (int64_t i = 0; i <= rank - 4; ++i) {
        lead.push_back(i);
        n *= shape[i];
      }
      groups = {lead, {rank - 3}, {rank - 2}, {rank - 1}};
      shape4 = {n, shape[rank - 3], shape[rank - 2], shape[rank - 1]};
    }
    rank4 = RankedTensorType::get(shape4, t.getElementType());
  }

  Value to(OpBuilder &b, Location loc, Value x) const {
    if (groups.empty())
      return x;
    if (type.getRank() < 4)
      return tensor::ExpandShapeOp::create(b, loc, rank4, x, groups);
    return tensor::CollapseShapeOp::create(b, loc, rank4, x, groups);
  }

  Value from(OpBuilder &b, Location loc, Value x) const {
    if (groups.empty())
      return x;
    if (type.getRank() < 4)
      return tensor::CollapseShapeOp::create(b, loc, type, x, groups);
    return tensor::ExpandShapeOp::create(b, loc, type, x, groups);
  }
};

/// 1 / sqrt(variance + epsilon), per channel.
Value inverseStd(OpBuilder &b, Location loc, Value variance, double epsilon) {
  auto type = cast<RankedTensorType>(variance.getType());
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  SmallVector<AffineMap> maps(2, b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iters(type.getRank(),
                                         utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{variance}, ValueRange{init}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value eps = arith::ConstantOp::create(
                   nb, l, nb.getFloatAttr(args[0].getType(), epsilon));
               Value sum = arith::AddFOp::create(nb, l, args[0], eps);
               Value inv = math::RsqrtOp::create(nb, l, sum);
               linalg::YieldOp::create(nb, l, inv);
             })
      .getResult(0);
}

struct BatchNormToCUDA : OpRewritePattern<nn::BatchNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormOp op,
                                PatternRewriter &rewriter) const override {
    if (!fits(op))
      return rewriter.notifyMatchFailure(op, "not static f32 of rank >= 2");
    Location loc = op.getLoc();
    Rank4 shape(cast<RankedTensorType>(op.getType()));
    Value y = callRuntime(
        rewriter, loc, "batch_norm",
        {shape.to(rewriter, loc, op.getInput()), op.getScale(), op.getOffset(),
         op.getMean(), op.getVariance()},
        shape.rank4, {Scalar::real(op.getEpsilon().convertToDouble())});
    rewriter.replaceOp(op, shape.from(rewriter, loc, y));
    return success();
  }
};

struct BatchNormTrainToCUDA : OpRewritePattern<nn::BatchNormTrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormTrainOp op,
                                PatternRewriter &rewriter) const override {
    if (!fits(op))
      return rewriter.notifyMatchFailure(op, "not static f32 of rank >= 2");
    Location loc = op.getLoc();
    Rank4 shape(cast<RankedTensorType>(op.getOutput().getType()));
    auto stats = cast<RankedTensorType>(op.getMean().getType());
    SmallVector<Value> results = callRuntime(
        rewriter, loc, "batch_norm_train",
        {shape.to(rewriter, loc, op.getInput()), op.getScale(), op.getOffset()},
        ArrayRef<RankedTensorType>{shape.rank4, stats, stats},
        {Scalar::real(op.getEpsilon().convertToDouble())});
    rewriter.replaceOp(
        op, {shape.from(rewriter, loc, results[0]), results[1], results[2]});
    return success();
  }
};

struct BatchNormGradToCUDA : OpRewritePattern<nn::BatchNormGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::BatchNormGradOp op,
                                PatternRewriter &rewriter) const override {
    if (!fits(op))
      return rewriter.notifyMatchFailure(op, "not static f32 of rank >= 2");
    Location loc = op.getLoc();
    double epsilon = op.getEpsilon().convertToDouble();
    Rank4 shape(cast<RankedTensorType>(op.getInputGrad().getType()));
    auto stats = cast<RankedTensorType>(op.getScaleGrad().getType());
    Value invStd = inverseStd(rewriter, loc, op.getVariance(), epsilon);
    SmallVector<Value> results = callRuntime(
        rewriter, loc, "batch_norm_backward",
        {shape.to(rewriter, loc, op.getInput()), op.getScale(), op.getMean(),
         invStd, shape.to(rewriter, loc, op.getOutputGrad())},
        ArrayRef<RankedTensorType>{shape.rank4, stats, stats},
        {Scalar::real(epsilon)});
    rewriter.replaceOp(
        op, {shape.from(rewriter, loc, results[0]), results[1], results[2]});
    return success();
  }
};
} // namespace

void nnc::populateBatchNormToCUDAPatterns(RewritePatternSet &patterns) {
  patterns.add<BatchNormToCUDA, BatchNormTrainToCUDA, BatchNormGradToCUDA>(
      patterns.getContext());
}
