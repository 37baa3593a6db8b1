//===- Ranks.cpp - the processes of a data-parallel run -------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Ranks.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

using namespace nnrt;

namespace {
/// The engine's library: $NNRT_MPI_LIBRARY, else found through the
/// program's run path (nnc links bench programs with its runtime's
/// directory there).
const char *engineLibrary() {
  const char *path = std::getenv("NNRT_MPI_LIBRARY");
  return path && *path ? path : "libnnrt_mpi.so";
}

int positiveEnv(const char *name) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return 0;
  char *end = nullptr;
  long n = std::strtol(value, &end, 10);
  return *end == '\0' && n > 0 && n < (1 << 24) ? static_cast<int>(n) : 0;
}
} // namespace

namespace {
/// One rank and no MPI (NNRT_DATA_PARALLEL=1): every collective is the
/// identity, so a single process runs the data-parallel step, its device's
/// engine included, where no mpirun is installed.
const NnrtCollective *singleRank() {
  static const NnrtCollective table = {
      NNRT_COLLECTIVE_ABI,
      [] { return "none (one rank, NNRT_DATA_PARALLEL=1)"; },
      [](int *rank, int *size, int *local, char *, size_t) {
        *rank = 0;
        *size = *local = 1;
        return 0;
      },
      [](void *, int64_t, int, char *, size_t) { return 0; },
      [](void *, int64_t, int, char *, size_t) { return 0; },
      [](const void *mine, void *all, int64_t bytes, char *, size_t) {
        std::memcpy(all, mine, static_cast<size_t>(bytes));
        return 0;
      },
      [](int status) { _exit(status); },
      [] {}};
  return &table;
}

/// The ranks mpirun (Open MPI's, or MPICH's) says it started, or 0.
int mpirunRanks() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (int n = positiveEnv(name))
      return n;
  return 0;
}

bool startedByMpirun() { return mpirunRanks() > 0; }
} // namespace

int Ranks::launched() {
  if (int n = mpirunRanks())
    return n;
  return positiveEnv("NNRT_DATA_PARALLEL") == 1 ? 1 : 0;
}

Ranks::~Ranks() {
  if (watchdog.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    watchdog.join();
  }
}

bool Ranks::load(std::string &error) {
  void *library = dlopen(engineLibrary(), RTLD_NOW | RTLD_GLOBAL);
  if (!library) {
    error = std::string("this program was started by mpirun (") +
            std::to_string(launched()) +
            " ranks), but MPI cannot be loaded: " + dlerror() +
            " (nnc builds libnnrt_mpi.so when Open MPI is installed: "
            "libopenmpi-dev; NNRT_MPI_LIBRARY names another path)";
    return false;
  }
  using Table = const NnrtCollective *(*)();
  auto table = reinterpret_cast<Table>(dlsym(library, "nnrt_mpi_collective"));
  api = table ? table() : nullptr;
  if (!api || api->abi != NNRT_COLLECTIVE_ABI) {
    error = std::string(engineLibrary()) +
            " is not the MPI library of this runtime (interface " +
            std::to_string(api ? api->abi : 0) + ", expected " +
            std::to_string(NNRT_COLLECTIVE_ABI) + ")";
    api = nullptr;
    return false;
  }
  return true;
}

bool Ranks::join(const char *name, double timeoutSeconds, std::string &error) {
  program = name;
  timeout = timeoutSeconds;
  if (startedByMpirun()) {
    if (!load(error))
      return false;
  } else {
    api = singleRank();
  }
  // Joining waits for every rank too: bounded like the collectives.
  watchdog = std::thread([this] { watch(); });
  bool joined =
      call("joining the job (MPI_Init)", error, [&](char *m, size_t n) {
        return api->init(&me, &count, &local, m, n);
      });
  if (local < 1)
    local = 1;
  return joined;
}

std::string Ranks::engine() const { return api ? api->engine() : "none"; }

void Ranks::watch() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    if (!pending) {
      changed.wait(lock);
      continue;
    }
    uint64_t armed = generation;
    const char *what = pending;
    auto deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration<double>(timeout);
    if (changed.wait_until(lock, deadline,
                           [&] { return stopping || generation != armed; }))
      continue;
    std::fprintf(stderr,
                 "%s: error: rank %d: no answer from the other ranks for %g "
                 "s in %s: a rank stopped or died; ending the job "
                 "(--collective-timeout=SECONDS waits longer)\n",
                 program, me, timeout, what);
    std::fflush(stderr);
    std::fflush(stdout);
    _exit(1); // mpirun ends the other ranks
  }
}

void Ranks::arm(const char *what) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    pending = what;
    ++generation;
  }
  changed.notify_all();
}

bool Ranks::call(const char *what, std::string &error,
                 const std::function<int(char *, size_t)> &body) {
  if (!api)
    return true; // alone: every collective is the identity
  arm(what);
  char message[512] = "";
  int status = body(message, sizeof message);
  arm(nullptr);
  if (status)
    error = std::string(what) + ": " + message;
  return status == 0;
}

bool Ranks::sum(void *data, int64_t n, int type, const char *what,
                std::string &error) {
  return call(what, error, [&](char *m, size_t s) {
    return api->allreduceSum(data, n, type, m, s);
  });
}

bool Ranks::allreduceSum(float *data, int64_t n, const char *what,
                         std::string &error) {
  return sum(data, n, NNRT_COLLECTIVE_F32, what, error);
}

bool Ranks::allreduceSum(double *data, int64_t n, const char *what,
                         std::string &error) {
  return sum(data, n, NNRT_COLLECTIVE_F64, what, error);
}

bool Ranks::broadcast(void *data, int64_t bytes, const char *what,
                      std::string &error) {
  return call(what, error, [&](char *m, size_t s) {
    return api->broadcast(data, bytes, /*root=*/0, m, s);
  });
}

bool Ranks::allgather(const void *mine, void *all, int64_t bytes,
                      const char *what, std::string &error) {
  return call(what, error, [&](char *m, size_t s) {
    return api->allgather(mine, all, bytes, m, s);
  });
}

int Ranks::finish(int status, bool agreed) {
  if (!api)
    return status;
  if (status != 0 && !agreed) {
    std::fflush(stdout);
    std::fflush(stderr);
    api->abort(status); // ends every rank; does not return
    _exit(status);
  }
  arm("MPI_Finalize");
  api->finalize();
  return status;
}
