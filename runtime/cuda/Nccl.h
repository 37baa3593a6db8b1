//===- Nccl.h - summing gradients across GPUs -------------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). NCCL for data-parallel training:
// one communicator over the ranks of a run (the unique id travels from
// rank 0 through the run's own engine, MPI), and an in-place sum on the
// compute stream, which a CUDA graph can capture.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_NCCL_H
#define NNRT_CUDA_NCCL_H

#include "nnrt/Device.h"

#include <cstddef>
#include <string>

namespace nnrt::cuda {

/// The ranks' communicator, or null where the runtime was built without
/// NCCL (then `connect` says so).
class GradientSum {
public:
  /// Joins the ranks of `link` on the current device. False with the
  /// reason.
  bool connect(const RankLink &link, std::string &error);
  /// Enqueues the sum over every rank of `count` floats at `data` (device
  /// memory, in place) on the compute stream.
  void enqueue(float *data, size_t count);

private:
  void *comm = nullptr; // ncclComm_t
};

/// The GPU of this process: its rank on this machine (Open MPI's
/// OMPI_COMM_WORLD_LOCAL_RANK, MPICH's MPI_LOCALRANKID), modulo the GPUs
/// it sees; 0 for a process started alone.
int localDevice(int devices);

} // namespace nnrt::cuda

#endif // NNRT_CUDA_NCCL_H
