//===- NNToCUDA.cpp - the convert-nn-to-cuda pass -------------------------===//
//
// Part of nnc. Assembles the per-family patterns; ops they leave (the
// elementwise rest, losses, what the libraries cannot do like TensorFlow)
// are lowered by convert-nn-to-linalg and become generated kernels.
//
//===----------------------------------------------------------------------===//

#include "nnc/Conversion/NNToCUDA/NNToCUDA.h"
#include "nnc/Conversion/Passes.h"
#include "nnc/Utils/GreedyConfig.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nnc {
#define GEN_PASS_DEF_CONVERTNNTOCUDA
#include "nnc/Conversion/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct ConvertNNToCUDAPass
    : nnc::impl::ConvertNNToCUDABase<ConvertNNToCUDAPass> {
  using Base::Base;

  void runOnOperation() override {
    nnc::CudaMath math = precision;
    RewritePatternSet patterns(&getContext());
    nnc::populateConvToCUDAPatterns(patterns, math);
    nnc::populatePoolToCUDAPatterns(patterns);
    nnc::populateNormToCUDAPatterns(patterns);
    nnc::populateBatchNormToCUDAPatterns(patterns);
    nnc::populateMatmulToCUDAPatterns(patterns, math);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     nnc::withoutRegionSimplification())))
      signalPassFailure();
  }
};
} // namespace
