//===- Mgpu.cpp - MLIR's GPU runtime ABI: streams, events, memory ---------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). The `mgpu*` functions that
// MLIR's gpu-to-llvm lowering calls, on the runtime's one compute stream
// and its caching pool (docs/cuda-runtime.md). Modules and launches are in
// Modules.cpp.
//
//===----------------------------------------------------------------------===//

#include "Pool.h"
#include "Runtime.h"

#include "nnrt/cuda/Abi.h"

#include <cuda.h> // driver types only: libcuda is reached through cudart

using namespace nnrt::cuda;

namespace {
/// The compiled code passes the stream mgpuStreamCreate gave it.
cudaStream_t streamOf(void *s) {
  return s ? static_cast<cudaStream_t>(s) : stream();
}

/// cuMemsetD16Async / cuMemsetD32Async from the driver cudart loaded (the
/// runtime API has byte-wise memsets only).
template <typename Fn> Fn driverFunction(const char *name, const Site &site) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  check(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault,
                                         &found),
        "cudaGetDriverEntryPointByVersion", site);
  if (found != cudaDriverEntryPointSuccess || !fn)
    fail(site, std::string("the CUDA driver has no ") + name);
  return reinterpret_cast<Fn>(fn);
}

void checkDriver(CUresult status, const char *call, const Site &site) {
  if (status == CUDA_SUCCESS)
    return;
  using GetName = CUresult (*)(CUresult, const char **);
  const char *name = nullptr;
  if (driverFunction<GetName>("cuGetErrorName", site)(status, &name) !=
          CUDA_SUCCESS ||
      !name)
    name = "unknown CUresult";
  fail(site, call, name);
}

using MemsetD16 = CUresult (*)(CUdeviceptr, unsigned short, size_t, CUstream);
using MemsetD32 = CUresult (*)(CUdeviceptr, unsigned int, size_t, CUstream);
} // namespace

extern "C" void *mgpuStreamCreate(void) { return stream(); }

extern "C" void mgpuStreamDestroy(void *) {}

extern "C" void mgpuStreamSynchronize(void *s) {
  // Synchronising a stream that is being captured would end the capture;
  // in the graph, order on the one stream already does what it asks.
  if (capturing())
    return;
  check(cudaStreamSynchronize(streamOf(s)), "cudaStreamSynchronize",
        Site{"mgpuStreamSynchronize"});
}

extern "C" void mgpuStreamWaitEvent(void *s, void *event) {
  check(cudaStreamWaitEvent(streamOf(s), static_cast<cudaEvent_t>(event), 0),
        "cudaStreamWaitEvent", Site{"mgpuStreamWaitEvent"});
}

extern "C" void *mgpuEventCreate(void) {
  stream();
  cudaEvent_t event = nullptr;
  check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming),
        "cudaEventCreateWithFlags", Site{"mgpuEventCreate"});
  return event;
}

extern "C" void mgpuEventDestroy(void *event) {
  check(cudaEventDestroy(static_cast<cudaEvent_t>(event)), "cudaEventDestroy",
        Site{"mgpuEventDestroy"});
}

extern "C" void mgpuEventSynchronize(void *event) {
  if (capturing())
    return;
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(event)),
        "cudaEventSynchronize", Site{"mgpuEventSynchronize"});
}

extern "C" void mgpuEventRecord(void *event, void *s) {
  check(cudaEventRecord(static_cast<cudaEvent_t>(event), streamOf(s)),
        "cudaEventRecord", Site{"mgpuEventRecord"});
}

extern "C" void *mgpuMemAlloc(uint64_t bytes, void *, bool isHostShared) {
  Site site{"mgpuMemAlloc"};
  if (isHostShared)
    fail(site, "host-shared (managed) memory is not supported; the "
               "runtime allocates device memory only");
  return poolAllocate(bytes, site);
}

extern "C" void mgpuMemFree(void *ptr, void *) {
  poolRelease(ptr, Site{"mgpuMemFree"});
}

extern "C" void mgpuMemcpy(void *dst, void *src, size_t bytes, void *s) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, streamOf(s)),
        "cudaMemcpyAsync", Site{"mgpuMemcpy"});
}

extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *s) {
  Site site{"mgpuMemset32"};
  static MemsetD32 fn = driverFunction<MemsetD32>("cuMemsetD32Async", site);
  checkDriver(fn(reinterpret_cast<CUdeviceptr>(dst), value, count, streamOf(s)),
              "cuMemsetD32Async", site);
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *s) {
  Site site{"mgpuMemset16"};
  static MemsetD16 fn = driverFunction<MemsetD16>("cuMemsetD16Async", site);
  checkDriver(fn(reinterpret_cast<CUdeviceptr>(dst), value, count, streamOf(s)),
              "cuMemsetD16Async", site);
}
