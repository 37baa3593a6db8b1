//===- Mpi.cpp - MPI as the bench program's collective engine -------------===//
//
// Part of nnc's runtime (libnnrt_mpi.so). The table of nnrt/Collective.h
// over MPI: blocking collectives on MPI_COMM_WORLD, in chunks that fit
// MPI's int counts. Errors return to the caller instead of aborting the
// job, so the program reports them in its own words.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Collective.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>

namespace {
/// The largest count one MPI call takes here: a 1 GiB chunk of floats.
constexpr int64_t kChunk = int64_t(1) << 28;

int report(int code, const char *what, char *error, size_t size) {
  if (code == MPI_SUCCESS)
    return 0;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  std::snprintf(error, size, "%s failed: %.*s", what, length, text);
  return 1;
}

const char *engine() {
  static char name[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(name, &length);
  // The first line ("Open MPI v4.1.4, package: ..."), up to the comma.
  for (int i = 0; i < length; ++i)
    if (name[i] == ',' || name[i] == '\n') {
      name[i] = '\0';
      break;
    }
  return name;
}

int init(int *rank, int *size, int *localSize, char *error, size_t n) {
  int provided = 0;
  if (int code =
          MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided))
    return report(code, "MPI_Init_thread", error, n);
  // Errors come back to the caller, which names the rank and the step.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  MPI_Comm local;
  if (int code = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                     MPI_INFO_NULL, &local))
    return report(code, "MPI_Comm_split_type", error, n);
  MPI_Comm_size(local, localSize);
  MPI_Comm_free(&local);
  return 0;
}

int allreduceSum(void *data, int64_t count, int type, char *error, size_t n) {
  MPI_Datatype mpiType = type == NNRT_COLLECTIVE_F64 ? MPI_DOUBLE : MPI_FLOAT;
  size_t elementSize = type == NNRT_COLLECTIVE_F64 ? 8 : 4;
  auto *bytes = static_cast<char *>(data);
  for (int64_t first = 0; first < count; first += kChunk) {
    int part = static_cast<int>(std::min(kChunk, count - first));
    if (int code = MPI_Allreduce(MPI_IN_PLACE, bytes + first * elementSize,
                                 part, mpiType, MPI_SUM, MPI_COMM_WORLD))
      return report(code, "MPI_Allreduce", error, n);
  }
  return 0;
}

int broadcast(void *data, int64_t bytes, int root, char *error, size_t n) {
  auto *p = static_cast<char *>(data);
  for (int64_t first = 0; first < bytes; first += kChunk) {
    int part = static_cast<int>(std::min(kChunk, bytes - first));
    if (int code = MPI_Bcast(p + first, part, MPI_BYTE, root, MPI_COMM_WORLD))
      return report(code, "MPI_Bcast", error, n);
  }
  return 0;
}

int allgather(const void *mine, void *all, int64_t bytes, char *error,
              size_t n) {
  if (bytes > INT_MAX) {
    std::snprintf(error, n, "MPI_Allgather of %lld bytes: too large",
                  static_cast<long long>(bytes));
    return 1;
  }
  int part = static_cast<int>(bytes);
  return report(
      MPI_Allgather(mine, part, MPI_BYTE, all, part, MPI_BYTE, MPI_COMM_WORLD),
      "MPI_Allgather", error, n);
}

void abortJob(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

void finalize() { MPI_Finalize(); }

const NnrtCollective table = {
    NNRT_COLLECTIVE_ABI, engine,    init,     allreduceSum,
    broadcast,           allgather, abortJob, finalize};
} // namespace

extern "C" const NnrtCollective *nnrt_mpi_collective() { return &table; }
