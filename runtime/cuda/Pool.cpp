//===- Pool.cpp - the caching device allocator ----------------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a).
//
//===----------------------------------------------------------------------===//

#include "Pool.h"

#include <cstdio>

using namespace nnrt::cuda;

size_t Pool::sizeClass(size_t bytes) {
  constexpr size_t kSmall = size_t(1) << 20, kGrain = 512;
  if (bytes <= kSmall)
    return bytes <= kGrain ? kGrain : (bytes + kGrain - 1) / kGrain * kGrain;
  size_t power = kSmall;
  while (power <= bytes / 2)
    power *= 2;
  size_t step = power / 8;
  return (bytes + step - 1) / step * step;
}

static std::string megabytes(size_t bytes) {
  return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB";
}

void *Pool::allocate(size_t bytes, std::string &error) {
  size_t size = sizeClass(bytes);
  auto it = idle.find(size);
  bool capture = backend.capturing();
  // While a graph is captured no fresh block may be allocated: a larger
  // cached block serves instead of failing.
  if ((it == idle.end() || it->second.empty()) && capture) {
    it = idle.lower_bound(size);
    while (it != idle.end() && it->second.empty())
      ++it;
  }
  void *block = nullptr;
  if (it != idle.end() && !it->second.empty()) {
    size = it->first;
    block = it->second.back();
    it->second.pop_back();
    --counts.cached;
    counts.cachedBytes -= size;
    ++counts.reused;
  } else if (capture) {
    error = "no cached device block of " + std::to_string(bytes) +
            " bytes while a CUDA graph is being captured: the step "
            "allocates more than its first, uncaptured run did";
    return nullptr;
  } else {
    std::string why;
    block = backend.allocate(size, why);
    if (!block) {
      error = "cannot allocate " + std::to_string(size) +
              " bytes of device memory (" + why + "; the pool holds " +
              megabytes(counts.inUseBytes) + " in use and " +
              megabytes(counts.cachedBytes) + " cached)";
      return nullptr;
    }
    ++counts.fresh;
    counts.freshBytes += size;
  }
  live[block] = size;
  ++counts.inUse;
  counts.inUseBytes += size;
  return block;
}

bool Pool::release(void *block) {
  auto it = live.find(block);
  if (it == live.end())
    return false;
  idle[it->second].push_back(block);
  ++counts.cached;
  counts.cachedBytes += it->second;
  --counts.inUse;
  counts.inUseBytes -= it->second;
  live.erase(it);
  return true;
}

namespace {
class CudaBackend final : public PoolBackend {
public:
  void *allocate(size_t bytes, std::string &error) override {
    void *p = nullptr;
    cudaError_t status = cudaMalloc(&p, bytes);
    if (status == cudaSuccess)
      return p;
    cudaGetLastError(); // an allocation failure is not sticky; clear it
    error = std::string("cudaMalloc: ") + cudaGetErrorString(status);
    return nullptr;
  }
  bool capturing() override { return nnrt::cuda::capturing(); }
};
} // namespace

Pool &nnrt::cuda::devicePool() {
  static CudaBackend *backend = new CudaBackend;
  static Pool *pool = new Pool(*backend);
  return *pool;
}

void *nnrt::cuda::poolAllocate(size_t bytes, const Site &site) {
  stream(); // the device is initialised before its memory is used
  std::string error;
  void *p = devicePool().allocate(bytes, error);
  if (!p)
    fail(site, error);
  return p;
}

void nnrt::cuda::poolRelease(void *block, const Site &site) {
  if (!block || devicePool().release(block))
    return;
  char address[32];
  std::snprintf(address, sizeof address, "%p", block);
  fail(site, std::string("device pointer ") + address +
                 " was not allocated by the runtime's pool");
}
