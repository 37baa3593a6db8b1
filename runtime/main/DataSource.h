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

#include <functional>
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

  /// Data-parallel training: this process is rank `rank` of `ranks`. A
  /// training step's global batch is `ranks` local batches, consecutive in
  /// the shuffled order (which every rank draws alike), and this rank takes
  /// the rank-th; synthetic data is the global batch's rank-th slice, so a
  /// run over N ranks sees the data of one process with N times the batch.
  /// Augmentation and tf_cnn_benchmarks' images and labels are drawn per
  /// rank. `sum` adds numbers across the ranks (evaluation's totals).
  using Sum = std::function<void(double *values, int count)>;
  void shard(int rank, int ranks, Sum sum);
  int rank() const { return me; }
  int ranks() const { return count; }
  int64_t globalBatch() const { return batch * count; }
  void sumAcrossRanks(double *values, int n) const {
    if (sum)
      sum(values, n);
  }

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
  /// This rank's share of the global batch at `order[first...]`.
  void fillShare(Call &call, const ImageSet &set,
                 const std::vector<int64_t> &order, int64_t first,
                 bool augment) {
    fill(call, set, order, first + me * batch, augment);
  }
  /// 0, 1, ..., n-1, shuffled when `shuffle`.
  std::vector<int64_t> order(const ImageSet &set, bool shuffle);

private:
  std::mt19937_64 &ownRng() { return count > 1 ? rankRng : rng; }

  std::mt19937_64 rng;     ///< the same on every rank
  std::mt19937_64 rankRng; ///< this rank's, across ranks
  int me = 0, count = 1;
  Sum sum;
  bool isReal = false;
  int64_t batch = 1, classes = 0;
  ImageSet trainSet, testSet;
  Preprocessing prep;
};

} // namespace nnrt

#endif // NNRT_MAIN_DATASOURCE_H
