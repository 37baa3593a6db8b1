//===- NNToCUDA.h - nn library ops to libnnrt's CUDA calls ------*- C++ -*-===//
//
// Part of nnc. The pattern families of convert-nn-to-cuda, one file each.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H
#define NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H

#include "nnc/Conversion/NNToCUDA/CudaMath.h"

#include "mlir/IR/PatternMatch.h"

namespace nnc {

/// conv2d and its input and filter gradients: cuDNN.
void populateConvToCUDAPatterns(mlir::RewritePatternSet &patterns,
                                CudaMath math);
/// max_pool2d, avg_pool2d and max_pool2d_grad: cuDNN, where its padding
/// allows.
void populatePoolToCUDAPatterns(mlir::RewritePatternSet &patterns);
/// lrn and lrn_grad: cuDNN, within its parameter ranges.
void populateNormToCUDAPatterns(mlir::RewritePatternSet &patterns);
/// batch_norm, batch_norm_train and batch_norm_grad on f32: cuDNN.
void populateBatchNormToCUDAPatterns(mlir::RewritePatternSet &patterns);
/// matmul, with a following bias_add and relu fused: cuBLASLt.
void populateMatmulToCUDAPatterns(mlir::RewritePatternSet &patterns,
                                  CudaMath math);

} // namespace nnc

#endif // NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H
