//===- Runtime.h - the CUDA runtime's shared pieces -------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). The compute stream and library
// handles every call shares, and the error reporting every call uses: a
// failed CUDA, cuDNN or cuBLAS call prints
//   nnrt: error: <call> for layer '<layer>': <status>
// and exits with status 1.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_RUNTIME_H
#define NNRT_CUDA_RUNTIME_H

#include <cublasLt.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstdint>
#include <string>

namespace nnrt::cuda {

/// Where a failure happened: the runtime function (an ABI symbol without
/// its `_mlir_ciface_` prefix) and the model layer, when the call has one.
struct Site {
  const char *function;
  const char *layer = nullptr;
};

/// "nnrt: error: <what> for layer '<layer>': <detail>" (no layer part when
/// the site has none). `what` is the failed call ("cudnnBackendExecute in
/// nnrt_cuda_conv2d") or the function itself.
std::string errorLine(const Site &site, const std::string &what,
                      const std::string &detail);

/// Prints the error line (noting a graph capture in progress) and exits 1.
[[noreturn]] void fail(const Site &site, const std::string &detail);
[[noreturn]] void fail(const Site &site, const std::string &call,
                       const std::string &detail);

void check(cudaError_t status, const char *call, const Site &site);
void check(cudnnStatus_t status, const char *call, const Site &site);
void check(cublasStatus_t status, const char *call, const Site &site);

/// The runtime's one compute stream (non-blocking), created on first use.
cudaStream_t stream();
/// The device the stream belongs to.
int device();
/// The cuDNN handle bound to the compute stream, created on first use.
cudnnHandle_t cudnn();
/// The cuBLASLt handle (its calls take the compute stream).
cublasLtHandle_t cublasLt();
/// Whether the compute stream is being captured into a CUDA graph.
bool capturing();

/// The largest power of two (at most 256) dividing the address: what the
/// libraries' plans may assume about a pointer.
int64_t alignmentOf(const void *p);

} // namespace nnrt::cuda

#endif // NNRT_CUDA_RUNTIME_H
