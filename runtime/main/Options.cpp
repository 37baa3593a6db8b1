//===- Options.cpp - the bench program's flags ----------------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include <cerrno>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>
#include <type_traits>

using namespace nnrt;

std::string nnrt::usage(const char *program) {
  return std::string("usage: ") + program + " [flags]\n" + R"(
Runs and times the compiled model.

  --mode=MODE        benchmark (TensorFlow's AlexNet benchmark: forward,
                     then forward-backward when the model has it; the
                     default for a model with no labels), forward (the
                     default otherwise), forward-backward, train, tf-cnn
                     (training on synthetic data with tf_cnn_benchmarks'
                     lines; the default for a model made for it) or eval
                     (the loss and accuracy of --load's parameters on the
                     test set, or --holdout); forward-backward, train,
                     tf-cnn and eval need a model compiled with its
                     training step
  --steps=N          timed steps (default 100)
  --warmup=N         untimed steps first (default 10)
  --epochs=N         train: passes over a real data set instead of --steps
                     (implies --mode=train)
  --threads=N        OpenMP threads (default: every core, shared among the
                     ranks of a data-parallel run on this machine)
  --seed=N           seed of parameter initialisation and synthetic data
                     (default 1)
  --data=SOURCE      synthetic (default: random inputs, as the TensorFlow
                     benchmarks), cifar10:DIR (the CIFAR-10 binary files,
                     or cifar-10-binary.tar.gz itself or in DIR) or
                     mnist:DIR (MNIST's IDX files, gzipped or not)
  --holdout=N        test on the last N images of the training files (the
                     default when the data has no test files: none)
  --load=FILE.npz    parameters from a NumPy archive instead of initialising
  --save=FILE.npz    write the parameters (with the optimizer state) after
                     the run, after every epoch, and when Ctrl-C, SIGTERM
                     or SIGHUP stops training (atomically)
  --on-nan=WHAT      stop (default: a NaN or infinite loss ends training
                     with exit code 1, and non-finite parameters are never
                     saved) or continue (train on; the default of a
                     tf-cnn benchmark without --save, as tf_cnn_benchmarks)
  --dump=FILE.npz    write the parameters, inputs and outputs of the last step
  --json=FILE        write every figure of the run as JSON
  --collective-timeout=SECONDS
                     under mpirun (data-parallel training across ranks,
                     docs/distributed.md): how long a rank waits for the
                     others in one collective call before it ends the job
                     (default 600)
  --no-memory-check  run even when the estimate of the run's peak memory
                     exceeds what is available (MemAvailable, ulimit -v,
                     ulimit -d, the cgroup's limit); without it such a run
                     is refused before its first step
  --version          the runtime's version and the model's build
  --help             this text
)";
}

namespace {
const ModeInfo modes[] = {
    {Mode::Benchmark, "benchmark", "forward", "Forward"},
    {Mode::Forward, "forward", "forward", "Forward"},
    {Mode::ForwardBackward, "forward-backward", "forward_backward",
     "Forward-backward"},
    {Mode::Train, "train", "train_step", "Train"},
    {Mode::TfCnn, "tf-cnn", "train_step", "Train"},
    {Mode::Eval, "eval", "eval", "Eval"},
};

/// "benchmark, forward, forward-backward, train, tf-cnn or eval".
std::string modeNames() {
  std::string names;
  for (size_t i = 0, e = std::size(modes); i != e; ++i)
    names += std::string(i == 0       ? ""
                         : i + 1 == e ? " or "
                                      : ", ") +
             modes[i].name;
  return names;
}

bool parseInt(const std::string &text, int64_t min, int64_t max, int64_t &out) {
  if (text.empty())
    return false;
  char *end;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end || errno || v < min || v > max)
    return false;
  out = v;
  return true;
}

bool readMode(const std::string &value, Options &out) {
  out.modeGiven = true;
  for (const ModeInfo &info : modes)
    if (value == info.name) {
      out.mode = info.mode;
      return true;
    }
  return false;
}

bool readOnNan(const std::string &value, Options &out) {
  if (value != "stop" && value != "continue")
    return false;
  out.stopOnNan = value == "stop";
  out.onNanGiven = true;
  return true;
}

bool readData(const std::string &value, Options &out) {
  if (value == "synthetic") {
    out.data = value;
    return true;
  }
  for (const char *kind : {"cifar10", "mnist"}) {
    std::string prefix = std::string(kind) + ":";
    if (value.rfind(prefix, 0) == 0 && value.size() > prefix.size()) {
      out.data = kind;
      out.dataDir = value.substr(prefix.size());
      return true;
    }
  }
  return false;
}

/// A flag: how its value is read (false: not a valid value) and what it
/// expects, for the messages.
struct Flag {
  std::function<bool(const std::string &)> read;
  std::string expects;
};
using Flags = std::map<std::string, Flag>;

/// Every flag, each reading into `out`.
Flags flagsFor(Options &out) {
  auto integer = [](int64_t min, int64_t max, auto &slot) {
    return [&slot, min, max](const std::string &v) {
      int64_t n;
      if (!parseInt(v, min, max, n))
        return false;
      slot = static_cast<std::remove_reference_t<decltype(slot)>>(n);
      return true;
    };
  };
  auto text = [](std::string &slot) {
    return [&slot](const std::string &v) {
      slot = v;
      return !v.empty();
    };
  };
  auto with = [&out](bool (*read)(const std::string &, Options &)) {
    return [&out, read](const std::string &v) { return read(v, out); };
  };
  constexpr int64_t kMax = int64_t(1) << 40;
  return {
      {"mode", {with(readMode), modeNames()}},
      {"steps", {integer(1, kMax, out.steps), "a positive integer"}},
      {"warmup", {integer(0, kMax, out.warmup), "an integer >= 0"}},
      {"epochs", {integer(1, kMax, out.epochs), "a positive integer"}},
      {"threads", {integer(1, 4096, out.threads), "an integer 1..4096"}},
      {"collective-timeout",
       {integer(1, 86400 * 7, out.collectiveTimeout),
        "a number of seconds 1..604800"}},
      {"seed", {integer(0, INT64_MAX, out.seed), "an integer >= 0"}},
      {"data", {with(readData), "synthetic, cifar10:DIR or mnist:DIR"}},
      {"holdout", {integer(0, kMax, out.holdout), "an integer >= 0"}},
      {"on-nan", {with(readOnNan), "stop or continue"}},
      {"load", {text(out.load), "a file name"}},
      {"save", {text(out.save), "a file name"}},
      {"dump", {text(out.dump), "a file name"}},
      {"json", {text(out.json), "a file name"}},
  };
}

/// Reads argv[i]: --help, --name=value, or --name value (which takes
/// argv[i + 1] too).
bool parseArgument(const Flags &flags, int argc, char **argv, int &i,
                   Options &out, std::string &error) {
  std::string arg = argv[i];
  if (arg == "--help" || arg == "-h") {
    out.help = true;
    return true;
  }
  if (arg == "--version") {
    out.version = true;
    return true;
  }
  if (arg == "--no-memory-check") {
    out.memoryCheck = false;
    return true;
  }
  if (arg.rfind("--", 0) != 0) {
    error = "unexpected argument '" + arg + "' (flags are --name=value)";
    return false;
  }
  size_t eq = arg.find('=');
  std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
  auto flag = flags.find(name);
  if (flag == flags.end() && name == "batch" && !out.batchHint.empty()) {
    error = "unknown flag '--batch': " + out.batchHint;
    return false;
  }
  if (flag == flags.end()) {
    error = "unknown flag '--" + name + "' (--help lists them)";
    return false;
  }
  std::string value;
  if (eq != std::string::npos) {
    value = arg.substr(eq + 1);
  } else if (i + 1 < argc) {
    value = argv[++i];
  } else {
    error = "--" + name + " needs a value: " + flag->second.expects;
    return false;
  }
  if (!flag->second.read(value)) {
    error = "--" + name + "=" + value + ": expected " + flag->second.expects;
    return false;
  }
  return true;
}
} // namespace

const ModeInfo &nnrt::describe(Mode mode) {
  for (const ModeInfo &info : modes)
    if (info.mode == mode)
      return info;
  return modes[0];
}

bool nnrt::parseOptions(int argc, char **argv, Options &out,
                        std::string &error) {
  Flags flags = flagsFor(out);
  if (argc > 0)
    out.program = argv[0];
  for (int i = 1; i < argc; ++i)
    if (!parseArgument(flags, argc, argv, i, out, error))
      return false;
  return true;
}
