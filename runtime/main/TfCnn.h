//===- TfCnn.h - tf_cnn_benchmarks' training run ----------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). --mode=tf-cnn: trains on
// synthetic data made as tf_cnn_benchmarks makes it and prints that
// script's lines: its header, a speed line at step 1 and every 10 steps,
// and the total images per second between dashed lines.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_TFCNN_H
#define NNRT_MAIN_TFCNN_H

#include "Run.h"

namespace nnrt {

/// Runs --warmup untimed and --steps timed training steps, filling
/// run.seconds and run.training. Returns 0, or the exit status.
int runTfCnn(Run &run);

} // namespace nnrt

#endif // NNRT_MAIN_TFCNN_H
