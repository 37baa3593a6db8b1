//===- Run.cpp - setting up one run of the bench program ------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Run.h"

#include "Entries.h"
#include "Memory.h"

#include <algorithm>
#include <cstdio>
#include <sched.h>
#include <stdexcept>
#include <thread>

using namespace nnrt;

// Weak: a CUDA build's bench need not link OpenMP, a CPU build's not CUDA.
extern "C" __attribute__((weak)) void omp_set_num_threads(int);
extern "C" __attribute__((weak)) nnrt::Device *nnrt_cuda_device();

int Run::fail(const std::string &message, int code) const {
  if (ranks.distributed())
    std::fprintf(stderr, "%s: error: rank %d: %s\n", program, ranks.rank(),
                 message.c_str());
  else
    std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return code;
}

int Run::failEverywhere(const std::string &message, int code) {
  everyRankFails = true;
  if (ranks.rank() == 0)
    std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return code;
}

void Run::parametersToHost() {
  if (device)
    device->downloadParameters();
}

namespace {
/// A model compiled for CUDA runs on the device, opened before anything
/// else touches it.
int openDevice(Run &run) {
  if (run.model.target() != "cuda")
    return 0;
  run.device = nnrt_cuda_device ? nnrt_cuda_device() : nullptr;
  if (!run.device)
    return run.fail("model '" + run.model.name +
                    "' was compiled for CUDA, but this program was linked "
                    "without nnrt's CUDA runtime (libnnrt_cuda.a)");
  std::string error;
  return run.device->open(error) ? 0 : run.fail(error);
}

/// Whether an entry point of `model` takes labels.
bool hasLabels(const ModelInfo &model) {
  for (const EntryPoint &entry : model.entryPoints)
    for (const Argument &arg : entry.args)
      if (arg.role == "labels")
        return true;
  return false;
}

/// A run whose estimated peak memory cannot fit is refused (unless
/// --no-memory-check) before anything big is allocated. The ranks of a
/// data-parallel run on this machine share its memory: each counts its
/// share, and one that refuses ends the job.
int checkMemory(Run &run, const MemoryEstimate &estimate) {
  if (!run.options.memoryCheck)
    return 0;
  // The session holds the parameters already (not yet written).
  std::string shortage = memoryShortage(
      estimate, availableMemory(estimate.parameters + estimate.state,
                                run.ranks.localSize()));
  return shortage.empty() ? 0 : run.fail(shortage);
}

/// Under mpirun: the same run on every rank, each training on its share of
/// the global batch (DataParallel.h).
int trainAcrossRanks(Run &run) {
  Mode mode = run.options.mode;
  int ranks = run.ranks.size();
  if (mode != Mode::Train && mode != Mode::TfCnn)
    return run.failEverywhere(
        std::string("--mode=") + describe(mode).name +
            " runs in one process; under mpirun (" + std::to_string(ranks) +
            " ranks) the program trains: --mode=train or --mode=tf-cnn",
        2);
  std::string error;
  if (!checkSameRun(run, error))
    return run.failEverywhere(error, 1);
  if (!run.parallel.bind(run, error))
    return run.failEverywhere(error, 2);
  run.data.shard(run.ranks.rank(), ranks, [&run](double *values, int n) {
    std::string error;
    if (!run.ranks.allreduceSum(values, n, "the evaluation's sums", error))
      throw std::runtime_error(error);
  });
  // Only rank 0 writes files.
  if (run.ranks.rank() > 0) {
    run.options.save.clear();
    run.options.json.clear();
    run.options.dump.clear();
  }
  Json &record = run.training["distributed"];
  record = Json::makeObject();
  record["ranks"] = ranks;
  record["engine"] = run.ranks.engine();
  record["gradients"] = "averaged";
  record["batch_norm"] = "per rank";
  return 0;
}

/// The linked model's description, its device, and the entry point that
/// --mode runs (by default a model made for tf_cnn_benchmarks runs as it,
/// one with no labels as TensorFlow's AlexNet benchmark).
int openModel(Run &run) {
  std::string error;
  if (!run.session.open(modelDescription(), error))
    return run.fail("the linked model's description: " + error);
  run.model = run.session.info();
  Options &options = run.options;
  if (!options.modeGiven && !options.epochs)
    options.mode = run.model.benchmark == "tf_cnn_benchmarks" ? Mode::TfCnn
                   : hasLabels(run.model)                     ? Mode::Forward
                                                              : Mode::Benchmark;
  // A speed benchmark that keeps nothing runs on through a NaN loss, as
  // tf_cnn_benchmarks does (AlexNet diverges on its synthetic images);
  // told to stop, or saving, it stops.
  if (!options.onNanGiven && options.mode == Mode::TfCnn &&
      options.save.empty())
    options.stopOnNan = false;
  MemoryEstimate estimate = estimateMemory(run.model, options);
  run.memoryEstimate = estimate.total(); // for the record
  if (int status = openDevice(run))
    return status;
  if (run.ranks.distributed())
    return checkMemory(run, estimate) ? 1 : trainAcrossRanks(run);
  const ModeInfo &mode = describe(run.options.mode);
  PackedFn fn = findEntryPoint(mode.entry);
  if (!fn || !run.model.entryPoint(mode.entry))
    return run.fail(std::string("--mode=") + mode.name + " needs the '" +
                        mode.entry + "' entry point, which model '" +
                        run.model.name + "' was not compiled with",
                    2);
  if (int status = checkMemory(run, estimate))
    return status;
  // The entry point is there, but the runtime cannot pass its arguments.
  if (!run.session.bind(mode.entry, fn, run.call, error))
    return run.fail("model '" + run.model.name + "': " + error);
  if (Tensor *input = run.call.first("input");
      !run.model.batchSize && input && !input->shape().empty())
    run.model.batchSize = input->shape()[0];
  return 0;
}

/// The cores this process may run on, shared with the other ranks on this
/// machine.
int availableCores(const Ranks &ranks) {
  cpu_set_t set;
  int cores = sched_getaffinity(0, sizeof set, &set) == 0
                  ? CPU_COUNT(&set)
                  : static_cast<int>(std::thread::hardware_concurrency());
  int share =
      static_cast<int>(std::thread::hardware_concurrency()) / ranks.localSize();
  return std::max(1, std::min(cores, std::max(share, 1)));
}

/// OpenMP's threads on the CPU (--threads, else every core this process
/// has to itself).
void setThreads(Run &run) {
  int threads = run.options.threads;
  run.threads = threads ? threads : availableCores(run.ranks);
  if (run.device && threads)
    std::fprintf(stderr, "%s: note: --threads is ignored on the GPU\n",
                 run.program);
  if (!run.device && omp_set_num_threads)
    omp_set_num_threads(run.threads > 0 ? run.threads : 1);
}

/// Initialised from --seed, or loaded from --load.
int setUpParameters(Run &run) {
  const Options &options = run.options;
  if (options.load.empty()) {
    run.session.initParameters(options.seed);
    return 0;
  }
  std::string error;
  std::vector<std::string> ignored;
  if (!run.session.loadParameters(options.load, error, ignored))
    return run.fail(error);
  for (const std::string &name : ignored)
    std::fprintf(stderr,
                 "%s: warning: '%s' holds '%s', which is not a parameter of "
                 "model '%s'; ignored\n",
                 run.program, options.load.c_str(), name.c_str(),
                 run.model.name.c_str());
  return 0;
}

/// The data (--data), and on a device the parameters and the entry
/// point's buffers there; the host copies of the parameters are refreshed
/// before they are written out.
int setUpData(Run &run) {
  if (run.options.mode == Mode::TfCnn && run.options.data != "synthetic")
    return run.fail("--mode=tf-cnn trains on synthetic data; drop --data or "
                    "use --mode=train",
                    2);
  int64_t holdout = run.options.holdout, batch = run.model.batchSize;
  if (holdout >= 0 && run.options.data == "synthetic")
    return run.fail("--holdout holds out images of a real data set "
                    "(--data=cifar10:DIR or mnist:DIR)",
                    2);
  if (holdout > 0 && holdout < batch)
    return run.fail("--holdout=" + std::to_string(holdout) +
                        " is less than one batch (" + std::to_string(batch) +
                        " images); hold out at least a batch, or 0 for no "
                        "test set",
                    2);
  std::string error;
  if (!run.data.setUp(run.options, run.call, error))
    return run.fail(error);
  if (run.options.mode == Mode::Eval && !run.data.real())
    return run.fail("--mode=eval needs a real data set (--data=cifar10:DIR "
                    "or mnist:DIR)",
                    2);
  if (run.options.epochs && !run.data.real())
    return run.fail("--epochs needs a real data set (--data=cifar10:DIR or "
                    "mnist:DIR); use --steps on synthetic data",
                    2);
  // Synthetic inputs stay on the device; tf_cnn_benchmarks draws new
  // labels every step.
  Uploads uploads = run.data.real()                   ? Uploads::EveryStep
                    : run.options.mode == Mode::TfCnn ? Uploads::Labels
                                                      : Uploads::Once;
  if (!run.device)
    return 0;
  if (!run.device->attach(run.session, error) ||
      !(run.ranks.distributed() ? run.parallel.bindDevice(run, uploads, error)
                                : run.device->bind(run.call, uploads, error)))
    return run.fail(error);
  return 0;
}
} // namespace

int nnrt::setUp(Run &run) {
  if (int status = openModel(run))
    return status;
  setThreads(run);
  // Across ranks, rank 0's parameters are everyone's.
  if (run.ranks.rank() == 0)
    if (int status = setUpParameters(run))
      return status;
  std::string error;
  if (run.ranks.distributed() && !broadcastParameters(run, error))
    return run.fail(error);
  return setUpData(run);
}
