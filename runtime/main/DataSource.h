//===- DataSource.h - what the bench program feeds the model ----*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). Synthetic data, or a real data
// set split into training and test images, written into an entry point's
// input and label buffers.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_DATASOURCE_H
#define NNRT_MAIN_DATASOURCE_H

#include "Options.h"

#include "nnrt/Data.h"
#include "nnrt/Session.h"

#include <random>

namespace nnrt {

class DataSource {
public:
  /// Reads the data set (if any) for entry points shaped like `call`.
  bool setUp(const Options &options, Call &call, std::string &error);

  bool real() const { return isReal; }
  const ImageSet &train() const { return trainSet; }
  const ImageSet &test() const { return testSet; }
  int64_t batchSize() const { return batch; }

  /// Synthetic data, once per buffer set: call it for each bound call.
  void fillSynthetic(Call &call);
  /// tf_cnn_benchmarks' synthetic images, drawn once, into `call`'s input.
  void fillBenchmarkImages(Call &call);
  /// tf_cnn_benchmarks' synthetic labels, drawn every step: uniform over
  /// the first 1000 classes (all of them when there are fewer).
  void fillBenchmarkLabels(Call &call);
  /// Images `order[first...]` of `set` into `call`'s input and labels.
  void fill(Call &call, const ImageSet &set, const std::vector<int64_t> &order,
            int64_t first, bool augment);
  /// 0, 1, ..., n-1, shuffled when `shuffle`.
  std::vector<int64_t> order(const ImageSet &set, bool shuffle);

private:
  std::mt19937_64 rng;
  bool isReal = false;
  int64_t batch = 1, classes = 0;
  ImageSet trainSet, testSet;
  Preprocessing prep;
};

} // namespace nnrt

#endif // NNRT_MAIN_DATASOURCE_H
