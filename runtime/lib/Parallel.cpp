//===- Parallel.cpp - the compiled kernels' parallel loops ----------------===//
//
// Part of nnc's runtime (libnnrt). Every parallel loop nest of a compiled
// kernel is a call of nnc_parallel_for with the nest as a function of a
// range of its iterations (nnc-cpu-parallel-to-runtime): one dispatcher
// here, where each kernel had its own OpenMP outlining and dispatch loop.
// Chunks are handed out as OpenMP's guided schedule does, to whichever
// thread is free: on a core shared with another process, a fixed share
// per thread makes the step wait for the slower core.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Parallel.h"

#include <algorithm>
#include <atomic>
#include <omp.h>

extern "C" void nnc_parallel_for(void (*body)(void *, int64_t, int64_t),
                                 void *context, int64_t count) {
  if (count <= 0)
    return;
  if (count == 1 || omp_get_max_threads() == 1 || omp_in_parallel()) {
    body(context, 0, count);
    return;
  }
  std::atomic<int64_t> next{0};
#pragma omp parallel
  {
    const int64_t threads = omp_get_num_threads();
    int64_t first = next.load(std::memory_order_relaxed);
    while (first < count) {
      int64_t chunk = std::max<int64_t>(1, (count - first) / (2 * threads));
      if (next.compare_exchange_weak(first, first + chunk,
                                     std::memory_order_relaxed)) {
        body(context, first, first + chunk);
        first = next.load(std::memory_order_relaxed);
      }
    }
  }
}
