//===- Train.cpp - the bench program's training loop ----------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Train.h"

#include "Progress.h"
#include "Report.h"
#include "Signals.h"

#include "nnrt/Stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace nnrt;

namespace {
float lossOf(Call &call) {
  Tensor *t = call.arg("output", "loss");
  return t ? t->f32()[0] : NAN;
}

std::string stepName(int64_t step) { return "step " + std::to_string(step); }

int64_t correctOf(Call &call) {
  Tensor *t = call.arg("output", "correct");
  return t ? t->i32()[0] : 0;
}

/// "loss: 0.1234 - accuracy: 0.5678".
std::string figures(double loss, double accuracy) {
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "loss: %.4f - accuracy: %.4f", loss,
                accuracy);
  return buffer;
}

/// Keras' progress bar, redrawn in place on a terminal while an epoch runs.
void progress(ProgressLine &line, int64_t step, int64_t steps, double elapsed,
              const std::string &rest) {
  double eta = elapsed / step * (steps - step);
  line.draw(fitProgressLine(stepCount(step, steps), step, steps,
                            "ETA: " + formatEta(eta) + " - " + rest,
                            line.columns()));
}

/// "8s 79ms/step" (or "0s 85us/step").
std::string timing(double took, int64_t steps) {
  double perStep = took / steps;
  char buffer[64];
  if (perStep < 1e-3)
    std::snprintf(buffer, sizeof buffer, "%.0fs %.0fus/step", took,
                  1e6 * perStep);
  else
    std::snprintf(buffer, sizeof buffer, "%.0fs %.0fms/step", took,
                  1e3 * perStep);
  return buffer;
}

/// The epoch's last line: Keras' with the full bar on a terminal (narrower
/// when the line would not fit otherwise), without it elsewhere.
std::string epochLine(const ProgressLine &line, int64_t steps, double took,
                      const std::string &rest) {
  std::string count = stepCount(steps, steps);
  std::string tail = " - " + timing(took, steps) + " - " + rest;
  if (!line.active())
    return count + tail;
  int room = line.columns() - 1;
  int inside = room - static_cast<int>(count.size() + tail.size()) - 3;
  if (inside < 10)
    inside = 30; // wrapped anyway: the full bar on the first line
  return count + " " + progressBar(steps, steps, std::min(inside, 30)) + tail;
}

int trainEpochs(const Options &options, Call &train, Call *eval,
                DataSource &data, std::vector<double> &seconds, Json &record,
                const std::function<bool()> &checkpoint) {
  Json &epochs = record["epochs"];
  epochs = Json::makeArray();
  int64_t batch = data.globalBatch(); // every rank's share, together
  int64_t steps = data.train().count() / batch;
  record["steps_per_epoch"] = steps;
  LossWatch watch(options, train);
  for (int64_t epoch = 1; epoch <= options.epochs; ++epoch) {
    std::printf("Epoch %lld/%lld\n", static_cast<long long>(epoch),
                static_cast<long long>(options.epochs));
    std::fflush(stdout);
    ProgressLine line;
    std::vector<int64_t> order = data.order(data.train(), /*shuffle=*/true);
    double lossSum = 0, start = monotonicSeconds();
    int64_t correct = 0;
    for (int64_t s = 0; s < steps; ++s) {
      if (interrupted())
        return 0;
      data.fillShare(train, data.train(), order, s * batch, /*augment=*/true);
      double t0 = monotonicSeconds();
      train.run();
      seconds.push_back(monotonicSeconds() - t0);
      if (!watch.check(lossOf(train), "epoch " + std::to_string(epoch) + ", " +
                                          stepName(s + 1))) {
        line.clear();
        return 1;
      }
      lossSum += lossOf(train);
      correct += correctOf(train);
      if (line.due() || s + 1 == steps)
        progress(
            line, s + 1, steps, monotonicSeconds() - start,
            figures(lossSum / (s + 1), double(correct) / ((s + 1) * batch)));
    }
    double took = monotonicSeconds() - start;
    std::string rest =
        figures(lossSum / steps, double(correct) / (steps * batch));
    Json row;
    row["loss"] = lossSum / steps;
    row["accuracy"] = double(correct) / (steps * batch);
    row["seconds"] = took;
    if (eval && data.test().count() > 0) {
      Evaluation e = evaluate(*eval, data, data.test());
      char val[96];
      std::snprintf(val, sizeof val, " - val_loss: %.4f - val_accuracy: %.4f",
                    e.loss, e.accuracy);
      rest += val;
      row["val_loss"] = e.loss;
      row["val_accuracy"] = e.accuracy;
      record["test_loss"] = e.loss;
      record["test_accuracy"] = e.accuracy;
      record["test_images"] = e.images;
    }
    epochs.array.push_back(std::move(row));
    line.finish(epochLine(line, steps, took, rest));
    if (!checkpoint())
      return 1;
  }
  return 0;
}

int trainSteps(const Options &options, Call &train, DataSource &data,
               std::vector<double> &seconds, Json &record) {
  Json &losses = record["step_losses"];
  losses = Json::makeArray();
  int64_t batch = data.globalBatch();
  std::vector<int64_t> order;
  if (data.real())
    order = data.order(data.train(), /*shuffle=*/true);
  else
    data.fillSynthetic(train);
  StepCounter counter(options.warmup, options.steps);
  LossWatch watch(options, train);
  for (int64_t i = 0; i < options.warmup + options.steps && !interrupted();
       ++i) {
    if (data.real())
      data.fillShare(train, data.train(), order, i * batch, /*augment=*/true);
    double t0 = monotonicSeconds();
    train.run();
    double took = monotonicSeconds() - t0;
    losses.array.push_back(double(lossOf(train)));
    if (!watch.check(lossOf(train), i < options.warmup
                                        ? "warmup " + stepName(i)
                                        : stepName(i - options.warmup))) {
      counter.clear();
      return 1;
    }
    counter.update(i + 1);
    if (i < options.warmup)
      continue;
    int64_t step = i - options.warmup;
    seconds.push_back(took);
    if (step % 10 == 0) {
      counter.clear();
      std::printf("%s: step %lld, loss = %.2f (%.1f examples/sec; %.3f "
                  "sec/batch)\n",
                  timestamp().c_str(), static_cast<long long>(step),
                  lossOf(train), batch / took, took);
      std::fflush(stdout);
    }
  }
  counter.clear();
  return 0;
}
} // namespace

namespace {
/// The largest divisor of `batch` that is at most `count`.
int64_t largestDivisor(int64_t batch, int64_t count) {
  for (int64_t d = std::min(batch, count); d > 1; --d)
    if (batch % d == 0)
      return d;
  return 1;
}
} // namespace

// The model's batch is compiled in, so the images past the last whole
// batch run in batches of copies: `d` of them (d dividing the batch), each
// repeated batch/d times. Evaluation is per image (dropout off, batch
// norm on its moving statistics), so such a batch's mean loss is the mean
// over the `d` images and its correct count batch/d times theirs. Greedy
// divisors cover the rest in a few batches (one per set bit for a power
// of two).
Evaluation nnrt::evaluate(Call &eval, DataSource &data, const ImageSet &set,
                          const BatchDone &done) {
  Evaluation e;
  int64_t batch = data.batchSize(), count = set.count();
  int64_t batches = count / batch;
  for (int64_t left = count % batch; left > 0;
       left -= largestDivisor(batch, left))
    ++batches;
  std::vector<int64_t> order = data.order(set, /*shuffle=*/false);
  double lossSum = 0; // over images
  int64_t correct = 0, first = 0, index = 0;
  // Across ranks, batch k is rank k mod ranks's; the sums are added up.
  auto mine = [&] { return index++ % data.ranks() == data.rank(); };
  for (; first + batch <= count && !interrupted(); first += batch) {
    if (!mine())
      continue;
    data.fill(eval, set, order, first, /*augment=*/false);
    double t0 = monotonicSeconds();
    eval.run();
    e.seconds.push_back(monotonicSeconds() - t0);
    lossSum += double(lossOf(eval)) * batch;
    correct += correctOf(eval);
    if (done)
      done(static_cast<int64_t>(e.seconds.size()), batches);
  }
  for (; first < count && !interrupted();
       first += largestDivisor(batch, count - first)) {
    int64_t d = largestDivisor(batch, count - first);
    if (!mine())
      continue;
    std::vector<int64_t> copies(batch);
    for (int64_t b = 0; b < batch; ++b)
      copies[b] = order[first + b % d];
    data.fill(eval, set, copies, 0, /*augment=*/false);
    double t0 = monotonicSeconds();
    eval.run();
    e.seconds.push_back(monotonicSeconds() - t0);
    lossSum += double(lossOf(eval)) * d;
    correct += correctOf(eval) / (batch / d);
    if (done)
      done(static_cast<int64_t>(e.seconds.size()), batches);
  }
  double sums[] = {lossSum, double(correct)};
  data.sumAcrossRanks(sums, 2);
  lossSum = sums[0];
  correct = static_cast<int64_t>(sums[1]);
  e.batches = batches;
  e.images = std::min(first, count); // fewer when a signal stopped it
  if (e.images) {
    e.loss = lossSum / e.images;
    e.accuracy = double(correct) / e.images;
  }
  return e;
}

void nnrt::runEvaluation(Call &eval, DataSource &data,
                         std::vector<double> &seconds, Json &record) {
  double start = monotonicSeconds();
  ProgressLine line;
  Evaluation e =
      evaluate(eval, data, data.test(), [&](int64_t step, int64_t steps) {
        if (line.due() && step < steps)
          line.draw(
              fitProgressLine(stepCount(step, steps), step, steps,
                              "ETA: " + formatEta((monotonicSeconds() - start) /
                                                  step * (steps - step)),
                              line.columns()));
      });
  double took = monotonicSeconds() - start;
  int64_t batches = static_cast<int64_t>(e.seconds.size());
  seconds = e.seconds;
  if (interrupted()) // the batches evaluated of all
    line.finish(stepCount(batches, e.batches) + " - " +
                figures(e.loss, e.accuracy));
  else
    line.finish(epochLine(line, std::max<int64_t>(batches, 1), took,
                          figures(e.loss, e.accuracy)));
  record["test_loss"] = e.loss;
  record["test_accuracy"] = e.accuracy;
  record["test_images"] = e.images;
}

LossWatch::LossWatch(const Options &options, Call &train)
    : options(options),
      watched(options.stopOnNan && train.arg("output", "loss") != nullptr) {}

bool LossWatch::check(float loss, const std::string &where) {
  if (!watched || std::isfinite(loss)) {
    lastGood = loss;
    return true;
  }
  char good[64] = "no step had a finite loss";
  if (std::isfinite(lastGood))
    std::snprintf(good, sizeof good, "the last finite loss was %.4f", lastGood);
  std::fprintf(stderr,
               "%s: error: the loss is %s at %s (%s); training stopped "
               "without saving (--on-nan=continue trains on)\n",
               options.program, std::isnan(loss) ? "nan" : "infinite",
               where.c_str(), good);
  return false;
}

int nnrt::runTraining(const Options &options, Call &train, Call *eval,
                      DataSource &data, std::vector<double> &seconds,
                      Json &record, const std::function<bool()> &checkpoint) {
  int status =
      options.epochs
          ? trainEpochs(options, train, eval, data, seconds, record, checkpoint)
          : trainSteps(options, train, data, seconds, record);
  if (interrupted())
    return status;
  if (status == 0 && eval && data.test().count() > 0 && !options.epochs) {
    Evaluation e = evaluate(*eval, data, data.test());
    std::printf("%s: test loss = %.4f, accuracy = %.4f (%lld images)\n",
                timestamp().c_str(), e.loss, e.accuracy,
                static_cast<long long>(e.images));
    record["test_loss"] = e.loss;
    record["test_accuracy"] = e.accuracy;
    record["test_images"] = e.images;
  }
  return status;
}
