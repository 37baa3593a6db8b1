//===- MatmulShapeToLinalg.cpp - nn matmul and reshapes to linalg ---------===//
//
// Part of nnc. matmul becomes linalg.matmul (transposed operands read
// through its indexing maps); flatten, reshape and concat become tensor ops.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

using namespace mlir;
using namespace nnc::conversion;

namespace {

struct MatmulLowering : OpRewritePattern<nn::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    // Transposed operands are read through linalg.matmul's indexing maps,
    // never copied.
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto map = [&](AffineExpr row, AffineExpr col) {
      return AffineMap::get(3, 0, {row, col}, ctx);
    };
    SmallVector<Attribute> maps = {
        AffineMapAttr::get(op.getTransposeLhs() ? map(k, m) : map(m, k)),
        AffineMapAttr::get(op.getTransposeRhs() ? map(n, k) : map(k, n)),
        AffineMapAttr::get(map(m, n))};
    auto resultType = cast<RankedTensorType>(op.getType());
    Value init = filled(rewriter, op.getLoc(), resultType, 0.0);
    auto matmul = linalg::MatmulOp::create(
        rewriter, op.getLoc(), TypeRange{resultType},
        ValueRange{op.getLhs(), op.getRhs()}, ValueRange{init},
        {rewriter.getNamedAttr("indexing_maps", rewriter.getArrayAttr(maps))});
    rewriter.replaceOp(op, matmul.getResult(0));
    return success();
  }
};

/// Reassociation grouping all `rank` dimensions into one.
SmallVector<ReassociationIndices> allInOne(int64_t rank) {
  ReassociationIndices all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  return {all};
}

struct FlattenLowering : OpRewritePattern<nn::FlattenOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::FlattenOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    ReassociationIndices rest;
    for (int64_t i = 1; i < inputType.getRank(); ++i)
      rest.push_back(i);
    if (rest.empty())
      return rewriter.notifyMatchFailure(op, "rank-1 input");
    SmallVector<ReassociationIndices> groups = {{0}, rest};
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, op.getType(),
                                                         op.getInput(), groups);
    return success();
  }
};

struct ReshapeLowering : OpRewritePattern<nn::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    if (inputType.getRank() == 0 || resultType.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "rank-0 reshape");
    // Through a 1-D tensor: collapse everything, then expand.
    Value flat = op.getInput();
    if (inputType.getRank() > 1)
      flat = tensor::CollapseShapeOp::create(
          rewriter, op.getLoc(), op.getInput(), allInOne(inputType.getRank()));
    if (resultType.getRank() == 1) {
      rewriter.replaceOp(op, flat);
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, resultType, flat, allInOne(resultType.getRank()));
    return success();
  }
};

struct ConcatLowering : OpRewritePattern<nn::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getAxis();
    if (axis < 0)
      axis += type.getRank();
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, type, axis,
                                                  op.getInputs());
    return success();
  }
};

/// concat's gradient: a static slice along one axis.
struct SliceLowering : OpRewritePattern<nn::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    unsigned rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[op.getAxis()] = rewriter.getIndexAttr(op.getOffset());
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t d : type.getShape())
      sizes.push_back(rewriter.getIndexAttr(d));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, type, op.getInput(), offsets, sizes, strides);
    return success();
  }
};

} // namespace

void nnc::populateMatmulShapeToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<MatmulLowering, FlattenLowering, ReshapeLowering, ConcatLowering,
           SliceLowering>(
          patterns.getContext());
}
