//===- Init.cpp - parameter initialisers ----------------------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Init.h"

#include <cmath>

using namespace nnrt;

/// Keras divides by this so that a normal truncated at two standard
/// deviations has the requested standard deviation.
static constexpr double kTruncatedStddevCorrection = 0.87962566103423978;

Fans nnrt::computeFans(const Shape &shape) {
  if (shape.size() == 2)
    return {double(shape[0]), double(shape[1])};
  if (shape.size() == 4) {
    double receptive = double(shape[0]) * double(shape[1]);
    return {receptive * double(shape[2]), receptive * double(shape[3])};
  }
  if (shape.empty())
    return {1, 1};
  return {double(shape.front()), double(shape.back())};
}

static void truncatedNormal(float *data, int64_t n, double mean, double stddev,
                            std::mt19937_64 &rng) {
  std::normal_distribution<double> normal(mean, stddev);
  for (int64_t i = 0; i < n; ++i) {
    double v;
    do
      v = normal(rng);
    while (std::fabs(v - mean) > 2 * stddev);
    data[i] = static_cast<float>(v);
  }
}

/// TensorFlow's variance_scaling_initializer.
static void varianceScaling(const Initializer &init, const Fans &fans,
                            float *data,
                     int64_t n, std::mt19937_64 &rng) {
  double fan = init.mode == "fan_in"    ? fans.in
               : init.mode == "fan_out" ? fans.out
                                        : (fans.in + fans.out) / 2.0;
  double variance = init.scale / std::max(1.0, fan);
  if (init.distribution == "uniform") {
    double limit = std::sqrt(3.0 * variance);
    std::uniform_real_distribution<double> uniform(-limit, limit);
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<float>(uniform(rng));
  } else if (init.distribution == "untruncated_normal") {
    std::normal_distribution<double> normal(0.0, std::sqrt(variance));
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<float>(normal(rng));
  } else {
    truncatedNormal(data, n, 0.0,
                    std::sqrt(variance) / kTruncatedStddevCorrection, rng);
  }
}

void nnrt::initialize(const Initializer &init, const Shape &shape, float *data,
                      std::mt19937_64 &rng) {
  int64_t n = elementCount(shape);
  Fans fans = computeFans(shape);
  if (init.kind == "zeros" || init.kind == "constant") {
    float v = init.kind == "zeros" ? 0.0f : static_cast<float>(init.value);
    for (int64_t i = 0; i < n; ++i)
      data[i] = v;
  } else if (init.kind == "normal") {
    std::normal_distribution<double> normal(init.mean, init.stddev);
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<float>(normal(rng));
  } else if (init.kind == "truncated_normal") {
    truncatedNormal(data, n, init.mean, init.stddev, rng);
  } else if (init.kind == "uniform" || init.kind == "glorot_uniform") {
    double lo = init.min, hi = init.max;
    if (init.kind == "glorot_uniform") {
      double limit = std::sqrt(6.0 / (fans.in + fans.out));
      lo = -limit, hi = limit;
    }
    std::uniform_real_distribution<double> uniform(lo, hi);
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<float>(uniform(rng));
  } else if (init.kind == "glorot_normal") {
    truncatedNormal(data, n, 0.0,
                    std::sqrt(2.0 / (fans.in + fans.out)) /
                        kTruncatedStddevCorrection,
                    rng);
  } else if (init.kind == "variance_scaling") {
    varianceScaling(init, fans, data, n, rng);
  } else { // he_normal
    truncatedNormal(data, n, 0.0,
                    std::sqrt(2.0 / fans.in) / kTruncatedStddevCorrection, rng);
  }
}

void nnrt::fillConstant(Tensor &t, double value) {
  for (int64_t i = 0; i < t.size(); ++i)
    switch (t.type()) {
    case DType::F32:
      t.f32()[i] = static_cast<float>(value);
      break;
    case DType::I32:
      t.i32()[i] = static_cast<int32_t>(value);
      break;
    case DType::I64:
      t.i64()[i] = static_cast<int64_t>(value);
      break;
    }
}
