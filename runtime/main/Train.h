//===- Train.h - the bench program's training loop --------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). --mode=train: TensorFlow's
// CIFAR-10 lines for --steps, Keras' epoch lines for --epochs, and the test
// accuracy when the data has test images.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_TRAIN_H
#define NNRT_MAIN_TRAIN_H

#include "DataSource.h"
#include "Signals.h"

#include "nnrt/Json.h"

#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace nnrt {

/// Runs training; fills `seconds` with the timed steps and `record` with
/// the per-epoch figures and the final test loss and accuracy. Returns the
/// exit status.
/// `checkpoint` runs after every epoch. A stop signal (Signals.h) ends
/// training after the current step. Under --on-nan=stop a step with a NaN or
/// infinite loss ends training with status 1.
int runTraining(const Options &options, Call &train, Call *eval,
                DataSource &data, std::vector<double> &seconds, Json &record,
                const std::function<bool()> &checkpoint);

/// --on-nan=stop: follows the loss of every training step and stops
/// training at the first one that is not finite (a model without a loss is
/// not watched).
class LossWatch {
public:
  LossWatch(const Options &options, Call &train);
  /// Whether training goes on after a step with `loss`; else reports where
  /// (`where`: "step 12", "epoch 2, step 3") and the last finite loss.
  bool check(float loss, const std::string &where);

private:
  const Options &options;
  bool watched;
  float lastGood = NAN;
};

/// Loss and accuracy of `eval` over every image of `set`, the last partial
/// batch included; a stop signal (Signals.h) ends it after the current
/// batch, and `images` says how many were evaluated.
struct Evaluation {
  double loss = 0, accuracy = 0;
  int64_t images = 0;
  int64_t batches = 0;         ///< of the whole set
  std::vector<double> seconds; ///< every batch's
};
/// `done(batch, batches)` after each batch, if given.
using BatchDone = std::function<void(int64_t, int64_t)>;
Evaluation evaluate(Call &eval, DataSource &data, const ImageSet &set,
                    const BatchDone &done = nullptr);

/// --mode=eval: the loss and accuracy of the loaded parameters on the test
/// set, as Keras' evaluate prints them; `record` gets them as test_loss,
/// test_accuracy and test_images.
void runEvaluation(Call &eval, DataSource &data, std::vector<double> &seconds,
                   Json &record);

} // namespace nnrt

#endif // NNRT_MAIN_TRAIN_H
