//===- Report.h - what the bench program prints and records -----*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). The seeds' familiar lines
// (TensorFlow's AlexNet benchmark) and the JSON record of a run.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_REPORT_H
#define NNRT_MAIN_REPORT_H

#include "Options.h"

#include "nnrt/Json.h"
#include "nnrt/Model.h"

#include <string>
#include <vector>

namespace nnrt {

/// Local time as TensorFlow's benchmarks print it: 2026-11-22 14:03:07.123456
std::string timestamp();

/// Whether the layer table lists `layer`: as TensorFlow's benchmarks print
/// their activations, it leaves out normalisation (lrn, batch_norm) and
/// dropout layers.
bool inLayerTable(const Layer &layer);

/// The layer-shape table: one `name   [N, H, W, C]` line per layer listed.
void printLayers(const ModelInfo &model);

/// Mean and standard deviation (population, as the benchmark computes it).
struct Summary {
  double mean = 0, stddev = 0;
};
Summary summarize(const std::vector<double> &seconds);

/// ", 512.3 examples/sec, 123.4 GFLOP/s" for steps of `mean` seconds (the
/// GFLOP/s only when `flops` is known; nothing when `mean` is 0).
std::string throughput(int64_t batchSize, int64_t flops, double mean);

/// The CPU's model name (/proc/cpuinfo), or "unknown".
std::string cpuName();

/// Everything about a run: model, flags, machine, build, every duration.
/// Across `ranks` processes, a step's examples and FLOPs are all ranks'.
Json runRecord(const ModelInfo &model, const Options &options, int threads,
               const std::vector<double> &seconds, int ranks = 1);

/// The figures of one series of timed steps of an entry point of `flops`
/// floating-point operations (0: not known): every duration, their mean and
/// standard deviation, examples per second, and the FLOPs per step and
/// GFLOP/s when known.
Json phaseRecord(int64_t batchSize, int64_t flops,
                 const std::vector<double> &seconds);

} // namespace nnrt

#endif // NNRT_MAIN_REPORT_H
