//===- CudaTests.cpp - tests of the CUDA runtime --------------------------===//
//
// Part of nnc's runtime. `nnrt-cuda-tests --host` runs the checks that need
// no GPU (descriptors, the pool's bookkeeping, messages); without it the
// library calls are checked against CPU references on the GPU as well.
// `--fail=CASE` makes one call the runtime must refuse (FailureCases.cpp).
// Prints one line per failed check and "N passed, N failed"; exits non-zero
// on any failure.
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace nnrt::cuda::test {

double relativeError(const std::vector<float> &got,
                     const std::vector<float> &want) {
  if (got.size() != want.size())
    return INFINITY;
  double scale = 0, error = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    scale = std::max(scale, std::fabs(double(want[i])));
    double d = std::fabs(double(got[i]) - want[i]);
    error = std::isnan(d) ? INFINITY : std::max(error, d);
  }
  return scale > 0 ? error / scale : error;
}

void checkClose(const std::vector<float> &got, const std::vector<float> &want,
                double tolerance, const std::string &what) {
  double e = relativeError(got, want);
  char text[64];
  std::snprintf(text, sizeof text, " (relative error %.3g)", e);
  check(e <= tolerance, what + text);
}

std::vector<float> randomVector(size_t n, std::mt19937 &rng) {
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

uint16_t toBf16(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  if (std::isnan(v))
    return 0x7fc0;
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

float fromBf16(uint16_t v) {
  uint32_t bits = uint32_t(v) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::vector<float> roundedToBf16(const std::vector<float> &v) {
  std::vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = fromBf16(toBf16(v[i]));
  return out;
}

} // namespace nnrt::cuda::test

int main(int argc, char **argv) {
  using namespace nnrt::cuda::test;
  if (argc > 1 && std::strncmp(argv[1], "--fail=", 7) == 0)
    return runFailureCase(argv[1] + 7) ? 0 : 2;
  bool hostOnly = argc > 1 && std::strcmp(argv[1], "--host") == 0;
  runHostTests();
  if (!hostOnly)
    runGpuTests();
  return nnrt::test::summarize();
}
