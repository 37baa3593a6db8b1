//===- Steps.h - the timed steps of each mode -------------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). The steps of a set-up run:
// TensorFlow's AlexNet benchmark (forward, then forward-backward steps),
// either of its halves, training (Train.h) or tf_cnn_benchmarks' training run
// (TfCnn.h); then the summary line.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_STEPS_H
#define NNRT_MAIN_STEPS_H

#include "Run.h"

namespace nnrt {

/// Runs the steps of --mode, filling run.seconds (and for training
/// run.training). Returns 0, or the exit status: 130 when a stop signal
/// (Signals.h) cut the steps short, after a line saying how many ran
/// (training saves the parameters first with --save).
int runSteps(Run &run);

/// The FLOPs of one call of `entry` (0: not known).
int64_t flopsOf(const Run &run, const std::string &entry);

/// "<time>: <what> across N steps, mean +/- stddev sec / batch, E
/// examples/sec, G GFLOP/s" for steps of `entry` (the GFLOP/s when its
/// FLOPs are known).
void printSummaryLine(const Run &run, const char *what,
                      const std::string &entry,
                      const std::vector<double> &seconds);

/// The summary line of --mode=forward, forward-backward or train (none for
/// benchmark, tf-cnn and eval, whose lines end with their own totals).
void printSummary(const Run &run);

} // namespace nnrt

#endif // NNRT_MAIN_STEPS_H
