//===- Train.h - the bench program's training loop --------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). --mode=train: TensorFlow's
// CIFAR-10 lines for --steps, Keras' epoch lines for --epochs, and the test
// accuracy when the data has test images.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_BENCH_TRAIN_H
#define NNRT_BENCH_TRAIN_H

#include "DataSource.h"

#include "nnrt/Json.h"

#include <vector>

namespace nnrt {

/// Runs training; fills `seconds` with the timed steps and `record` with
/// the per-epoch figures and the final test loss and accuracy. Returns the
/// exit status.
int runTraining(const Options &options, Call &train, Call *eval,
                DataSource &data, std::vector<double> &seconds, Json &record);

/// Loss and accuracy of `eval` over the whole batches of `set`.
struct Evaluation {
  double loss = 0, accuracy = 0;
  int64_t images = 0;
};
Evaluation evaluate(Call &eval, DataSource &data, const ImageSet &set);

} // namespace nnrt

#endif // NNRT_BENCH_TRAIN_H
