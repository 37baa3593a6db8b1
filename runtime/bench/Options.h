//===- Options.h - the bench program's flags --------------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_BENCH_OPTIONS_H
#define NNRT_BENCH_OPTIONS_H

#include <cstdint>
#include <string>

namespace nnrt {

struct Options {
  std::string mode = "forward"; // forward, forward-backward, train
  bool modeGiven = false;       // --epochs implies train unless --mode says
  int64_t steps = 100, warmup = 10, epochs = 0;
  int threads = 0; // 0: every core
  uint64_t seed = 1;
  std::string data = "synthetic"; // or cifar10, mnist
  std::string dataDir;
  int64_t holdout = -1; // images held out of the training set for testing
  std::string json, load, save, dump;
  bool help = false;
};

/// Parses `--flag=value` (or `--flag value`) arguments. False with a
/// message naming the flag on anything unknown or out of range.
bool parseOptions(int argc, char **argv, Options &out, std::string &error);

/// The --help text.
std::string usage(const char *program);

} // namespace nnrt

#endif // NNRT_BENCH_OPTIONS_H
