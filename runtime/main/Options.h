//===- Options.h - the bench program's flags --------------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). The flags, and the modes a
// run can time: each mode's flag name, the entry point it runs and the word
// its summary line starts with.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_OPTIONS_H
#define NNRT_MAIN_OPTIONS_H

#include <cstdint>
#include <string>

namespace nnrt {

/// What every step runs.
enum class Mode { Benchmark, Forward, ForwardBackward, Train, TfCnn, Eval };

struct ModeInfo {
  Mode mode;
  const char *name;    ///< the --mode value
  const char *entry;   ///< the entry point a step calls
  const char *summary; ///< the summary line's word: "Forward across ..."
};
/// The name, entry point and summary word of `mode`.
const ModeInfo &describe(Mode mode);

struct Options {
  Mode mode = Mode::Forward;
  bool modeGiven = false; // else --epochs implies train, a model made for
                          // tf_cnn_benchmarks defaults to tf-cnn and one
                          // with no labels to benchmark
  int64_t steps = 100, warmup = 10, epochs = 0;
  int threads = 0;                 // 0: every core
  int64_t collectiveTimeout = 600; // seconds, across ranks
  uint64_t seed = 1;
  std::string data = "synthetic"; // or cifar10, mnist
  std::string dataDir;
  int64_t holdout = -1; // images held out of the training set for testing
  std::string json, load, save, dump;
  bool stopOnNan = true;   // --on-nan=stop: a non-finite loss ends training
  bool onNanGiven = false; // else tf-cnn without --save continues
  const char *program = "bench"; // argv[0], for messages
  bool help = false, version = false;
  bool memoryCheck = true; // --no-memory-check: run whatever the estimate
  /// The message for --batch, which the program cannot honour.
  std::string batchHint;
};

/// Parses `--flag=value` (or `--flag value`) arguments. False with a
/// message naming the flag on anything unknown or out of range.
bool parseOptions(int argc, char **argv, Options &out, std::string &error);

/// The --help text.
std::string usage(const char *program);

} // namespace nnrt

#endif // NNRT_MAIN_OPTIONS_H
