//===- NNToLinalg.h - nn to linalg patterns ---------------------*- C++ -*-===//
//
// Part of nnc. One populate function per op family; the pass
// (NNToLinalg.cpp) assembles them.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_NNTOLINALG_NNTOLINALG_H
#define NNC_CONVERSION_NNTOLINALG_NNTOLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace nnc {
/// relu, sigmoid, tanh, add, bias_add, dropout (inference: identity).
void populateElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// conv2d, max_pool2d, avg_pool2d.
void populateConvPoolToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// matmul, flatten, reshape, concat.
void populateMatmulShapeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// lrn, batch_norm, softmax.
void populateNormToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// l2_loss, sparse_softmax_cross_entropy, categorical_cross_entropy,
/// weight_decay.
void populateLossToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateGradConvPoolToLinalgPatterns(mlir::RewritePatternSet &patterns);
void populateGradElementwiseToLinalgPatterns(
    mlir::RewritePatternSet &patterns);
} // namespace nnc

#endif // NNC_CONVERSION_NNTOLINALG_NNTOLINALG_H
