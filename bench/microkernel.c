// The 14 x 32 AVX-512 micro-kernel nnc emitted for a large matrix product
// until it took 6 x 64 tiles (bench/tile_shapes.c compares them), alone:
// 14 x 32 accumulators, each k step two vectors of a packed panel of B
// times 14 broadcasts of A's rows (copied, `lda` floats apart), B's panel
// prefetched 1 KiB ahead. It shows what the loop reaches when B's block
// stays in L2 and what it loses when every block is new, as in the product.
//
//   clang -O3 -march=native bench/microkernel.c -o microkernel
//   ./microkernel KC PANELS LDA REPS BLOCKS TILES NEXT
//
// Each of BLOCKS blocks of B (PANELS panels of KC x 32) is used by TILES
// register tiles in turn (each tile one kernel call per panel), REPS times
// over; NEXT=1 also prefetches the next block into L2 (one line every 8 k
// steps, each call its share). It prints the best of 5 runs in GFLOP/s.
// docs/bench.md: `./microkernel 512 16 528 50 1 16 0` (one block, in L2)
// against `./microkernel 512 16 528 10 16 16 0` (a new block every 16
// tiles) and `... 10 16 16 1`.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MR 14

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

__attribute__((noinline)) static void kernel(const float *a, long lda,
                                             const float *b, long kc, float *c,
                                             const char *next) {
  __m512 acc[MR][2];
  for (int i = 0; i < MR; i++)
    acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (long k = 0; k < kc; k++) {
    __m512 b0 = _mm512_loadu_ps(b + 32 * k),
           b1 = _mm512_loadu_ps(b + 32 * k + 16);
    if (next && (k & 7) == 0)
      _mm_prefetch(next + 8 * k, _MM_HINT_T1);
    _mm_prefetch((const char *)(b + 32 * k + 256), _MM_HINT_T0);
    _mm_prefetch((const char *)(b + 32 * k + 272), _MM_HINT_T0);
    for (int i = 0; i < MR; i++) {
      __m512 x = _mm512_set1_ps(a[i * lda + k]);
      acc[i][0] = _mm512_fmadd_ps(x, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(x, b1, acc[i][1]);
    }
  }
  for (int i = 0; i < MR; i++)
    for (int v = 0; v < 2; v++)
      _mm512_storeu_ps(
          c + 32 * i + 16 * v,
          _mm512_add_ps(_mm512_loadu_ps(c + 32 * i + 16 * v), acc[i][v]));
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s KC PANELS LDA REPS BLOCKS TILES NEXT\n",
            argv[0]);
    return 2;
  }
  long kc = atol(argv[1]), panels = atol(argv[2]), lda = atol(argv[3]);
  long reps = atol(argv[4]), blocks = atol(argv[5]), tiles = atol(argv[6]);
  int next = atoi(argv[7]);
  if (kc <= 0 || panels <= 0 || lda < kc || reps <= 0 || blocks <= 0 ||
      tiles <= 0) {
    fprintf(stderr, "%s: every size must be positive, LDA at least KC\n",
            argv[0]);
    return 2;
  }
  long panelFloats = kc * 32, blockFloats = panels * panelFloats;
  float *a = aligned_alloc(64, (4 * MR * lda + 63) / 64 * 64);
  float *b = aligned_alloc(64, 4 * blockFloats * blocks);
  float *c = aligned_alloc(64, 4 * MR * 32 * panels);
  if (!a || !b || !c) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 1;
  }
  for (long i = 0; i < MR * lda; i++)
    a[i] = 1e-3f * (i % 7);
  for (long i = 0; i < blockFloats * blocks; i++)
    b[i] = 1e-3f * (i % 5);
  memset(c, 0, 4 * MR * 32 * panels);
  // Each call prefetches its share of the next block's lines.
  long share = 4 * blockFloats / (tiles * panels);
  double best = 1e30;
  for (int run = 0; run < 5; run++) {
    double t = now();
    for (long r = 0; r < reps; r++)
      for (long blk = 0; blk < blocks; blk++)
        for (long tile = 0; tile < tiles; tile++)
          for (long p = 0; p < panels; p++) {
            const char *nx = NULL;
            if (next && share <= 8 * kc)
              nx = (const char *)(b + (blk + 1) % blocks * blockFloats) +
                   (tile * panels + p) * share;
            kernel(a, lda, b + blk * blockFloats + p * panelFloats, kc,
                   c + p * MR * 32, nx);
          }
    t = now() - t;
    if (t < best)
      best = t;
  }
  double flops = 2.0 * MR * 32 * kc * panels * tiles * blocks * reps;
  printf("%.1f GFLOP/s\n", flops / best / 1e9);
  return 0;
}
