//===- BatchNorm.cpp - batch normalisation through cuDNN ------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). cuDNN's spatial batch-norm calls
// (ops library, deprecated in cuDNN 9 but present) on f32 NHWC tensors,
// statistics per channel over N, H and W:
// - inference normalises with the given mean and variance;
// - training returns the batch mean and the biased variance (divided by
//   n = N*H*W), as TensorFlow's fused batch norm: cuDNN's running averages
//   with factor 1 hold exactly the batch mean and the unbiased variance,
//   which is scaled by (n - 1) / n (with one element per channel the
//   variance is 0); the moving averages themselves are left to the caller;
// - the gradient takes the forward's mean and 1 / sqrt(variance + epsilon),
//   which cuDNN's backward call reads as its saved statistics.
//
//===----------------------------------------------------------------------===//

#include "Memref.h"

#include "nnrt/cuda/Abi.h"

#include <climits>
#include <cmath>
#include <limits>

using namespace nnrt::cuda;

namespace {
/// An owned legacy tensor descriptor.
struct TensorDesc {
  cudnnTensorDescriptor_t d = nullptr;
  explicit TensorDesc(const Site &site) {
    check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor", site);
  }
  ~TensorDesc() { cudnnDestroyTensorDescriptor(d); }
  TensorDesc(const TensorDesc &) = delete;
  TensorDesc &operator=(const TensorDesc &) = delete;
};

/// The NHWC descriptor of x and the per-channel descriptor cuDNN derives
/// from it for the scale, offset and statistics.
struct BNSetup {
  TensorDesc x, channel;
  BNSetup(const View &v, const Site &site) : x(site), channel(site) {
    check(cudnnSetTensor4dDescriptor(
              x.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT,
              static_cast<int>(v.sizes[0]), static_cast<int>(v.sizes[3]),
              static_cast<int>(v.sizes[1]), static_cast<int>(v.sizes[2])),
          "cudnnSetTensor4dDescriptor", site);
    check(
        cudnnDeriveBNTensorDescriptor(channel.d, x.d, CUDNN_BATCHNORM_SPATIAL),
        "cudnnDeriveBNTensorDescriptor", site);
  }
};

/// Checks that every tensor is shaped like x and every vector holds x's
/// channels, and epsilon; returns the elements per channel.
int64_t checkShapes(const View &x, const std::vector<const View *> &tensors,
                    const std::vector<const View *> &vectors, double epsilon,
                    const Site &site) {
  for (const View *t : tensors)
    if (t->sizes != x.sizes)
      fail(site, "the operands' shapes differ: x " + x.shape() + " and " +
                     t->shape());
  for (const View *v : vectors)
    if (v->sizes[0] != x.sizes[3])
      fail(site, "a per-channel operand " + v->shape() + " does not have x's " +
                     std::to_string(x.sizes[3]) + " channels (x " + x.shape() +
                     ")");
  for (int64_t d : x.sizes)
    if (d > INT_MAX)
      fail(site, "a dimension exceeds what cuDNN's 4-D descriptors hold: x " +
                     x.shape());
  if (!(epsilon >= CUDNN_BN_MIN_EPSILON) || !std::isfinite(epsilon))
    fail(site, "epsilon " + std::to_string(epsilon) +
                   " is below cuDNN's minimum " +
                   std::to_string(CUDNN_BN_MIN_EPSILON) + " or not finite");
  return x.sizes[0] * x.sizes[1] * x.sizes[2];
}

/// Fills a per-channel vector of `channels` f32 with `value`.
void fill(const View &v, float value, const Site &site) {
  TensorDesc d(site);
  check(cudnnSetTensor4dDescriptor(d.d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1,
                                   static_cast<int>(v.sizes[0]), 1, 1),
        "cudnnSetTensor4dDescriptor", site);
  check(cudnnSetTensor(cudnn(), d.d, v.data, &value), "cudnnSetTensor", site);
}

const float kOne = 1, kZero = 0;
} // namespace

extern "C" void _mlir_ciface_nnrt_cuda_batch_norm(
    NnrtDesc4 *xd, NnrtDesc1 *scaled, NnrtDesc1 *offsetd, NnrtDesc1 *meand,
    NnrtDesc1 *varianced, NnrtDesc4 *yd, double epsilon, const char *layer) {
  Site site{"nnrt_cuda_batch_norm", layer};
  View x = viewOf(xd, 4, "x", site), y = viewOf(yd, 4, "y", site),
       scale = viewOf(scaled, 4, "scale", site),
       offset = viewOf(offsetd, 4, "offset", site),
       mean = viewOf(meand, 4, "mean", site),
       variance = viewOf(varianced, 4, "variance", site);
  checkShapes(x, {&y}, {&scale, &offset, &mean, &variance}, epsilon, site);
  if (x.count() == 0)
    return;
  BNSetup bn(x, site);
  check(cudnnBatchNormalizationForwardInference(
            cudnn(), CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero, bn.x.d, x.data,
            bn.x.d, y.data, bn.channel.d, scale.data, offset.data, mean.data,
            variance.data, epsilon),
        "cudnnBatchNormalizationForwardInference", site);
}

extern "C" void _mlir_ciface_nnrt_cuda_batch_norm_train(
    NnrtDesc4 *xd, NnrtDesc1 *scaled, NnrtDesc1 *offsetd, NnrtDesc4 *yd,
    NnrtDesc1 *meand, NnrtDesc1 *varianced, double epsilon, const char *layer) {
  Site site{"nnrt_cuda_batch_norm_train", layer};
  View x = viewOf(xd, 4, "x", site), y = viewOf(yd, 4, "y", site),
       scale = viewOf(scaled, 4, "scale", site),
       offset = viewOf(offsetd, 4, "offset", site),
       mean = viewOf(meand, 4, "mean", site),
       variance = viewOf(varianced, 4, "variance", site);
  int64_t n =
      checkShapes(x, {&y}, {&scale, &offset, &mean, &variance}, epsilon, site);
  if (x.sizes[3] == 0)
    return;
  if (n == 0) {
    // The statistics of no elements, as 0 / 0 gives them.
    fill(mean, std::numeric_limits<float>::quiet_NaN(), site);
    fill(variance, std::numeric_limits<float>::quiet_NaN(), site);
    return;
  }
  BNSetup bn(x, site);
  // With factor 1 the running averages become the batch's statistics; they
  // start from zeros so that whatever the buffers held does not leak in
  // (NaN * 0).
  check(cudnnSetTensor(cudnn(), bn.channel.d, mean.data, &kZero),
        "cudnnSetTensor", site);
  check(cudnnSetTensor(cudnn(), bn.channel.d, variance.data, &kZero),
        "cudnnSetTensor", site);
  check(cudnnBatchNormalizationForwardTraining(
            cudnn(), CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero, bn.x.d, x.data,
            bn.x.d, y.data, bn.channel.d, scale.data, offset.data,
            /*exponentialAverageFactor=*/1.0, mean.data, variance.data, epsilon,
            nullptr, nullptr),
        "cudnnBatchNormalizationForwardTraining", site);
  // The unbiased variance back to the biased one.
  float biased = n > 1 ? static_cast<float>(double(n - 1) / double(n)) : 0.0f;
  if (biased == 0.0f)
    check(cudnnSetTensor(cudnn(), bn.channel.d, variance.data, &kZero),
          "cudnnSetTensor", site);
  else
    check(cudnnScaleTensor(cudnn(), bn.channel.d, variance.data, &biased),
          "cudnnScaleTensor", site);
}

extern "C" void _mlir_ciface_nnrt_cuda_batch_norm_backward(
    NnrtDesc4 *xd, NnrtDesc1 *scaled, NnrtDesc1 *meand, NnrtDesc1 *invStdd,
    NnrtDesc4 *dyd, NnrtDesc4 *dxd, NnrtDesc1 *dscaled, NnrtDesc1 *doffsetd,
    double epsilon, const char *layer) {
  Site site{"nnrt_cuda_batch_norm_backward", layer};
  View x = viewOf(xd, 4, "x", site), dy = viewOf(dyd, 4, "dy", site),
       dx = viewOf(dxd, 4, "dx", site),
       scale = viewOf(scaled, 4, "scale", site),
       mean = viewOf(meand, 4, "mean", site),
       invStd = viewOf(invStdd, 4, "invStd", site),
       dscale = viewOf(dscaled, 4, "dscale", site),
       doffset = viewOf(doffsetd, 4, "doffset", site);
  int64_t n =
      checkShapes(x, {&dy, &dx}, {&scale, &mean, &invStd, &dscale, &doffset},
                  epsilon, site);
  if (x.sizes[3] == 0)
    return;
  if (n == 0) {
    // Sums over no elements.
    fill(dscale, 0.0f, site);
    fill(doffset, 0.0f, site);
    return;
  }
  BNSetup bn(x, site);
  check(cudnnBatchNormalizationBackward(
            cudnn(), CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero, &kOne, &kZero,
            bn.x.d, x.data, bn.x.d, dy.data, bn.x.d, dx.data, bn.channel.d,
            scale.data, dscale.data, doffset.data, epsilon, mean.data,
            invStd.data),
        "cudnnBatchNormalizationBackward", site);
}
