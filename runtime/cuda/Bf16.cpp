//===- Bf16.cpp - the bf16 names of the library calls ---------------------===//
//
// Part of nnc's runtime (libnnrt_cuda). Compiled code calls these with bf16
// storage (math 2); the calls themselves read `math` to interpret it.
//
//===----------------------------------------------------------------------===//

#include "nnrt/cuda/Abi.h"

extern "C" {

void _mlir_ciface_nnrt_cuda_conv2d_bf16(NnrtDesc4 *x, NnrtDesc4 *w,
                                        NnrtDesc4 *y, int64_t strideH,
                                        int64_t strideW, int64_t dilationH,
                                        int64_t dilationW, int64_t padH,
                                        int64_t padW, int64_t math,
                                        const char *layer) {
  _mlir_ciface_nnrt_cuda_conv2d(x, w, y, strideH, strideW, dilationH, dilationW,
                                padH, padW, math, layer);
}

void _mlir_ciface_nnrt_cuda_conv2d_backprop_input_bf16(
    NnrtDesc4 *dy, NnrtDesc4 *w, NnrtDesc4 *dx, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer) {
  _mlir_ciface_nnrt_cuda_conv2d_backprop_input(dy, w, dx, strideH, strideW,
                                               dilationH, dilationW, padH, padW,
                                               math, layer);
}

void _mlir_ciface_nnrt_cuda_conv2d_backprop_filter_bf16(
    NnrtDesc4 *x, NnrtDesc4 *dy, NnrtDesc4 *dw, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer) {
  _mlir_ciface_nnrt_cuda_conv2d_backprop_filter(x, dy, dw, strideH, strideW,
                                                dilationH, dilationW, padH,
                                                padW, math, layer);
}

void _mlir_ciface_nnrt_cuda_matmul_bf16(NnrtDesc2 *a, NnrtDesc2 *b,
                                        NnrtDesc2 *c, int64_t transA,
                                        int64_t transB, int64_t math,
                                        const char *layer) {
  _mlir_ciface_nnrt_cuda_matmul(a, b, c, transA, transB, math, layer);
}

void _mlir_ciface_nnrt_cuda_matmul_bias_bf16(NnrtDesc2 *a, NnrtDesc2 *b,
                                             NnrtDesc1 *bias, NnrtDesc2 *c,
                                             int64_t transA, int64_t transB,
                                             int64_t relu, int64_t math,
                                             const char *layer) {
  _mlir_ciface_nnrt_cuda_matmul_bias(a, b, bias, c, transA, transB, relu, math,
                                     layer);
}

} // extern "C"
