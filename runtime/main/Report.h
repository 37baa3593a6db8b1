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

/// The CPU's model name (/proc/cpuinfo), or "unknown".
std::string cpuName();

/// Everything about a run: model, flags, machine, build, every duration.
Json runRecord(const ModelInfo &model, const Options &options, int threads,
               const std::vector<double> &seconds);

/// The figures of one series of timed steps: every duration, their mean and
/// standard deviation, and examples per second.
Json phaseRecord(int64_t batchSize, const std::vector<double> &seconds);

} // namespace nnrt

#endif // NNRT_MAIN_REPORT_H
