// The machine's f32 FMA peak, measured: every thread runs independent
// chains of vector fused multiply-adds (enough to cover the FMA latency on
// every unit) and the GFLOP/s of all threads together is printed. The
// vector width is the widest the compiler targets (-march=native).
// A shared or throttled machine reads low in a single run, so the figure
// is the best of REPS runs (default 7) of at least 1.5 s each: the peak is
// what the cores can do, and a workload measured above it is an error.
//
//   clang -O2 -march=native -fopenmp bench/peak.c -o peak && ./peak 2 [REPS]
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX__)
#define LANES 8
#else
#define LANES 4
#endif
#define CHAINS 12

typedef float vec __attribute__((vector_size(4 * LANES)));

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : omp_get_max_threads();
  int reps = argc > 2 ? atoi(argv[2]) : 7;
  long iters = 50000000; // grown until one run lasts 1.5 s
  double best = 0;
  for (int rep = 0; rep < reps; ++rep) {
    double start = omp_get_wtime();
    float sink = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
      vec acc[CHAINS], x, y;
      for (int l = 0; l < LANES; ++l) {
        x[l] = 1.0000001f;
        y[l] = 0.9999999f;
      }
      for (int j = 0; j < CHAINS; ++j)
        for (int l = 0; l < LANES; ++l)
          acc[j][l] = (float)(j + omp_get_thread_num());
      for (long i = 0; i < iters; ++i) {
#pragma GCC unroll 12
        for (int j = 0; j < CHAINS; ++j)
          acc[j] = acc[j] * x + y; // one FMA (fp-contract)
        __asm__ volatile("" : "+x"(x)); // keep the loop from being folded
      }
      for (int j = 0; j < CHAINS; ++j)
        sink += acc[j][0];
    }
    double seconds = omp_get_wtime() - start;
    if (seconds < 1.5) { // too short to count: longer, and again
      iters = (long)(iters * 1.6 / (seconds > 0.01 ? seconds : 0.01));
      --rep;
      continue;
    }
    double gflops = 2.0 * LANES * CHAINS * iters * threads / seconds / 1e9;
    if (gflops > best)
      best = gflops;
    if (sink == 12345.f)
      puts("");
  }
  printf("%.1f\n", best);
  return 0;
}
