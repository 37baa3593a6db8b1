//===- TfCnn.cpp - tf_cnn_benchmarks' training run ------------------------===//
//
// Part of nnc's runtime (the bench program). The lines follow
// tf_cnn_benchmarks' benchmark_cnn.py: the speed of a line is the batch over
// the mean time of the steps since warm-up, with the standard error and the
// jitter of the per-step speeds; the total is the timed steps' images over
// the wall time of the whole timed loop.
//
//===----------------------------------------------------------------------===//

#include "TfCnn.h"

#include "Progress.h"
#include "Signals.h"
#include "Train.h"

#include "nnrt/Stats.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace nnrt;

namespace {
/// ImageNet's training images, for the header's epochs.
constexpr double kImageNetImages = 1281167;
/// A model with this many classes or more benchmarks on (synthetic)
/// ImageNet, as tf_cnn_benchmarks' models do.
constexpr int64_t kImageNetClasses = 1000;
/// A speed line at step 1 and every this many steps.
constexpr int64_t kDisplayEvery = 10;

int64_t labelClasses(const Call &call) {
  for (const Argument &a : call.entry().args)
    if (a.role == "labels")
      return a.classes;
  return 0;
}

/// tf_cnn_benchmarks' --optimizer name of the model's optimizer.
std::string optimizerName(const Json &optimizer) {
  const Json *kind = optimizer.get("kind");
  if (!kind || kind->kind != Json::String)
    return "none";
  const Json *momentum = optimizer.get("momentum");
  if (kind->string == "sgd" && momentum && momentum->kind == Json::Number &&
      momentum->number != 0)
    return "momentum";
  return kind->string;
}

/// The layout of the first input, "NHWC" when it has none.
std::string dataFormat(const Call &call) {
  for (const Argument &a : call.entry().args)
    if (a.role == "input" && !a.layout.empty())
      return a.layout;
  return "NHWC";
}

/// print_info's lines.
void printHeader(const Run &run) {
  const ModelInfo &model = run.model;
  int64_t batch = run.data.globalBatch(), steps = run.options.steps;
  bool imageNet = labelClasses(run.call) >= kImageNetClasses;
  std::printf("Model:       %s\n", model.name.c_str());
  std::printf("Dataset:     %s\n",
              imageNet ? "imagenet (synthetic)" : "synthetic");
  std::printf("Mode:        training\n");
  std::printf("Batch size:  %lld global\n", static_cast<long long>(batch));
  std::printf("             %lld per device\n",
              static_cast<long long>(run.data.batchSize()));
  std::printf("Num batches: %lld\n", static_cast<long long>(steps));
  if (imageNet)
    std::printf("Num epochs:  %.2f\n", double(steps * batch) / kImageNetImages);
  const char *kind = run.device ? "gpu" : "cpu";
  if (run.ranks.distributed())
    std::printf("Devices:     %d ranks (%s), ['/%s:0'] each\n",
                run.ranks.size(), run.ranks.engine().c_str(), kind);
  else
    std::printf("Devices:     ['/%s:0']\n", kind);
  std::printf("Data format: %s\n", dataFormat(run.call).c_str());
  std::printf("Optimizer:   %s\n", optimizerName(model.optimizer).c_str());
  std::printf("==========\n");
}

float lossOf(Call &call) {
  Tensor *t = call.arg("output", "loss");
  return t ? t->f32()[0] : NAN;
}

/// One speed line, also kept for the record.
void printLine(int64_t step, double batch, const std::vector<double> &seconds,
               float loss, Json &lines) {
  Throughput t = throughput(batch, seconds);
  std::printf("%lld\timages/sec: %.1f +/- %.1f (jitter = %.1f)\t%.3f\n",
              static_cast<long long>(step), t.mean, t.uncertainty, t.jitter,
              loss);
  std::fflush(stdout);
  Json line;
  line["step"] = step;
  line["images_per_second"] = t.mean;
  line["stderr"] = t.uncertainty;
  line["jitter"] = t.jitter;
  line["loss"] = double(loss);
  lines.array.push_back(std::move(line));
}

/// The run's figures for the JSON record.
void record(Run &run, double elapsed, Json lines, Json losses) {
  double batch = double(run.data.globalBatch());
  Throughput t = throughput(batch, run.seconds);
  double total = elapsed > 0 ? run.seconds.size() * batch / elapsed : 0;
  Json &out = run.training;
  out["images_per_second"] = t.mean;
  out["images_per_second_stderr"] = t.uncertainty;
  out["images_per_second_jitter"] = t.jitter;
  out["total_images_per_second"] = total;
  out["total_seconds"] = elapsed;
  out["loss"] = losses.array.empty() ? 0.0 : losses.array.back().number;
  out["step_losses"] = std::move(losses);
  out["lines"] = std::move(lines);
}
} // namespace

int nnrt::runTfCnn(Run &run) {
  const Options &options = run.options;
  DataSource &data = run.data;
  double batch = double(data.globalBatch());
  printHeader(run);
  // The images are drawn once; the labels every step. A device keeps the
  // images and uploads each step's labels (Uploads::Labels).
  data.fillBenchmarkImages(run.call);
  data.fillBenchmarkLabels(run.call);
  Json lines = Json::makeArray(), losses = Json::makeArray();
  std::printf("Running warm up\n");
  std::fflush(stdout);
  double loopStart = monotonicSeconds();
  StepCounter counter(options.warmup, options.steps);
  LossWatch watch(options, run.call);
  // A stop signal ends the loop after the current step; the record holds
  // the steps timed so far.
  for (int64_t i = 0; i < options.warmup + options.steps && !interrupted();
       ++i) {
    if (i == options.warmup) {
      counter.clear();
      std::printf("Done warm up\nStep\tImg/sec\ttotal_loss\n");
      std::fflush(stdout);
      loopStart = monotonicSeconds();
    }
    if (i > 0)
      data.fillBenchmarkLabels(run.call);
    double t0 = monotonicSeconds();
    run.call.run();
    double took = monotonicSeconds() - t0;
    float loss = lossOf(run.call);
    losses.array.push_back(double(loss));
    int64_t step = i - options.warmup + 1;
    if (!watch.check(loss, i < options.warmup
                               ? "warmup step " + std::to_string(i + 1)
                               : "step " + std::to_string(step))) {
      counter.clear();
      return 1;
    }
    counter.update(i + 1);
    if (i < options.warmup)
      continue;
    run.seconds.push_back(took);
    if (step == 1 || step % kDisplayEvery == 0) {
      counter.clear();
      printLine(step, batch, run.seconds, loss, lines);
    }
  }
  counter.clear();
  double elapsed = monotonicSeconds() - loopStart;
  std::string dashes(64, '-');
  record(run, elapsed, std::move(lines), std::move(losses));
  if (interrupted())
    return 0;
  std::printf("%s\ntotal images/sec: %.2f\n%s\n", dashes.c_str(),
              run.training["total_images_per_second"].number, dashes.c_str());
  return 0;
}
