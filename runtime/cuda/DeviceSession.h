//===- DeviceSession.h - a compiled model's state on the GPU ----*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). The CUDA implementation of
// nnrt::Device (nnrt/Device.h): parameters in device memory for the whole
// run, a device buffer for every entry-point argument, uploads from and
// downloads to pinned staging, and each entry point run plainly once, then
// captured into a CUDA graph and replayed.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_DEVICESESSION_H
#define NNRT_CUDA_DEVICESESSION_H

#include "nnrt/Device.h"

#include <memory>

namespace nnrt::cuda {

std::unique_ptr<nnrt::Device> makeCudaDevice();

/// "13.0" for CUDA's 13000; "9.19.0" for cuDNN's and cuBLAS's 91900.
std::string cudaVersion(int version);
std::string libraryVersion(size_t version);

} // namespace nnrt::cuda

#endif // NNRT_CUDA_DEVICESESSION_H
