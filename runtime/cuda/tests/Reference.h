//===- Reference.h - straightforward CPU versions of the calls --*- C++ -*-===//
//
// Part of nnc's runtime (the CUDA runtime's tests). Plain loops in double
// precision, written from TensorFlow's definitions: NHWC activations, HWIO
// filters, symmetric padding, max pooling over real positions only,
// average pooling dividing by the real positions, LRN with alpha not
// divided by the window, batch normalisation with the biased variance.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_TESTS_REFERENCE_H
#define NNRT_CUDA_TESTS_REFERENCE_H

#include <cstdint>
#include <vector>

namespace nnrt::cuda::test {

struct ConvShape {
  int64_t n, h, w, c, kh, kw, f;
  int64_t strideH, strideW, dilationH, dilationW, padH, padW;
  int64_t oh() const {
    return (h + 2 * padH - dilationH * (kh - 1) - 1) / strideH + 1;
  }
  int64_t ow() const {
    return (w + 2 * padW - dilationW * (kw - 1) - 1) / strideW + 1;
  }
};

std::vector<float> convForward(const ConvShape &s, const std::vector<float> &x,
                               const std::vector<float> &w);
std::vector<float> convBackwardData(const ConvShape &s,
                                    const std::vector<float> &dy,
                                    const std::vector<float> &w);
std::vector<float> convBackwardFilter(const ConvShape &s,
                                      const std::vector<float> &x,
                                      const std::vector<float> &dy);

struct PoolShape {
  int64_t n, h, w, c, windowH, windowW, strideH, strideW, padH, padW;
  bool max;
  int64_t oh() const { return (h + 2 * padH - windowH) / strideH + 1; }
  int64_t ow() const { return (w + 2 * padW - windowW) / strideW + 1; }
};

std::vector<float> poolForward(const PoolShape &s, const std::vector<float> &x);
std::vector<float> poolBackward(const PoolShape &s, const std::vector<float> &x,
                                const std::vector<float> &dy);

struct LRNParams {
  int64_t pixels, c, radius;
  double bias, alpha, beta;
};

std::vector<float> lrnForward(const LRNParams &p, const std::vector<float> &x);
std::vector<float> lrnBackward(const LRNParams &p, const std::vector<float> &x,
                               const std::vector<float> &dy);

/// Batch normalisation over `pixels` rows of `c` channels (an NHWC tensor
/// flattened), TensorFlow's fused batch norm: biased variance.
struct BatchNormShape {
  int64_t pixels, c;
  double epsilon;
};

struct BatchNormStats {
  std::vector<float> y, mean, variance;
};

std::vector<float> batchNormInference(const BatchNormShape &s,
                                      const std::vector<float> &x,
                                      const std::vector<float> &scale,
                                      const std::vector<float> &offset,
                                      const std::vector<float> &mean,
                                      const std::vector<float> &variance);
BatchNormStats batchNormTrain(const BatchNormShape &s,
                              const std::vector<float> &x,
                              const std::vector<float> &scale,
                              const std::vector<float> &offset);

struct BatchNormGrads {
  std::vector<float> dx, dscale, doffset;
};

/// The gradients of batchNormTrain's output for the batch's own mean and
/// variance.
BatchNormGrads
batchNormGrad(const BatchNormShape &s, const std::vector<float> &x,
              const std::vector<float> &scale, const std::vector<float> &mean,
              const std::vector<float> &variance, const std::vector<float> &dy);

/// Row-major C[M, N] = op(A) op(B) (+ bias[N], then ReLU when asked).
std::vector<float> matmul(int64_t m, int64_t n, int64_t k, bool transA,
                          bool transB, const std::vector<float> &a,
                          const std::vector<float> &b,
                          const std::vector<float> *bias, bool relu);

} // namespace nnrt::cuda::test

#endif // NNRT_CUDA_TESTS_REFERENCE_H
