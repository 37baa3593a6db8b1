//===- MatmulToCUDA.cpp - matrix products to cuBLASLt calls ---------------===//
//
// Part of nnc. A dense layer is matmul, bias_add and maybe relu in nn; when
// the intermediate results have no other use, the three become one
// cuBLASLt call whose epilogue adds the bias and applies the ReLU.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCall.h"
#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"

#include "nn/IR/NNDialect.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::cuda;

namespace {
struct MatmulToCUDA : OpRewritePattern<nn::MatmulOp> {
  MatmulToCUDA(MLIRContext *ctx, CudaMath math)
      : OpRewritePattern(ctx), math(math) {}
  CudaMath math;

  LogicalResult matchAndRewrite(nn::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Scalar> scalars = {Scalar::integer(op.getTransposeLhs()),
                                   Scalar::integer(op.getTransposeRhs())};
    // matmul -> bias_add (-> relu), each the only use of the one before.
    nn::BiasAddOp add;
    nn::ReluOp relu;
    if (op->hasOneUse())
      add = dyn_cast<nn::BiasAddOp>(*op->getUsers().begin());
    if (add && add.getInput() != op.getResult())
      add = nullptr;
    if (add && add->hasOneUse())
      relu = dyn_cast<nn::ReluOp>(*add->getUsers().begin());
    Operation *last = relu  ? relu.getOperation()
                      : add ? add.getOperation()
                            : op.getOperation();
    rewriter.setInsertionPoint(last);
    auto type = cast<RankedTensorType>(op.getType());
    // bf16: A and B in bf16 storage, C and the bias in f32.
    Type storage =
        math == CudaMath::BF16 ? rewriter.getBF16Type() : rewriter.getF32Type();
    Value lhs = castTensor(rewriter, op.getLoc(), op.getLhs(), storage);
    Value rhs = castTensor(rewriter, op.getLoc(), op.getRhs(), storage);
    Value product;
    if (add) {
      scalars.push_back(Scalar::integer(relu ? 1 : 0));
      scalars.push_back(Scalar::integer(static_cast<int64_t>(math)));
      product = callRuntime(rewriter, last->getLoc(), "matmul_bias",
                            {lhs, rhs, add.getBias()}, type, scalars);
    } else {
      scalars.push_back(Scalar::integer(static_cast<int64_t>(math)));
      product = callRuntime(rewriter, op.getLoc(), "matmul", {lhs, rhs}, type,
                            scalars);
    }
    rewriter.replaceOp(last, product);
    if (relu)
      rewriter.eraseOp(add);
    if (add)
      rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void nnc::populateMatmulToCUDAPatterns(RewritePatternSet &patterns,
                                       CudaMath math) {
  patterns.add<MatmulToCUDA>(patterns.getContext(), math);
}
