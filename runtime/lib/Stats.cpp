//===- Stats.cpp - throughput figures of timed steps ----------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Stats.h"

#include <algorithm>
#include <chrono>
#include <cmath>

using namespace nnrt;

/// Scales the median absolute deviation to estimate the standard deviation
/// of normally distributed values.
static constexpr double kMadToStddev = 1.4826;

double nnrt::median(std::vector<double> values) {
  size_t n = values.size();
  if (n == 0)
    return 0;
  auto middle = values.begin() + n / 2;
  std::nth_element(values.begin(), middle, values.end());
  if (n % 2)
    return *middle;
  double upper = *middle;
  double lower = *std::max_element(values.begin(), middle);
  return (lower + upper) / 2;
}

Throughput nnrt::throughput(double batch, const std::vector<double> &seconds) {
  Throughput t;
  size_t n = seconds.size();
  if (n == 0)
    return t;
  std::vector<double> speeds;
  double timeSum = 0, speedSum = 0;
  for (double s : seconds) {
    timeSum += s;
    speeds.push_back(batch / s);
    speedSum += speeds.back();
  }
  t.mean = batch / (timeSum / n);
  double speedMean = speedSum / n, squares = 0;
  for (double v : speeds)
    squares += (v - speedMean) * (v - speedMean);
  t.uncertainty = std::sqrt(squares / n) / std::sqrt(double(n));
  double center = median(speeds);
  std::vector<double> deviations;
  for (double v : speeds)
    deviations.push_back(std::fabs(v - center));
  t.jitter = kMadToStddev * median(std::move(deviations));
  return t;
}

double nnrt::monotonicSeconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
