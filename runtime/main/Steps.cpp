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
#include "Signals.h"
#include "TfCnn.h"
#include "Train.h"

#include <chrono>
#include <cstdio>

using namespace nnrt;

namespace {
/// --warmup untimed and --steps timed calls of `call`, on the training
/// images in order or on synthetic data; a line every 10 steps, and on a
/// terminal a step counter in between. A stop signal ends it after the
/// current step.
void timeSteps(Run &run, Call &call, std::vector<double> &seconds) {
  const Options &options = run.options;
  DataSource &data = run.data;
  std::vector<int64_t> order;
  if (data.real())
    order = data.order(data.train(), /*shuffle=*/false);
  else
    data.fillSynthetic(call);
  StepCounter counter(options.warmup, options.steps);
  for (int64_t i = 0; i < options.warmup + options.steps && !interrupted();
       ++i) {
    if (data.real())
      data.fill(call, data.train(), order, i * data.batchSize(),
                /*augment=*/false);
    auto start = std::chrono::steady_clock::now();
    call.run();
    std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - start;
    counter.update(i + 1);
    if (i < options.warmup)
      continue;
    int64_t step = i - options.warmup;
    seconds.push_back(took.count());
    if (step % 10 == 0) {
      counter.clear();
      std::printf("%s: step %lld, duration = %.3f\n", timestamp().c_str(),
                  static_cast<long long>(step), took.count());
      std::fflush(stdout);
    }
  }
  counter.clear();
}

/// --mode=forward or forward-backward: the layer table and the steps.
int timeMode(Run &run) {
  printLayers(run.model);
  std::fflush(stdout);
  timeSteps(run, run.call, run.seconds);
  return 0;
}

/// --mode=benchmark: TensorFlow's AlexNet benchmark in one run. The layer
/// table, the forward steps and their summary, then (when the model has
/// the entry point) the forward-backward steps and theirs; those go into
/// the record as `forward_backward`.
int benchmark(Run &run) {
  printLayers(run.model);
  std::fflush(stdout);
  timeSteps(run, run.call, run.seconds);
  if (interrupted())
    return 0;
  printSummaryLine(run, "Forward", "forward", run.seconds);
  if (!run.session.info().entryPoint("forward_backward"))
    return 0;
  Call backward;
  std::string error;
  Uploads uploads = run.data.real() ? Uploads::EveryStep : Uploads::Once;
  if (!run.session.bind("forward_backward", findEntryPoint("forward_backward"),
                        backward, error) ||
      (run.device && !run.device->bind(backward, uploads, error)))
    return run.fail(error);
  std::vector<double> seconds;
  timeSteps(run, backward, seconds);
  if (!interrupted())
    printSummaryLine(run, "Forward-backward", "forward_backward", seconds);
  run.training["forward_backward"] = phaseRecord(
      run.model.batchSize, flopsOf(run, "forward_backward"), seconds);
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

/// The steps of --mode.
int modeSteps(Run &run) {
  switch (run.options.mode) {
  case Mode::Train:
    return train(run);
  case Mode::TfCnn:
    return runTfCnn(run);
  case Mode::Eval:
    runEvaluation(run.call, run.data, run.seconds, run.training);
    return 0;
  case Mode::Benchmark:
    return benchmark(run);
  default:
    return timeMode(run);
  }
}

/// The steps a signal cut short: those of the mode, with benchmark's
/// forward-backward steps.
size_t stepsDone(const Run &run) {
  size_t steps = run.seconds.size();
  if (const Json *phase = run.training.get("forward_backward"))
    if (const Json *each = phase->get("seconds_per_step"))
      steps += each->array.size();
  return steps;
}
} // namespace

int nnrt::runSteps(Run &run) {
  int status = modeSteps(run);
  // Training reports its own interruption (it saves the parameters first).
  if (status || !interrupted() || run.options.mode == Mode::Train)
    return status;
  std::fprintf(stderr, "%s: interrupted after %zu timed steps\n", run.program,
               stepsDone(run));
  return 130;
}

int64_t nnrt::flopsOf(const Run &run, const std::string &entry) {
  const EntryPoint *e = run.model.entryPoint(entry);
  return e ? e->flops : 0;
}

void nnrt::printSummaryLine(const Run &run, const char *what,
                            const std::string &entry,
                            const std::vector<double> &seconds) {
  Summary s = summarize(seconds);
  std::printf("%s: %s across %lld steps, %.3f +/- %.3f sec / batch%s\n",
              timestamp().c_str(), what, static_cast<long long>(seconds.size()),
              s.mean, s.stddev,
              throughput(run.model.batchSize * run.ranks.size(),
                         flopsOf(run, entry) * run.ranks.size(), s.mean)
                  .c_str());
  std::fflush(stdout);
}

void nnrt::printSummary(const Run &run) {
  Mode mode = run.options.mode;
  if (mode == Mode::TfCnn || mode == Mode::Eval || mode == Mode::Benchmark)
    return; // their own lines end with their totals
  printSummaryLine(run, describe(mode).summary, describe(mode).entry,
                   run.seconds);
}
