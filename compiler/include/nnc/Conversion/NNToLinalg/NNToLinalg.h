//===- NNToLinalg.h - nn to linalg patterns ---------------------*- C++ -*-===//
//
// Part of nnc. One populate function per op family, each lowering the
// family's forward ops and their gradients; the pass (NNToLinalg.cpp)
// assembles them.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_NNTOLINALG_NNTOLINALG_H
#define NNC_CONVERSION_NNTOLINALG_NNTOLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace nnc {
/// relu, sigmoid, tanh, softmax, add, bias_add, dropout (inference:
/// identity), and relu_grad, sigmoid_grad, tanh_grad, softmax_grad,
/// bias_add_grad, scale.
void populateElementwiseToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// conv2d, conv2d_backprop_input, conv2d_backprop_filter.
void populateConvToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// max_pool2d, avg_pool2d, max_pool2d_grad, avg_pool2d_grad.
void populatePoolToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// matmul, flatten, reshape, concat, slice.
void populateMatmulShapeToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// lrn, lrn_grad.
void populateNormToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// batch_norm, batch_norm_train, batch_norm_grad, moving_average.
void populateBatchNormToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// Lowers each batch_norm_grad of a relu'd batch_norm_train whose output
/// gradient is that relu's relu_grad, read by nothing else, to passes
/// that take the relu's gradient and recompute its mask: the relu_grad
/// goes too. Runs before the patterns, while the forward ops it matches
/// are still nn ops.
void lowerBatchNormReluGrads(mlir::Operation *root);
/// mean, mean_grad.
void populateReduceToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// dropout_train (Philox4x32-10 masks).
void populateDropoutToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// l2_loss, weight_decay, sparse_softmax_cross_entropy(_grad),
/// categorical_cross_entropy(_grad), correct_count.
void populateLossToLinalgPatterns(mlir::RewritePatternSet &patterns);
/// learning_rate, sgd_update, adam_update.
void populateOptimizerToLinalgPatterns(mlir::RewritePatternSet &patterns);
} // namespace nnc

#endif // NNC_CONVERSION_NNTOLINALG_NNTOLINALG_H
