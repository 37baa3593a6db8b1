//===- Device.cpp - the compute stream, handles and errors ----------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). Everything is created on first
// use and never destroyed: the process exit releases it, so no static
// destructor ever calls into a CUDA library that may be unloading.
//
//===----------------------------------------------------------------------===//

#include "DeviceSession.h"
#include "Runtime.h"

#include "nnrt/Device.h"

#include <cstdio>
#include <cstdlib>

using namespace nnrt::cuda;

std::string nnrt::cuda::errorLine(const Site &site, const std::string &what,
                                  const std::string &detail) {
  std::string line = "nnrt: error: " + what;
  if (site.layer && *site.layer)
    line += std::string(" for layer '") + site.layer + "'";
  return line + ": " + detail;
}

namespace {
bool streamCreated = false;

[[noreturn]] void report(const Site &site, const std::string &what,
                         const std::string &detail) {
  std::string line = errorLine(site, what, detail);
  if (capturing())
    line += " (while capturing a CUDA graph; NNRT_CUDA_GRAPHS=0 runs "
            "without graphs)";
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", line.c_str());
  std::exit(1);
}

std::string callIn(const Site &site, const std::string &call) {
  return site.function ? call + " in " + site.function : call;
}
} // namespace

void nnrt::cuda::fail(const Site &site, const std::string &detail) {
  report(site, site.function ? site.function : "nnrt", detail);
}

void nnrt::cuda::fail(const Site &site, const std::string &call,
                      const std::string &detail) {
  report(site, callIn(site, call), detail);
}

void nnrt::cuda::check(cudaError_t status, const char *call, const Site &site) {
  if (status != cudaSuccess)
    fail(site, call, cudaGetErrorString(status));
}

void nnrt::cuda::check(cudnnStatus_t status, const char *call,
                       const Site &site) {
  if (status == CUDNN_STATUS_SUCCESS)
    return;
  std::string detail = cudnnGetErrorString(status);
  char last[512] = {0};
  cudnnGetLastErrorString(last, sizeof last);
  if (last[0])
    detail += std::string(" (") + last + ")";
  fail(site, call, detail);
}

void nnrt::cuda::check(cublasStatus_t status, const char *call,
                       const Site &site) {
  if (status != CUBLAS_STATUS_SUCCESS)
    fail(site, call,
         std::string(cublasLtGetStatusName(status)) + ": " +
             cublasLtGetStatusString(status));
}

namespace {
struct Stream {
  cudaStream_t handle = nullptr;
  int ordinal = 0;
  Stream() {
    Site site{"the CUDA runtime"};
    check(cudaGetDevice(&ordinal), "cudaGetDevice", site);
    check(cudaStreamCreateWithFlags(&handle, cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags", site);
    streamCreated = true;
  }
};

Stream &theStream() {
  static Stream *s = new Stream;
  return *s;
}
} // namespace

cudaStream_t nnrt::cuda::stream() { return theStream().handle; }

int nnrt::cuda::device() { return theStream().ordinal; }

cudnnHandle_t nnrt::cuda::cudnn() {
  static cudnnHandle_t handle = [] {
    Site site{"the CUDA runtime"};
    cudnnHandle_t h = nullptr;
    check(cudnnCreate(&h), "cudnnCreate", site);
    check(cudnnSetStream(h, stream()), "cudnnSetStream", site);
    return h;
  }();
  return handle;
}

cublasLtHandle_t nnrt::cuda::cublasLt() {
  static cublasLtHandle_t handle = [] {
    cublasLtHandle_t h = nullptr;
    check(cublasLtCreate(&h), "cublasLtCreate", Site{"the CUDA runtime"});
    return h;
  }();
  return handle;
}

bool nnrt::cuda::capturing() {
  if (!streamCreated)
    return false;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(theStream().handle, &status) != cudaSuccess)
    return false;
  return status == cudaStreamCaptureStatusActive;
}

int64_t nnrt::cuda::alignmentOf(const void *p) {
  auto address = reinterpret_cast<uintptr_t>(p);
  int64_t alignment = 1;
  while (alignment < 256 && address % (2 * alignment) == 0)
    alignment *= 2;
  return alignment;
}

// Defined here, in the member every compiled model pulls in (through the
// stream), so the bench program's weak reference always finds it.
extern "C" nnrt::Device *nnrt_cuda_device() {
  static nnrt::Device *d = makeCudaDevice().release();
  return d;
}
