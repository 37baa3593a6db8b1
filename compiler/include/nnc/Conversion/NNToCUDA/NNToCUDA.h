//===- NNToCUDA.h - nn library ops to libnnrt's CUDA calls ------*- C++ -*-===//
//
// Part of nnc. The pattern families of convert-nn-to-cuda, one file each.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H
#define NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H

#include "mlir/IR/PatternMatch.h"

namespace nnc {

/// How convolutions and matrix products compute: 0 strict fp32, 1 TF32
/// allowed, 2 bf16 operands (the runtime's `math` argument).
enum class CudaMath : int64_t { FP32 = 0, TF32 = 1, BF16 = 2 };

/// conv2d and its input and filter gradients: cuDNN.
void populateConvToCUDAPatterns(mlir::RewritePatternSet &patterns,
                                CudaMath math);
/// max_pool2d, avg_pool2d and max_pool2d_grad: cuDNN, where its padding
/// allows.
void populatePoolToCUDAPatterns(mlir::RewritePatternSet &patterns);
/// lrn and lrn_grad: cuDNN, within its parameter ranges.
void populateNormToCUDAPatterns(mlir::RewritePatternSet &patterns);
/// matmul, with a following bias_add and relu fused: cuBLASLt.
void populateMatmulToCUDAPatterns(mlir::RewritePatternSet &patterns,
                                  CudaMath math);

} // namespace nnc

#endif // NNC_CONVERSION_NNTOCUDA_NNTOCUDA_H
