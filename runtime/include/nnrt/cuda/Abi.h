/*===- Abi.h - what compiled CUDA code calls in libnnrt_cuda ----*- C -*-===*\
|*                                                                          *|
|* Part of nnc's runtime (libnnrt_cuda.a). The C ABI that code compiled by  *|
|* `nnc --target=cuda` calls (docs/cuda-runtime.md): MLIR's GPU runtime     *|
|* functions (the `mgpu*` symbols that gpu-to-llvm and gpu.binary emit) and *|
|* the library calls for convolutions, pooling, LRN, batch normalisation    *|
|* and matrix products.                                                     *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef NNRT_CUDA_ABI_H
#define NNRT_CUDA_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MLIR's memref descriptors of rank 1, 2 and 4; the library calls take a
 * pointer to each. Element i of a dense row-major buffer is at
 * (char *)aligned + (offset + i) * elementSize. */
typedef struct NnrtDesc1 {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} NnrtDesc1;
typedef struct NnrtDesc2 {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} NnrtDesc2;
typedef struct NnrtDesc4 {
  void *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
} NnrtDesc4;

/*===-- MLIR's GPU runtime ABI --------------------------------------------===*/

/* The runtime's one compute stream, created on first use. */
void *mgpuStreamCreate(void);
/* A no-op for the compute stream. */
void mgpuStreamDestroy(void *stream);
/* Waits for the stream; a no-op while the stream is captured into a graph. */
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);

/* Device memory from the runtime's caching pool; isHostShared must be false. */
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool isHostShared);
/* Returns the block to the pool (stream-ordered: there is one stream). */
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);

/* Records a GPU binary (fatbin, cubin or PTX) without touching CUDA: called
 * from static constructors, before main. The same blob gives the same
 * module however often it is registered. */
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
/* The same for NUL-terminated PTX (MLIR's "isa" objects). */
void *mgpuModuleLoadJIT(void *data, int optLevel);
/* Drops a registration; loaded code stays until exit. Never touches CUDA,
 * fails or prints (it is called from static destructors). */
void mgpuModuleUnload(void *module);
/* Loads the module on first use, then returns the kernel `name`. */
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);

/*===-- Library calls -----------------------------------------------------===*/
/* Every call only enqueues work on the compute stream. `layer` names the
 * model layer and its source location. Activations are NHWC, filters HWIO,
 * pads symmetric. `math`: 0 strict fp32, 1 TF32 allowed, 2 bf16 storage of
 * the convolution and matrix-product operands (f32 accumulation). */

void _mlir_ciface_nnrt_cuda_conv2d(NnrtDesc4 *x, NnrtDesc4 *w, NnrtDesc4 *y,
                                   int64_t strideH, int64_t strideW,
                                   int64_t dilationH, int64_t dilationW,
                                   int64_t padH, int64_t padW, int64_t math,
                                   const char *layer);
void _mlir_ciface_nnrt_cuda_conv2d_backprop_input(
    NnrtDesc4 *dy, NnrtDesc4 *w, NnrtDesc4 *dx, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer);
void _mlir_ciface_nnrt_cuda_conv2d_backprop_filter(
    NnrtDesc4 *x, NnrtDesc4 *dy, NnrtDesc4 *dw, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer);

/* f32; mode 0 max, 1 average over the real (unpadded) positions. */
void _mlir_ciface_nnrt_cuda_pool2d(NnrtDesc4 *x, NnrtDesc4 *y, int64_t mode,
                                   int64_t windowH, int64_t windowW,
                                   int64_t strideH, int64_t strideW,
                                   int64_t padH, int64_t padW,
                                   const char *layer);
void _mlir_ciface_nnrt_cuda_pool2d_backward(NnrtDesc4 *x, NnrtDesc4 *y,
                                            NnrtDesc4 *dy, NnrtDesc4 *dx,
                                            int64_t mode, int64_t windowH,
                                            int64_t windowW, int64_t strideH,
                                            int64_t strideW, int64_t padH,
                                            int64_t padW, const char *layer);

/* f32, across channels, TensorFlow's definition: y = x / (bias + alpha *
 * sum_{|c'-c| <= radius} x[c']^2)^beta (alpha not divided by the window). */
void _mlir_ciface_nnrt_cuda_lrn(NnrtDesc4 *x, NnrtDesc4 *y, int64_t radius,
                                double bias, double alpha, double beta,
                                const char *layer);
void _mlir_ciface_nnrt_cuda_lrn_backward(NnrtDesc4 *x, NnrtDesc4 *y,
                                         NnrtDesc4 *dy, NnrtDesc4 *dx,
                                         int64_t radius, double bias,
                                         double alpha, double beta,
                                         const char *layer);

/* f32 batch normalisation per channel (the last axis) over N, H and W, as
 * TensorFlow's fused batch norm; the vectors hold C values. Inference
 * normalises with the given statistics; training writes the batch's mean
 * and biased variance (divided by N*H*W), no moving averages; the backward
 * call takes the forward's mean and invStd = 1 / sqrt(variance + epsilon)
 * and writes dx, dscale = sum(dy * xhat) and doffset = sum(dy). */
void _mlir_ciface_nnrt_cuda_batch_norm(NnrtDesc4 *x, NnrtDesc1 *scale,
                                       NnrtDesc1 *offset, NnrtDesc1 *mean,
                                       NnrtDesc1 *variance, NnrtDesc4 *y,
                                       double epsilon, const char *layer);
void _mlir_ciface_nnrt_cuda_batch_norm_train(NnrtDesc4 *x, NnrtDesc1 *scale,
                                             NnrtDesc1 *offset, NnrtDesc4 *y,
                                             NnrtDesc1 *mean,
                                             NnrtDesc1 *variance,
                                             double epsilon, const char *layer);
void _mlir_ciface_nnrt_cuda_batch_norm_backward(
    NnrtDesc4 *x, NnrtDesc1 *scale, NnrtDesc1 *mean, NnrtDesc1 *invStd,
    NnrtDesc4 *dy, NnrtDesc4 *dx, NnrtDesc1 *dscale, NnrtDesc1 *doffset,
    double epsilon, const char *layer);

/* Row-major C[M, N] = op(A) op(B); op transposes when its flag is 1 (A is
 * then stored [K, M], B [N, K]). With math 2, A and B are bf16, C and bias
 * f32. The _bias form adds bias[N] to every row, then ReLU when relu = 1. */
void _mlir_ciface_nnrt_cuda_matmul(NnrtDesc2 *a, NnrtDesc2 *b, NnrtDesc2 *c,
                                   int64_t transA, int64_t transB, int64_t math,
                                   const char *layer);
void _mlir_ciface_nnrt_cuda_matmul_bias(NnrtDesc2 *a, NnrtDesc2 *b,
                                        NnrtDesc1 *bias, NnrtDesc2 *c,
                                        int64_t transA, int64_t transB,
                                        int64_t relu, int64_t math,
                                        const char *layer);

/* The same calls on bf16 storage (math 2): compiled code declares one
 * function per signature, and its memrefs of bf16 are a type of their own
 * in MLIR, so these names forward to the calls above. */
void _mlir_ciface_nnrt_cuda_conv2d_bf16(NnrtDesc4 *x, NnrtDesc4 *w,
                                        NnrtDesc4 *y, int64_t strideH,
                                        int64_t strideW, int64_t dilationH,
                                        int64_t dilationW, int64_t padH,
                                        int64_t padW, int64_t math,
                                        const char *layer);
void _mlir_ciface_nnrt_cuda_conv2d_backprop_input_bf16(
    NnrtDesc4 *dy, NnrtDesc4 *w, NnrtDesc4 *dx, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer);
void _mlir_ciface_nnrt_cuda_conv2d_backprop_filter_bf16(
    NnrtDesc4 *x, NnrtDesc4 *dy, NnrtDesc4 *dw, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer);
void _mlir_ciface_nnrt_cuda_matmul_bf16(NnrtDesc2 *a, NnrtDesc2 *b,
                                        NnrtDesc2 *c, int64_t transA,
                                        int64_t transB, int64_t math,
                                        const char *layer);
void _mlir_ciface_nnrt_cuda_matmul_bias_bf16(NnrtDesc2 *a, NnrtDesc2 *b,
                                             NnrtDesc1 *bias, NnrtDesc2 *c,
                                             int64_t transA, int64_t transB,
                                             int64_t relu, int64_t math,
                                             const char *layer);

#ifdef __cplusplus
}
#endif

#endif /* NNRT_CUDA_ABI_H */
