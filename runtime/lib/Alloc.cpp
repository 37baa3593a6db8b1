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

// glibc's aligned_alloc splits a larger chunk around the aligned block and
// frees the pieces; once a small allocation takes one of them, the freed
// block no longer fits the next request of the same size, and every step of
// a program grew the heap by a fresh block and faulted its pages in (the
// product of 2048: 16 MiB a step; of 4096: 64 MiB, 0.49 s a step instead of
// 0.45 s). A plain malloc of the size plus the alignment asks for the same
// chunk every time, so a freed block is reused; the word before the aligned
// block holds the pointer malloc returned.
extern "C" void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                    uint64_t bytes) {
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  uint64_t size = bytes + alignment + sizeof(void *);
  void *raw = size < bytes ? nullptr : std::malloc(size);
  if (!raw)
    outOfMemory(bytes);
  uintptr_t start = reinterpret_cast<uintptr_t>(raw) + sizeof(void *);
  uintptr_t aligned = (start + alignment - 1) / alignment * alignment;
  reinterpret_cast<void **>(aligned)[-1] = raw;
  return reinterpret_cast<void *>(aligned);
}

// Allocations without an alignment (the buffers a caller passes for a
// called entry point's results) start on a cache line all the same, so
// that whole-vector accesses do not straddle two lines.
extern "C" void *_mlir_memref_to_llvm_alloc(uint64_t bytes) {
  return _mlir_memref_to_llvm_aligned_alloc(64, bytes);
}

extern "C" void _mlir_memref_to_llvm_free(void *p) {
  if (p)
    std::free(static_cast<void **>(p)[-1]);
}
