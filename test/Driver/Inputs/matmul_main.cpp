// Calls a compiled models/matmul.nn through its C interface and compares the
// product with a plain triple loop in double. Usage: matmul_main N
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
// The descriptor of a rank-2 memref, as the C interface passes it.
struct Memref2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
Memref2D describe(std::vector<float> &v, int64_t n) {
  return {v.data(), v.data(), 0, {n, n}, {n, 1}};
}
} // namespace

extern "C" void _mlir_ciface_forward(Memref2D *a, Memref2D *b, Memref2D *c);
extern "C" void nnc_forward(void **args);
extern "C" const char nnc_model_json[];

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 0;
  std::vector<float> a(n * n), b(n * n), c(n * n, -1.0f);
  srand(7);
  for (auto *v : {&a, &b})
    for (float &x : *v)
      x = static_cast<float>(double(rand()) / RAND_MAX - 0.5);
  Memref2D ma = describe(a, n), mb = describe(b, n), mc = describe(c, n);
  _mlir_ciface_forward(&ma, &mb, &mc);
  // The packed entry point computes the same product.
  std::vector<float> c2(n * n, -1.0f);
  Memref2D mc2 = describe(c2, n);
  void *args[] = {&ma, &mb, &mc2};
  nnc_forward(args);
  // Each row of the product in double, B read along its rows.
  double worst = 0;
  std::vector<double> want(n);
  for (int64_t i = 0; i < n; ++i) {
    std::fill(want.begin(), want.end(), 0.0);
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        want[j] += double(a[i * n + k]) * b[k * n + j];
    for (int64_t j = 0; j < n; ++j) {
      worst = std::fmax(worst, std::fabs(want[j] - c[i * n + j]));
      worst = std::fmax(worst, std::fabs(want[j] - c2[i * n + j]));
    }
  }
  std::printf("%s\n", nnc_model_json);
  std::printf("max abs error %.3g\n", worst);
  return worst < 1e-4 ? 0 : 1;
}
