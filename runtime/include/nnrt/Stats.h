//===- Stats.h - throughput figures of timed steps --------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). The figures tf_cnn_benchmarks reports for
// a run's steps: the mean speed (the batch over the mean step time), the
// standard error of the per-step speeds and their jitter (1.4826 times the
// median absolute deviation, a robust estimate of their spread).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_STATS_H
#define NNRT_STATS_H

#include <vector>

namespace nnrt {

/// Seconds on the monotonic clock, for timing steps.
double monotonicSeconds();

/// The median; the mean of the middle two of an even count, 0 when empty.
double median(std::vector<double> values);

/// Images per second over a run of steps.
struct Throughput {
  double mean = 0;        ///< batch / mean(seconds)
  double uncertainty = 0; ///< population stddev of the speeds / sqrt(n)
  double jitter = 0;      ///< 1.4826 * median(|speed - median(speed)|)
};

/// The throughput of steps of `batch` images that took `seconds` each.
/// All zero when there are no steps.
Throughput throughput(double batch, const std::vector<double> &seconds);

} // namespace nnrt

#endif // NNRT_STATS_H
