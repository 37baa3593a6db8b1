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
/// Max and average pooling, max pooling's gradient, LRN and its gradient:
/// cuDNN, where its padding and parameter ranges allow.
void populatePoolLRNToCUDAPatterns(mlir::RewritePatternSet &patterns);
/// matmul, with a following bias_add and relu fused: cuBLASLt.
void populateMatmulToCUDAPatterns(mlir::RewritePatternSet &patterns,
                                  CudaMath math);

} // namespace nnc

#endif // NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H
