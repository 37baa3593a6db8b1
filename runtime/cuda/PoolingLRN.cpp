//===- PoolingLRN.cpp - pooling and local response normalisation ----------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). cuDNN's ops-library calls, still
// part of cuDNN 9 (pooling is marked deprecated there, LRN is not), on f32
// NHWC tensors:
// - pooling takes NHWC-strided 4-D descriptors; max pooling ignores padded
//   positions, average pooling divides by the real positions only
//   (CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING), as TensorFlow does;
// - LRN runs across dimension 1 of a packed NCHW tensor. NHWC data of
//   shape [N, H, W, C] is exactly the packed NCHW tensor [N*H*W, C, 1, 1],
//   so no transposition is needed. cuDNN's window is lrnN = 2*radius + 1
//   and its alpha is divided by lrnN; TensorFlow's is not, so alpha*lrnN is
//   passed.
//
//===----------------------------------------------------------------------===//

#include "Memref.h"

#include "nnrt/cuda/Abi.h"

#include <algorithm>
#include <climits>

using namespace nnrt::cuda;

namespace {
/// An owned legacy tensor descriptor.
struct Tensor4 {
  cudnnTensorDescriptor_t d = nullptr;
  Tensor4(cudnnTensorFormat_t format, const std::vector<int64_t> &nchw,
          const Site &site) {
    for (int64_t v : nchw)
      if (v > INT_MAX)
        fail(site, "a dimension exceeds what cuDNN's 4-D descriptors hold");
    check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor", site);
    check(cudnnSetTensor4dDescriptor(
              d, format, CUDNN_DATA_FLOAT, static_cast<int>(nchw[0]),
              static_cast<int>(nchw[1]), static_cast<int>(nchw[2]),
              static_cast<int>(nchw[3])),
          "cudnnSetTensor4dDescriptor", site);
  }
  ~Tensor4() { cudnnDestroyTensorDescriptor(d); }
  Tensor4(const Tensor4 &) = delete;
  Tensor4 &operator=(const Tensor4 &) = delete;
};

/// [N, H, W, C] as cuDNN's NHWC descriptor.
Tensor4 nhwc(const View &v, const Site &site) {
  return Tensor4(CUDNN_TENSOR_NHWC,
                 {v.sizes[0], v.sizes[3], v.sizes[1], v.sizes[2]}, site);
}

struct PoolingDesc {
  cudnnPoolingDescriptor_t d = nullptr;
  PoolingDesc(int64_t mode, int64_t windowH, int64_t windowW, int64_t strideH,
              int64_t strideW, int64_t padH, int64_t padW, const Site &site) {
    check(cudnnCreatePoolingDescriptor(&d), "cudnnCreatePoolingDescriptor",
          site);
    check(cudnnSetPooling2dDescriptor(
              d,
              mode == 0 ? CUDNN_POOLING_MAX_DETERMINISTIC
                        : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING,
              CUDNN_NOT_PROPAGATE_NAN, static_cast<int>(windowH),
              static_cast<int>(windowW), static_cast<int>(padH),
              static_cast<int>(padW), static_cast<int>(strideH),
              static_cast<int>(strideW)),
          "cudnnSetPooling2dDescriptor", site);
  }
  ~PoolingDesc() { cudnnDestroyPoolingDescriptor(d); }
  PoolingDesc(const PoolingDesc &) = delete;
  PoolingDesc &operator=(const PoolingDesc &) = delete;
};

std::string pair(int64_t a, int64_t b) {
  return std::to_string(a) + "x" + std::to_string(b);
}

/// Checks the pooling of x into y; false when there is nothing to compute.
bool checkPooling(const View &x, const View &y, int64_t mode, int64_t windowH,
                  int64_t windowW, int64_t strideH, int64_t strideW,
                  int64_t padH, int64_t padW, const Site &site) {
  std::string what = "x " + x.shape() + ", y " + y.shape() + ", window " +
                     pair(windowH, windowW) + ", stride " +
                     pair(strideH, strideW) + ", padding " + pair(padH, padW);
  if (mode != 0 && mode != 1)
    fail(site, "pooling mode " + std::to_string(mode) +
                   " is not 0 (max) or 1 (average)");
  if (windowH < 1 || windowW < 1 || strideH < 1 || strideW < 1 || padH < 0 ||
      padW < 0 || padH >= windowH || padW >= windowW ||
      std::max({windowH, windowW, strideH, strideW}) > INT_MAX)
    fail(site, "windows and strides must be positive and padding smaller "
               "than the window: " +
                   what);
  int64_t oh = (x.sizes[1] + 2 * padH - windowH) / strideH + 1,
          ow = (x.sizes[2] + 2 * padW - windowW) / strideW + 1;
  if (x.sizes[1] + 2 * padH < windowH || x.sizes[2] + 2 * padW < windowW)
    oh = ow = -1;
  if (y.sizes[0] != x.sizes[0] || y.sizes[3] != x.sizes[3] ||
      y.sizes[1] != oh || y.sizes[2] != ow)
    fail(site, "the operands do not fit one pooling: " + what);
  return y.count() > 0;
}

/// Checks LRN's operands and parameters; false when x is empty.
bool checkLRN(const std::vector<const View *> &views, int64_t radius,
              double bias, double beta, const Site &site) {
  for (const View *v : views)
    if (v->sizes != views[0]->sizes)
      fail(site, "the operands' shapes differ: " + views[0]->shape() + " and " +
                     v->shape());
  if (radius < 0 || 2 * radius + 1 > CUDNN_LRN_MAX_N)
    fail(site, "depth radius " + std::to_string(radius) +
                   " is outside cuDNN's window (0 to " +
                   std::to_string((CUDNN_LRN_MAX_N - 1) / 2) + ")");
  if (bias < CUDNN_LRN_MIN_K || beta < CUDNN_LRN_MIN_BETA)
    fail(site, "cuDNN needs bias >= 1e-5 and beta >= 0.01; got bias " +
                   std::to_string(bias) + ", beta " + std::to_string(beta));
  return views[0]->count() > 0;
}

/// The LRN descriptor of TensorFlow's parameters, and the packed NCHW
/// tensor [N*H*W, C, 1, 1] for `x`'s shape.
struct LRNSetup {
  cudnnLRNDescriptor_t d = nullptr;
  Tensor4 tensor;
  LRNSetup(const View &x, int64_t radius, double bias, double alpha,
           double beta, const Site &site)
      : tensor(CUDNN_TENSOR_NCHW,
               {x.sizes[0] * x.sizes[1] * x.sizes[2], x.sizes[3], 1, 1}, site) {
    unsigned n = static_cast<unsigned>(2 * radius + 1);
    check(cudnnCreateLRNDescriptor(&d), "cudnnCreateLRNDescriptor", site);
    check(cudnnSetLRNDescriptor(d, n, alpha * n, beta, bias),
          "cudnnSetLRNDescriptor", site);
  }
  ~LRNSetup() { cudnnDestroyLRNDescriptor(d); }
  LRNSetup(const LRNSetup &) = delete;
  LRNSetup &operator=(const LRNSetup &) = delete;
};

const float kOne = 1, kZero = 0;
} // namespace

extern "C" void _mlir_ciface_nnrt_cuda_pool2d(NnrtDesc4 *xd, NnrtDesc4 *yd,
                                              int64_t mode, int64_t windowH,
                                              int64_t windowW, int64_t strideH,
                                              int64_t strideW, int64_t padH,
                                              int64_t padW, const char *layer) {
  Site site{"nnrt_cuda_pool2d", layer};
  View x = viewOf(xd, 4, "x", site), y = viewOf(yd, 4, "y", site);
  if (!checkPooling(x, y, mode, windowH, windowW, strideH, strideW, padH, padW,
                    site))
    return;
  PoolingDesc pooling(mode, windowH, windowW, strideH, strideW, padH, padW,
                      site);
  Tensor4 xt = nhwc(x, site), yt = nhwc(y, site);
  check(cudnnPoolingForward(cudnn(), pooling.d, &kOne, xt.d, x.data, &kZero,
                            yt.d, y.data),
        "cudnnPoolingForward", site);
}

extern "C" void _mlir_ciface_nnrt_cuda_pool2d_backward(
    NnrtDesc4 *xd, NnrtDesc4 *yd, NnrtDesc4 *dyd, NnrtDesc4 *dxd, int64_t mode,
    int64_t windowH, int64_t windowW, int64_t strideH, int64_t strideW,
    int64_t padH, int64_t padW, const char *layer) {
  Site site{"nnrt_cuda_pool2d_backward", layer};
  View x = viewOf(xd, 4, "x", site), y = viewOf(yd, 4, "y", site),
       dy = viewOf(dyd, 4, "dy", site), dx = viewOf(dxd, 4, "dx", site);
  if (dy.sizes != y.sizes || dx.sizes != x.sizes)
    fail(site, "dy " + dy.shape() + " must be shaped like y " + y.shape() +
                   " and dx " + dx.shape() + " like x " + x.shape());
  if (!checkPooling(x, y, mode, windowH, windowW, strideH, strideW, padH, padW,
                    site)) {
    if (dx.count())
      check(cudaMemsetAsync(dx.data, 0, dx.count() * 4, stream()),
            "cudaMemsetAsync", site);
    return;
  }
  PoolingDesc pooling(mode, windowH, windowW, strideH, strideW, padH, padW,
                      site);
  Tensor4 xt = nhwc(x, site), yt = nhwc(y, site);
  check(cudnnPoolingBackward(cudnn(), pooling.d, &kOne, yt.d, y.data, yt.d,
                             dy.data, xt.d, x.data, &kZero, xt.d, dx.data),
        "cudnnPoolingBackward", site);
}

extern "C" void _mlir_ciface_nnrt_cuda_lrn(NnrtDesc4 *xd, NnrtDesc4 *yd,
                                           int64_t radius, double bias,
                                           double alpha, double beta,
                                           const char *layer) {
  Site site{"nnrt_cuda_lrn", layer};
  View x = viewOf(xd, 4, "x", site), y = viewOf(yd, 4, "y", site);
  if (!checkLRN({&x, &y}, radius, bias, beta, site))
    return;
  LRNSetup lrn(x, radius, bias, alpha, beta, site);
  check(cudnnLRNCrossChannelForward(
            cudnn(), lrn.d, CUDNN_LRN_CROSS_CHANNEL_DIM1, &kOne, lrn.tensor.d,
            x.data, &kZero, lrn.tensor.d, y.data),
        "cudnnLRNCrossChannelForward", site);
}

extern "C" void _mlir_ciface_nnrt_cuda_lrn_backward(
    NnrtDesc4 *xd, NnrtDesc4 *yd, NnrtDesc4 *dyd, NnrtDesc4 *dxd,
    int64_t radius, double bias, double alpha, double beta, const char *layer) {
  Site site{"nnrt_cuda_lrn_backward", layer};
  View x = viewOf(xd, 4, "x", site), y = viewOf(yd, 4, "y", site),
       dy = viewOf(dyd, 4, "dy", site), dx = viewOf(dxd, 4, "dx", site);
  if (!checkLRN({&x, &y, &dy, &dx}, radius, bias, beta, site))
    return;
  LRNSetup lrn(x, radius, bias, alpha, beta, site);
  const cudnnTensorDescriptor_t t = lrn.tensor.d;
  check(cudnnLRNCrossChannelBackward(
            cudnn(), lrn.d, CUDNN_LRN_CROSS_CHANNEL_DIM1, &kOne, t, y.data, t,
            dy.data, t, x.data, &kZero, t, dx.data),
        "cudnnLRNCrossChannelBackward", site);
}
