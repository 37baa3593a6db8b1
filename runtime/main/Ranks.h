//===- Ranks.h - the processes of a data-parallel run -----------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). A program started by mpirun
// joins the job through libnnrt_mpi.so (nnrt/Collective.h), loaded then
// and only then. Every collective call is bounded in time: a watchdog ends
// the process, naming the call and the rank, when the other ranks do not
// answer, so a stuck or vanished rank stops the job instead of hanging it.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_RANKS_H
#define NNRT_MAIN_RANKS_H

#include "nnrt/Collective.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace nnrt {

class Ranks {
public:
  Ranks() = default;
  Ranks(const Ranks &) = delete;
  Ranks &operator=(const Ranks &) = delete;
  ~Ranks();

  /// How many ranks mpirun started, from its environment (Open MPI's
  /// OMPI_COMM_WORLD_SIZE, MPICH's PMI_SIZE): 0 when it did not start this
  /// process. Even one rank then trains data-parallel, as does a process
  /// started alone with NNRT_DATA_PARALLEL=1 (one rank, no MPI).
  static int launched();
  /// Loads the engine and joins the job. False with the reason.
  bool join(const char *program, double timeoutSeconds, std::string &error);

  bool distributed() const { return api != nullptr; }
  int rank() const { return me; }
  int size() const { return count; }
  /// The ranks on this machine (their cores are shared).
  int localSize() const { return local; }
  std::string engine() const;

  /// Collective calls over every rank; `what` names the call in messages.
  bool allreduceSum(float *data, int64_t count, const char *what,
                    std::string &error);
  bool allreduceSum(double *data, int64_t count, const char *what,
                    std::string &error);
  bool broadcast(void *data, int64_t bytes, const char *what,
                 std::string &error);
  bool allgather(const void *mine, void *all, int64_t bytes, const char *what,
                 std::string &error);

  /// The end of a run with `status`: every rank leaves the job together
  /// when they agree (`agreed`), else this rank's failure ends the others.
  int finish(int status, bool agreed);

private:
  /// Runs `body(message, size)`, one call of the engine, with the
  /// watchdog armed; its non-zero status becomes `error`.
  bool call(const char *what, std::string &error,
            const std::function<int(char *, size_t)> &body);
  /// Arms the watchdog for the call `what` (null: none is under way).
  void arm(const char *what);
  bool sum(void *data, int64_t count, int type, const char *what,
           std::string &error);
  void watch();
  bool load(std::string &error);

  const NnrtCollective *api = nullptr;
  const char *program = "bench";
  int me = 0, count = 1, local = 1;
  double timeout = 0;

  // The watchdog: armed for the duration of each collective call.
  std::thread watchdog;
  std::mutex mutex;
  std::condition_variable changed;
  const char *pending = nullptr;
  uint64_t generation = 0;
  bool stopping = false;
};

} // namespace nnrt

#endif // NNRT_MAIN_RANKS_H
