//===- Nccl.cpp - summing gradients across GPUs ---------------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a).
//
//===----------------------------------------------------------------------===//

#include "Nccl.h"

#include "Runtime.h"

#include <cstdlib>

#ifdef NNRT_HAVE_NCCL
#include <nccl.h>
#endif

using namespace nnrt;
using namespace nnrt::cuda;

int nnrt::cuda::localDevice(int devices) {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID"})
    if (const char *value = std::getenv(name)) {
      char *end = nullptr;
      long rank = std::strtol(value, &end, 10);
      if (*value && *end == '\0' && rank >= 0 && devices > 0)
        return static_cast<int>(rank % devices);
    }
  return 0;
}

#ifdef NNRT_HAVE_NCCL
namespace {
std::string ncclMessage(const char *call, ncclResult_t status) {
  return std::string(call) + " failed: " + ncclGetErrorString(status);
}
} // namespace

bool GradientSum::connect(const RankLink &link, std::string &error) {
  ncclUniqueId id{};
  if (link.rank == 0)
    if (ncclResult_t status = ncclGetUniqueId(&id); status != ncclSuccess) {
      error = ncclMessage("ncclGetUniqueId", status);
      return false;
    }
  if (!link.broadcast(&id, sizeof id, error))
    return false;
  ncclComm_t c = nullptr;
  if (ncclResult_t status = ncclCommInitRank(&c, link.size, id, link.rank);
      status != ncclSuccess) {
    error = ncclMessage("ncclCommInitRank", status);
    return false;
  }
  comm = c;
  return true;
}

void GradientSum::enqueue(float *data, size_t count) {
  Site site{"the gradient all-reduce (NCCL)"};
  ncclResult_t status = ncclAllReduce(data, data, count, ncclFloat32, ncclSum,
                                      static_cast<ncclComm_t>(comm), stream());
  if (status != ncclSuccess)
    fail(site, ncclMessage("ncclAllReduce", status));
}
#else
bool GradientSum::connect(const RankLink &, std::string &error) {
  error = "this CUDA runtime was built without NCCL, which training across "
          "GPUs needs (NCCL's nccl.h and libnccl were not found at "
          "configure time)";
  return false;
}

void GradientSum::enqueue(float *, size_t) {}
#endif
