//===- Run.h - one run of the bench program ---------------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). What a run holds from its
// flags to its record (the linked model, the device it runs on, the bound
// entry point, the data, the measured steps) and how it is set up.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_RUN_H
#define NNRT_MAIN_RUN_H

#include "DataParallel.h"
#include "DataSource.h"
#include "Options.h"
#include "Ranks.h"

#include "nnrt/Device.h"
#include "nnrt/Json.h"
#include "nnrt/Session.h"

#include <string>
#include <vector>

namespace nnrt {

struct Run {
  const char *program = "bench"; ///< argv[0], for messages
  Options options;
  Session session;
  ModelInfo model;
  Device *device = nullptr; ///< the CUDA device; null on the CPU
  Call call;                ///< the entry point of --mode
  DataSource data;
  Ranks ranks;               ///< the processes of a data-parallel run
  DataParallelStep parallel; ///< train_step across them
  /// Whether every rank fails alike (a refused flag, a mismatched rank), so
  /// the ranks leave the job together instead of being ended.
  bool everyRankFails = false;
  int threads = 0;                    ///< OpenMP threads, for the record
  std::vector<double> seconds;        ///< every timed step
  Json training = Json::makeObject(); ///< training's figures, for the record
  int64_t memoryEstimate = 0;         ///< bytes, the run's peak (Memory.h)

  /// Writes "<program>: error: <message>" to stderr (with the rank in a
  /// data-parallel run); returns `code`.
  int fail(const std::string &message, int code = 1) const;
  /// The same, for a failure every rank reaches at once.
  int failEverywhere(const std::string &message, int code);
  /// On a device, copies the parameters it updated back to the session.
  void parametersToHost();
};

/// Opens the linked model (and, compiled for CUDA, the device), binds the
/// entry point of --mode, sets the threads, initialises or loads the
/// parameters and sets up the data. Returns 0, or the exit status after
/// reporting why not (2 for a flag the model cannot honour).
int setUp(Run &run);

} // namespace nnrt

#endif // NNRT_MAIN_RUN_H
