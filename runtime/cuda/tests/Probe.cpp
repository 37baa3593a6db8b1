//===- Probe.cpp - is a CUDA device usable? -------------------------------===//
//
// Part of nnc's runtime (the CUDA runtime's tests). Exits 0 when cudart
// sees at least one device, 1 otherwise (the lit feature cuda-gpu).
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime_api.h>

#include <cstdio>

int main() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count < 1) {
    std::printf("no CUDA device (%s)\n", status == cudaSuccess
                                             ? "none found"
                                             : cudaGetErrorString(status));
    return 1;
  }
  std::printf("%d CUDA device(s)\n", count);
  return 0;
}
