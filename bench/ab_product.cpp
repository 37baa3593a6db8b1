// Times two builds of models/matmul.nn in one process, call by call in
// alternation, so that both see the same moments of a machine whose speed
// drifts (other tenants, frequency): the objects' symbols carry the
// prefixes A_ and B_ (bench/ab_product.sh does the renaming and the link).
//
//   ab_product N ROUNDS
//
// Prints each build's best and median call and the median over rounds of
// B's time over A's in the same round.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
struct Memref2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
};
Memref2D describe(std::vector<float> &v, int64_t n) {
  return {v.data(), v.data(), 0, {n, n}, {n, 1}};
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
} // namespace

extern "C" void A__mlir_ciface_forward(Memref2D *, Memref2D *, Memref2D *);
extern "C" void B__mlir_ciface_forward(Memref2D *, Memref2D *, Memref2D *);

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s N ROUNDS\n", argv[0]);
    return 2;
  }
  int64_t n = std::atoll(argv[1]), rounds = std::atoll(argv[2]);
  std::vector<float> a(n * n), b(n * n), ca(n * n), cb(n * n);
  srand(7);
  for (auto *v : {&a, &b})
    for (float &x : *v)
      x = static_cast<float>(double(rand()) / RAND_MAX - 0.5);
  Memref2D ma = describe(a, n), mb = describe(b, n), mca = describe(ca, n),
           mcb = describe(cb, n);
  auto time = [&](auto fn, Memref2D *c) {
    auto start = std::chrono::steady_clock::now();
    fn(&ma, &mb, c);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         start)
        .count();
  };
  for (int warm = 0; warm < 2; ++warm) {
    time(A__mlir_ciface_forward, &mca);
    time(B__mlir_ciface_forward, &mcb);
  }
  std::vector<double> ta, tb, ratio;
  for (int64_t r = 0; r < rounds; ++r) {
    double x, y;
    // Alternate which goes first.
    if (r % 2) {
      y = time(B__mlir_ciface_forward, &mcb);
      x = time(A__mlir_ciface_forward, &mca);
    } else {
      x = time(A__mlir_ciface_forward, &mca);
      y = time(B__mlir_ciface_forward, &mcb);
    }
    ta.push_back(x);
    tb.push_back(y);
    ratio.push_back(y / x);
  }
  double worst = 0;
  for (int64_t i = 0; i < n * n; ++i)
    worst = std::max<double>(worst, std::abs(ca[i] - cb[i]));
  std::printf("A best %.4f ms median %.4f ms\n",
              1e3 * *std::min_element(ta.begin(), ta.end()), 1e3 * median(ta));
  std::printf("B best %.4f ms median %.4f ms\n",
              1e3 * *std::min_element(tb.begin(), tb.end()), 1e3 * median(tb));
  std::printf("B/A median of rounds %.4f  (max |A - B| %.3g)\n", median(ratio),
              worst);
  return 0;
}
