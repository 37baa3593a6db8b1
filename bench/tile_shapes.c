// Register tiles of the AVX-512 outer-product micro-kernel, alone on one
// core: MR rows of C times NV vectors of B's packed panel, each k step NV
// loads of B, MR broadcasts of A's rows (LDA floats apart) and MR x NV
// FMAs, B's panel prefetched 1 KiB ahead. Every shape streams the same
// bytes of B (KC x 32 x PANELS floats), so their GFLOP/s compare the
// loads each FMA waits for; the shapes alternate, and each prints its best
// of 12 runs. ContractionPlan.cpp chooses 6 x 64 (kWideVectors) over
// 14 x 32 from these figures.
//
//   clang -O3 -march=native bench/tile_shapes.c -o tile_shapes
//   taskset -c 0 ./tile_shapes KC PANELS LDA REPS
//
// docs/bench.md: `./tile_shapes 128 2 528 5000` (B in L1) and
// `./tile_shapes 512 12 528 50` (B in L2).
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#define KERNEL(NAME, MR, NV)                                                   \
  __attribute__((noinline)) static void NAME(                                  \
      const float *a, long lda, const float *b, long kc, float *c) {           \
    __m512 acc[MR][NV];                                                        \
    for (int i = 0; i < MR; i++)                                               \
      for (int v = 0; v < NV; v++)                                             \
        acc[i][v] = _mm512_setzero_ps();                                       \
    for (long k = 0; k < kc; k++) {                                            \
      __m512 bv[NV];                                                           \
      for (int v = 0; v < NV; v++) {                                           \
        bv[v] = _mm512_loadu_ps(b + 16 * NV * k + 16 * v);                     \
        _mm_prefetch((const char *)(b + 16 * NV * k + 16 * v + 256),           \
                     _MM_HINT_T0);                                             \
      }                                                                        \
      for (int i = 0; i < MR; i++) {                                           \
        __m512 x = _mm512_set1_ps(a[i * lda + k]);                             \
        for (int v = 0; v < NV; v++)                                           \
          acc[i][v] = _mm512_fmadd_ps(x, bv[v], acc[i][v]);                    \
      }                                                                        \
    }                                                                          \
    for (int i = 0; i < MR; i++)                                               \
      for (int v = 0; v < NV; v++) {                                           \
        float *to = c + 16 * NV * i + 16 * v;                                  \
        _mm512_storeu_ps(to, _mm512_add_ps(_mm512_loadu_ps(to), acc[i][v]));   \
      }                                                                        \
  }

KERNEL(k14x2, 14, 2)
KERNEL(k12x2, 12, 2)
KERNEL(k9x3, 9, 3)
KERNEL(k8x3, 8, 3)
KERNEL(k6x4, 6, 4)

typedef void (*Kernel)(const float *, long, const float *, long, float *);
static const struct {
  Kernel kernel;
  int mr, nv;
} shapes[] = {
    {k14x2, 14, 2}, {k12x2, 12, 2}, {k9x3, 9, 3}, {k8x3, 8, 3}, {k6x4, 6, 4}};
enum { kShapes = sizeof(shapes) / sizeof(shapes[0]), kMaxMR = 14 };

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s KC PANELS LDA REPS\n", argv[0]);
    return 2;
  }
  long kc = atol(argv[1]), panels = atol(argv[2]), lda = atol(argv[3]);
  long reps = atol(argv[4]);
  if (kc <= 0 || panels <= 0 || lda < kc || reps <= 0) {
    fprintf(stderr, "%s: every size must be positive, LDA at least KC\n",
            argv[0]);
    return 2;
  }
  // B's bytes are the same for every shape: PANELS panels 32 wide, as
  // many of 48 or 64 as hold the same floats (rounded up).
  long bFloats = kc * 64 * (panels + 1) + 1024;
  long cFloats = kMaxMR * 64 * (panels + 1);
  float *a = aligned_alloc(64, (4 * kMaxMR * lda + 63) / 64 * 64);
  float *b = aligned_alloc(64, (4 * bFloats + 63) / 64 * 64);
  float *c = aligned_alloc(64, (4 * cFloats + 63) / 64 * 64);
  if (!a || !b || !c) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  for (long i = 0; i < kMaxMR * lda; i++)
    a[i] = 1e-3f * (i % 7);
  for (long i = 0; i < bFloats; i++)
    b[i] = 1e-3f * (i % 5);
  memset(c, 0, 4 * cFloats);
  double best[kShapes] = {0};
  for (int run = 0; run < 12; run++)
    for (int s = 0; s < kShapes; s++) {
      int mr = shapes[s].mr, nv = shapes[s].nv;
      long count = (panels * 2 + nv - 1) / nv;
      double t = now();
      for (long r = 0; r < reps; r++)
        for (long p = 0; p < count; p++)
          shapes[s].kernel(a, lda, b + p * kc * 16 * nv, kc,
                           c + p * mr * 16 * nv);
      t = now() - t;
      double gflops = 2.0 * mr * 16 * nv * kc * count * reps / t / 1e9;
      if (gflops > best[s])
        best[s] = gflops;
    }
  for (int s = 0; s < kShapes; s++)
    printf("%2d x %d: %6.1f GFLOP/s\n", shapes[s].mr, 16 * shapes[s].nv,
           best[s]);
  return 0;
}
