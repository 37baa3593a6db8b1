//===- Parallel.h - the compiled kernels' parallel loops --------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). A kernel's parallel loop nest calls
// nnc_parallel_for with its body (nnc-cpu-parallel-to-runtime).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_PARALLEL_H
#define NNRT_PARALLEL_H

#include <cstdint>

extern "C" {
/// Runs `body(context, first, last)` over chunks [first, last) that cover
/// the iterations [0, count) once each, on the OpenMP threads: each thread
/// takes the next chunk when it is free, half of what is left over the
/// threads (at least one iteration), as OpenMP's guided schedule does.
/// Returns when every chunk has run.
void nnc_parallel_for(void (*body)(void *context, int64_t first, int64_t last),
                      void *context, int64_t count);
}

#endif // NNRT_PARALLEL_H
