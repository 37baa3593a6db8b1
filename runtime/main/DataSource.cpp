//===- DataSource.cpp - what the bench program feeds the model ------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "DataSource.h"

#include <algorithm>
#include <cstring>
#include <numeric>

using namespace nnrt;

static int64_t labelClasses(Call &call) {
  for (const Argument &a : call.entry().args)
    if (a.role == "labels")
      return a.classes;
  return 0;
}

bool DataSource::setUp(const Options &options, Call &call, std::string &error) {
  rng.seed(options.seed + 1);
  classes = labelClasses(call);
  Tensor *images = call.first("input");
  if (images && !images->shape().empty())
    batch = images->shape()[0];
  if (options.data == "synthetic")
    return true;
  isReal = true;
  if (!images) {
    error = "the model has no input to feed images to";
    return false;
  }
  // --mode=eval reads only the test files, unless it holds out the end of
  // the training files as training did.
  bool testOnly = options.mode == Mode::Eval && options.holdout < 0;
  ImageSet &first = testOnly ? testSet : trainSet;
  bool ok = options.data == "cifar10"
                ? readCifar10(options.dataDir, !testOnly, first, error)
                : readMnist(options.dataDir, !testOnly, first, error);
  if (!ok || !choosePreprocessing(first, images->shape(), prep, error))
    return false;
  if (call.first("labels") && classes < first.classes) {
    error = "the model's labels have " + std::to_string(classes) +
            " classes; the data has " + std::to_string(first.classes);
    return false;
  }
  if (testOnly)
    return true;
  if (options.holdout >= 0) {
    if (options.holdout >= trainSet.count()) {
      error = "--holdout=" + std::to_string(options.holdout) +
              " leaves no training images (the data has " +
              std::to_string(trainSet.count()) + ")";
      return false;
    }
    splitImages(trainSet, trainSet.count() - options.holdout, testSet);
  } else if (options.data == "cifar10") {
    // No test files: no test set; damaged ones: an error, as for training.
    bool absent;
    if (!readCifar10(options.dataDir, /*train=*/false, testSet, error,
                     &absent)) {
      if (!absent)
        return false;
      testSet = ImageSet();
      error.clear();
    }
  }
  if (trainSet.count() < globalBatch()) {
    error = "the data has " + std::to_string(trainSet.count()) +
            " training images, fewer than one batch of " +
            std::to_string(globalBatch()) +
            (count > 1 ? " (" + std::to_string(batch) + " on each of " +
                             std::to_string(count) + " ranks)"
                       : "");
    return false;
  }
  return true;
}

void DataSource::shard(int rank, int ranks, Sum sumAcross) {
  me = rank;
  count = ranks;
  sum = std::move(sumAcross);
  rankRng.seed(rng() + static_cast<uint64_t>(rank));
}

namespace {
/// The `rank`-th slice of `global` along its first dimension, of `out`'s
/// size.
void copySlice(const Tensor &global, int rank, Tensor &out) {
  size_t bytes = out.bytes();
  std::memcpy(out.data(),
              static_cast<const char *>(global.data()) + rank * bytes, bytes);
}
} // namespace

void DataSource::fillSynthetic(Call &call) {
  Tensor *inputs[] = {call.first("input"), call.first("labels")};
  for (int i = 0; i < 2; ++i) {
    Tensor *t = inputs[i];
    if (!t)
      continue;
    int64_t labelClasses = i == 0 ? 0 : classes;
    if (count == 1 || t->shape().empty()) {
      nnrt::fillSynthetic(*t, labelClasses, rng);
      continue;
    }
    // The global batch, drawn as one process with it would, then sliced.
    Shape shape = t->shape();
    shape[0] *= count;
    Tensor global(t->type(), shape, "the global batch's synthetic data");
    nnrt::fillSynthetic(global, labelClasses, rng);
    copySlice(global, me, *t);
  }
}

void DataSource::fillBenchmarkImages(Call &call) {
  if (Tensor *t = call.first("input"))
    nnrt::fillBenchmarkImages(*t, ownRng());
}

void DataSource::fillBenchmarkLabels(Call &call) {
  constexpr int64_t kBenchmarkClasses = 1000;
  if (Tensor *t = call.first("labels"))
    fillLabels(*t, std::min(classes, kBenchmarkClasses), ownRng());
}

void DataSource::fill(Call &call, const ImageSet &set,
                      const std::vector<int64_t> &order, int64_t first,
                      bool augment) {
  fillBatch(set, order, first, prep, augment, ownRng(), *call.first("input"),
            call.first("labels"));
}

std::vector<int64_t> DataSource::order(const ImageSet &set, bool shuffle) {
  std::vector<int64_t> out(set.count());
  std::iota(out.begin(), out.end(), 0);
  if (shuffle)
    std::shuffle(out.begin(), out.end(), rng);
  return out;
}
