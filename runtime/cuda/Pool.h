//===- Pool.h - the caching device allocator --------------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). Every device allocation of a run
// (the compiled code's buffers through mgpuMemAlloc, library workspaces and
// scratch) comes from here. Blocks are rounded to size classes and cached
// on free; memory never goes back to CUDA during a run, so the addresses a
// captured CUDA graph uses stay valid, and a step whose warm-up filled the
// pool is captured without a single cudaMalloc. One stream orders every use
// of a block, so a freed block is reused at once.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_POOL_H
#define NNRT_CUDA_POOL_H

#include "Runtime.h"

#include <cstddef>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace nnrt::cuda {

/// Where fresh blocks come from (cudaMalloc; a fake one in tests).
class PoolBackend {
public:
  virtual ~PoolBackend() = default;
  /// A fresh block of `bytes`, or nullptr with the reason.
  virtual void *allocate(size_t bytes, std::string &error) = 0;
  /// Whether work is being captured into a graph: no fresh block then.
  virtual bool capturing() = 0;
};

class Pool {
public:
  explicit Pool(PoolBackend &backend) : backend(backend) {}

  /// A block of at least `bytes` (aligned as the backend's); nullptr with
  /// the reason when the backend has none or a graph is being captured and
  /// no cached block fits.
  void *allocate(size_t bytes, std::string &error);
  /// Caches `block` for reuse; false when the pool did not hand it out.
  bool release(void *block);

  /// The size class of a request: multiples of 512 bytes up to 1 MiB, then
  /// eight classes per power of two (at most 12.5% more than asked).
  static size_t sizeClass(size_t bytes);

  struct Stats {
    size_t fresh = 0, freshBytes = 0;   // blocks the backend allocated
    size_t reused = 0;                  // requests served from the cache
    size_t inUse = 0, inUseBytes = 0;   // handed out now
    size_t cached = 0, cachedBytes = 0; // free in the cache now
  };
  const Stats &stats() const { return counts; }

private:
  PoolBackend &backend;
  std::unordered_map<void *, size_t> live;    // block -> its size
  std::map<size_t, std::vector<void *>> idle; // size -> cached blocks
  Stats counts;
};

/// The pool of the compute stream's device (cudaMalloc behind it).
Pool &devicePool();
/// devicePool().allocate, failing the call at `site` when it cannot.
void *poolAllocate(size_t bytes, const Site &site);
void poolRelease(void *block, const Site &site);

} // namespace nnrt::cuda

#endif // NNRT_CUDA_POOL_H
