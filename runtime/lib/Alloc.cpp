//===- Alloc.cpp - the compiled model's allocations -----------------------===//
//
// Part of nnc's runtime (libnnrt). On the CPU target nnc lowers memref
// allocations to these functions (finalize-memref-to-llvm with generic
// functions), so that a model running out of memory inside compiled code
// ends with a message and exit code 1, not a segmentation fault on a null
// pointer.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Alloc.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>

namespace {
[[noreturn]] void outOfMemory(uint64_t bytes) {
  std::fprintf(stderr,
               "%s: error: out of memory allocating %.1f MiB for a buffer of "
               "the compiled model\n",
               program_invocation_short_name, bytes / (1024.0 * 1024.0));
  std::fflush(stderr);
  std::_Exit(1);
}
} // namespace

void nnrt::keepHeapMapped() {
  mallopt(M_MMAP_MAX, 0);
  // glibc reads the threshold as a size_t: -1 is "never". INT_MAX would
  // still return a free top of the heap over 2 GiB to the system after
  // every step.
  mallopt(M_TRIM_THRESHOLD, -1);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                    uint64_t bytes) {
  // aligned_alloc wants a size that is a multiple of the alignment.
  uint64_t size = (bytes + alignment - 1) / alignment * alignment;
  void *p = std::aligned_alloc(alignment, size ? size : alignment);
  if (!p)
    outOfMemory(bytes);
  return p;
}

// Allocations without an alignment (the buffers a caller passes for a
// called entry point's results) start on a cache line all the same, so
// that whole-vector accesses do not straddle two lines.
extern "C" void *_mlir_memref_to_llvm_alloc(uint64_t bytes) {
  return _mlir_memref_to_llvm_aligned_alloc(64, bytes);
}

extern "C" void _mlir_memref_to_llvm_free(void *p) { std::free(p); }
