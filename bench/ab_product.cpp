// Times two builds of models/matmul.nn in one process, call by call in
// alternation, so that both see the same moments of a machine whose speed
// drifts (other tenants, frequency): the objects' symbols carry the
// prefixes A_ and B_ (bench/ab_product.sh does the renaming and the link).
//
//   ab_product N ROUNDS
//
// Prints each build's best and median call and the median over rounds of
// B's time over A's in the same round.
#include "nnrt/Stats.h"
#include "nnrt/Tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

// The C interface's entry points, each given the three operands' memref
// descriptors (nnrt::Tensor::descriptor()).
extern "C" void A__mlir_ciface_forward(void *, void *, void *);
extern "C" void B__mlir_ciface_forward(void *, void *, void *);

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s N ROUNDS\n", argv[0]);
    return 2;
  }
  int64_t n = std::atoll(argv[1]), rounds = std::atoll(argv[2]);
  nnrt::Shape shape = {n, n};
  nnrt::Tensor a(nnrt::DType::F32, shape), b(nnrt::DType::F32, shape),
      ca(nnrt::DType::F32, shape), cb(nnrt::DType::F32, shape);
  srand(7);
  for (nnrt::Tensor *t : {&a, &b})
    for (int64_t i = 0; i < n * n; ++i)
      t->f32()[i] = static_cast<float>(double(rand()) / RAND_MAX - 0.5);
  auto time = [&](auto fn, nnrt::Tensor &c) {
    double start = nnrt::monotonicSeconds();
    fn(a.descriptor(), b.descriptor(), c.descriptor());
    return nnrt::monotonicSeconds() - start;
  };
  for (int warm = 0; warm < 2; ++warm) {
    time(A__mlir_ciface_forward, ca);
    time(B__mlir_ciface_forward, cb);
  }
  std::vector<double> ta, tb, ratio;
  for (int64_t r = 0; r < rounds; ++r) {
    double x, y;
    // Alternate which goes first.
    if (r % 2) {
      y = time(B__mlir_ciface_forward, cb);
      x = time(A__mlir_ciface_forward, ca);
    } else {
      x = time(A__mlir_ciface_forward, ca);
      y = time(B__mlir_ciface_forward, cb);
    }
    ta.push_back(x);
    tb.push_back(y);
    ratio.push_back(y / x);
  }
  double worst = 0;
  for (int64_t i = 0; i < n * n; ++i)
    worst = std::max<double>(worst, std::abs(ca.f32()[i] - cb.f32()[i]));
  std::printf("A best %.4f ms median %.4f ms\n",
              1e3 * *std::min_element(ta.begin(), ta.end()),
              1e3 * nnrt::median(ta));
  std::printf("B best %.4f ms median %.4f ms\n",
              1e3 * *std::min_element(tb.begin(), tb.end()),
              1e3 * nnrt::median(tb));
  std::printf("B/A median of rounds %.4f  (max |A - B| %.3g)\n",
              nnrt::median(ratio), worst);
  return 0;
}
