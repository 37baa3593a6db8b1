//===- NNToLinalg.cpp - the convert-nn-to-linalg pass ---------------------===//
//
// Part of nnc. Assembles the per-family patterns (each a family's forward
// ops and their gradients, plus the training step's optimizer updates);
// every nn layer, loss and gradient must be converted, parameters and the
// optimizer declaration stay.
//
//===----------------------------------------------------------------------===//

#include "nnc/Conversion/NNToLinalg/NNToLinalg.h"
#include "nnc/Conversion/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace nnc {
#define GEN_PASS_DEF_CONVERTNNTOLINALG
#include "nnc/Conversion/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct ConvertNNToLinalgPass
    : nnc::impl::ConvertNNToLinalgBase<ConvertNNToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    nnc::lowerBatchNormReluGrads(getOperation());
    RewritePatternSet patterns(ctx);
    nnc::populateElementwiseToLinalgPatterns(patterns);
    nnc::populateConvToLinalgPatterns(patterns);
    nnc::populatePoolToLinalgPatterns(patterns);
    nnc::populateMatmulShapeToLinalgPatterns(patterns);
    nnc::populateNormToLinalgPatterns(patterns);
    nnc::populateBatchNormToLinalgPatterns(patterns);
    nnc::populateReduceToLinalgPatterns(patterns);
    nnc::populateDropoutToLinalgPatterns(patterns);
    nnc::populateLossToLinalgPatterns(patterns);
    nnc::populateOptimizerToLinalgPatterns(patterns);

    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, func::FuncDialect,
                           linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect>();
    target.addIllegalDialect<nn::NNDialect>();
    target.addLegalOp<nn::ParameterOp, nn::GetParamOp, nn::AssignParamOp,
                      nn::OptimizerOp>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
