//===- DropoutToLinalg.cpp - training dropout to linalg -------------------===//
//
// Part of nnc. dropout_train as one elementwise op: each element's
// row-major index and the global step form a Philox4x32-10 counter, and the
// element is kept (scaled by 1 / (1 - rate)) when the first word is below
// (1 - rate) * 2^32. Inference dropout is the identity
// (ElementwiseToLinalg.cpp).
//
//===----------------------------------------------------------------------===//

#include "Philox.h"
#include "Utils.h"
#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"

#include "nn/IR/NNDialect.h"

#include <cmath>

using namespace mlir;
using namespace nnc::conversion;
using namespace nnc::linalg_utils;

namespace {

/// The row-major linear index (i64) of the current element.
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> shape) {
  Value index = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  for (auto [axis, size] : llvm::enumerate(shape)) {
    Value i = arith::IndexCastUIOp::create(
        b, loc, b.getI64Type(), linalg::IndexOp::create(b, loc, axis));
    Value n = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(size));
    index = arith::AddIOp::create(b, loc,
                                  arith::MulIOp::create(b, loc, index, n), i);
  }
  return index;
}

/// The keep threshold: (1 - rate) * 2^32, as an i64 so that rate 0 keeps
/// every word.
int64_t threshold(double rate) {
  return int64_t(std::ldexp(1.0 - rate, 32));
}

struct DropoutTrainLowering : OpRewritePattern<nn::DropoutTrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nn::DropoutTrainOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    double rate = op.getRate().convertToDouble();
    uint64_t seed = uint64_t(op.getSeed());
    unsigned rank = type.getRank();
    MLIRContext *ctx = rewriter.getContext();
    AffineMap all = identity(ctx, rank);
    AffineMap scalar = AffineMap::get(rank, 0, ctx);
    Value y = generic(
        rewriter, op.getLoc(), type, ValueRange{op.getInput(), op.getStep()},
        {all, scalar, all}, parallel(rank),
        [&](OpBuilder &b, Location l, ValueRange a) {
          Type elt = a[0].getType();
          Value word = nnc::philoxFirstWord(
              b, l, linearIndex(b, l, type.getShape()), a[1], seed);
          Value word64 = arith::ExtUIOp::create(b, l, b.getI64Type(), word);
          Value keep = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::ult, word64,
              arith::ConstantOp::create(b, l,
                                        b.getI64IntegerAttr(threshold(rate))));
          Value kept = mul(b, l, a[0], floatConst(b, l, elt, 1.0 / (1 - rate)));
          return arith::SelectOp::create(b, l, keep, kept,
                                         floatConst(b, l, elt, 0.0));
        });
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void nnc::populateDropoutToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<DropoutTrainLowering>(patterns.getContext());
}
