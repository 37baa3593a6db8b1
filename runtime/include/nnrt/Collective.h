//===- Collective.h - the collective-communication engine's ABI -*- C++ -*-===//
//
// Part of nnc's runtime. What a data-parallel bench program needs from the
// engine that connects its processes: libnnrt_mpi.so (runtime/mpi) fills
// this table with MPI's calls. The bench program loads that library only
// when it was started by mpirun, so a program that runs alone needs no MPI
// installed. Plain C types: the library and the program may come from
// different compilers.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_COLLECTIVE_H
#define NNRT_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>

/// Changes with any incompatible change of the table.
#define NNRT_COLLECTIVE_ABI 1

/// Element types of allreduceSum.
enum { NNRT_COLLECTIVE_F32 = 0, NNRT_COLLECTIVE_F64 = 1 };

/// Every call returns 0, or non-zero with a message in `error[errorSize]`.
/// The calls block; the caller bounds how long (nnrt's watchdog).
struct NnrtCollective {
  int abi; ///< NNRT_COLLECTIVE_ABI
  /// The engine and its version ("Open MPI v4.1.4").
  const char *(*engine)(void);
  /// Joins the job: this process's rank, the number of ranks, and how many
  /// of them run on this machine.
  int (*init)(int *rank, int *size, int *localSize, char *error,
              size_t errorSize);
  /// Sums `count` elements of every rank into every rank's `data`.
  int (*allreduceSum)(void *data, int64_t count, int type, char *error,
                      size_t errorSize);
  /// Rank `root`'s `bytes` bytes into every rank's `data`.
  int (*broadcast)(void *data, int64_t bytes, int root, char *error,
                   size_t errorSize);
  /// Every rank's `bytes` bytes, in rank order, into every rank's `all`.
  int (*allgather)(const void *mine, void *all, int64_t bytes, char *error,
                   size_t errorSize);
  /// Ends every process of the job with `status`.
  void (*abort)(int status);
  /// Leaves the job (after the last collective call).
  void (*finalize)(void);
};

#ifdef __cplusplus
extern "C" {
#endif
/// libnnrt_mpi.so's table.
const struct NnrtCollective *nnrt_mpi_collective(void);
#ifdef __cplusplus
}
#endif

#endif // NNRT_COLLECTIVE_H
