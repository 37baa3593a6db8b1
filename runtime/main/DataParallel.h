//===- DataParallel.h - a training step across ranks ------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). Data-parallel training runs
// train_step's two halves (docs/interface.md): every rank computes
// `gradients` on its own share of the global batch into one flat buffer,
// the ranks sum that buffer, and `apply_update` applies the mean gradient
// (its `grad_scale` is 1/ranks); then the ranks add up their losses,
// correct counts and stop requests. Batch normalisation uses each rank's own
// batch statistics, as tf_cnn_benchmarks does.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_DATAPARALLEL_H
#define NNRT_MAIN_DATAPARALLEL_H

#include "Ranks.h"

#include "nnrt/Device.h"
#include "nnrt/Session.h"

#include <string>
#include <vector>

namespace nnrt {

struct Run;

class DataParallelStep {
public:
  /// Binds `gradients` as `run.call` and `apply_update`; on the CPU,
  /// run.call.run() then does the whole step. False with the reason.
  bool bind(Run &run, std::string &error);
  /// On a device, the step runs there (Device::bindAcrossRanks: the
  /// device's engine sums the gradients, NCCL on CUDA).
  bool bindDevice(Run &run, Uploads uploads, std::string &error);

private:
  /// The ranks' mean loss, total correct count and stop requests.
  void sumFigures();

  Ranks *ranks = nullptr;
  Call *gradients = nullptr;
  Call apply;
  Tensor flat;               ///< on the CPU, every gradient, summed in place
  std::vector<Tensor> views; ///< each gradient's part of `flat`
};

/// Refuses a run whose ranks do not run the same model with the same
/// flags, naming the first difference. Every rank reaches the same verdict.
bool checkSameRun(Run &run, std::string &error);

/// Rank 0's parameters (initialised or loaded) to every rank.
bool broadcastParameters(Run &run, std::string &error);

} // namespace nnrt

#endif // NNRT_MAIN_DATAPARALLEL_H
