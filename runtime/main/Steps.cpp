//===- Steps.cpp - the timed steps of each mode ---------------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "Entries.h"
#include "Outputs.h"
#include "Progress.h"
#include "Report.h"
#include "TfCnn.h"
#include "Train.h"

#include <chrono>
#include <cstdio>

using namespace nnrt;

namespace {
/// --warmup untimed and --steps timed calls of the entry point, on the
/// training images in order or on synthetic data; a line every 10 steps.
int timeSteps(Run &run) {
  const Options &options = run.options;
  DataSource &data = run.data;
  printLayers(run.model);
  std::fflush(stdout);
  std::vector<int64_t> order;
  if (data.real())
    order = data.order(data.train(), /*shuffle=*/false);
  else
    data.fillSynthetic(run.call);
  StepCounter counter(options.warmup, options.steps);
  for (int64_t i = 0; i < options.warmup + options.steps; ++i) {
    if (data.real())
      data.fill(run.call, data.train(), order, i * data.batchSize(),
                /*augment=*/false);
    auto start = std::chrono::steady_clock::now();
    run.call.run();
    std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    counter.update(i + 1);
    if (i < options.warmup)
      continue;
    int64_t step = i - options.warmup;
    run.seconds.push_back(took.count());
    if (step % 10 == 0) {
      counter.clear();
      std::printf("%s: step %lld, duration = %.3f\n", timestamp().c_str(),
                  static_cast<long long>(step), took.count());
      std::fflush(stdout);
    }
  }
  counter.clear();
  return 0;
}

/// --mode=train: the training loop, with the eval entry point (when the
/// model has one) for the test images.
int train(Run &run) {
  Call eval;
  std::string error;
  bool hasEval = run.session.info().entryPoint("eval") &&
                 run.session.bind("eval", findEntryPoint("eval"), eval, error);
  if (hasEval && run.device &&
      !run.device->bind(eval, Uploads::EveryStep, error))
    return run.fail(error);
  if (int status = runTraining(run.options, run.call, hasEval ? &eval : nullptr,
                               run.data, run.seconds, run.training,
                               [&] { return saveParameters(run); }))
    return status;
  if (!interrupted())
    return 0;
  std::printf("\n");
  if (!saveParameters(run))
    return 1;
  std::string saved = run.options.save.empty()
                          ? ""
                          : "; parameters saved to " + run.options.save;
  std::fprintf(stderr, "%s: interrupted after %zu timed steps%s\n", run.program,
               run.seconds.size(), saved.c_str());
  return 130;
}
} // namespace

int nnrt::runSteps(Run &run) {
  switch (run.options.mode) {
  case Mode::Train:
    return train(run);
  case Mode::TfCnn:
    return runTfCnn(run);
  case Mode::Eval:
    runEvaluation(run.call, run.data, run.seconds, run.training);
    return 0;
  default:
    return timeSteps(run);
  }
}

void nnrt::printSummary(const Run &run) {
  if (run.options.mode == Mode::TfCnn || run.options.mode == Mode::Eval)
    return; // their own lines end with their totals
  Summary s = summarize(run.seconds);
  std::printf("%s: %s across %lld steps, %.3f +/- %.3f sec / batch\n",
              timestamp().c_str(), describe(run.options.mode).summary,
              static_cast<long long>(run.seconds.size()), s.mean, s.stddev);
}
