//===- Options.cpp - the bench program's flags ----------------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include <cerrno>
#include <cstdlib>
#include <functional>
#include <map>

using namespace nnrt;

std::string nnrt::usage(const char *program) {
  return std::string("usage: ") + program + " [flags]\n" + R"(
Runs and times the compiled model.

  --mode=MODE        forward (default), forward-backward or train; the last
                     two need a model compiled with its training step
  --steps=N          timed steps (default 100)
  --warmup=N         untimed steps first (default 10)
  --epochs=N         train: passes over a real data set instead of --steps
                     (implies --mode=train)
  --threads=N        OpenMP threads (default: every core)
  --seed=N           seed of parameter initialisation and synthetic data
                     (default 1)
  --data=SOURCE      synthetic (default: random inputs, as the TensorFlow
                     benchmarks), cifar10:DIR (the CIFAR-10 binary files) or
                     mnist:DIR (MNIST's uncompressed IDX files)
  --holdout=N        test on the last N images of the training files (the
                     default when the data has no test files: none)
  --load=FILE.npz    parameters from a NumPy archive instead of initialising
  --save=FILE.npz    write the parameters (with the optimizer state) after
                     the run, after every epoch, and on Ctrl-C (atomically)
  --dump=FILE.npz    write the parameters, inputs and outputs of the last step
  --json=FILE        write every figure of the run as JSON
  --help             this text
)";
}

namespace {
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
} // namespace

bool nnrt::parseOptions(int argc, char **argv, Options &out,
                        std::string &error) {
  auto integer = [&](int64_t min, int64_t max, auto &slot) {
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
  constexpr int64_t kMax = int64_t(1) << 40;
  const std::map<
      std::string,
      std::pair<std::function<bool(const std::string &)>, const char *>>
      flags = {
          {"mode",
           {[&](const std::string &v) {
              out.mode = v;
              out.modeGiven = true;
              return v == "forward" || v == "forward-backward" || v == "train";
            },
            "forward, forward-backward or train"}},
          {"steps", {integer(1, kMax, out.steps), "a positive integer"}},
          {"warmup", {integer(0, kMax, out.warmup), "an integer >= 0"}},
          {"epochs", {integer(1, kMax, out.epochs), "a positive integer"}},
          {"threads", {integer(1, 4096, out.threads), "an integer 1..4096"}},
          {"seed", {integer(0, INT64_MAX, out.seed), "an integer >= 0"}},
          {"data",
           {[&](const std::string &v) {
              if (v == "synthetic") {
                out.data = v;
                return true;
              }
              for (const char *kind : {"cifar10", "mnist"}) {
                std::string prefix = std::string(kind) + ":";
                if (v.rfind(prefix, 0) == 0 && v.size() > prefix.size()) {
                  out.data = kind;
                  out.dataDir = v.substr(prefix.size());
                  return true;
                }
              }
              return false;
            },
            "synthetic, cifar10:DIR or mnist:DIR"}},
          {"holdout", {integer(0, kMax, out.holdout), "an integer >= 0"}},
          {"load", {text(out.load), "a file name"}},
          {"save", {text(out.save), "a file name"}},
          {"dump", {text(out.dump), "a file name"}},
          {"json", {text(out.json), "a file name"}},
      };
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      out.help = true;
      continue;
    }
    if (arg.rfind("--", 0) != 0) {
      error = "unexpected argument '" + arg + "' (flags are --name=value)";
      return false;
    }
    size_t eq = arg.find('=');
    std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
    auto flag = flags.find(name);
    if (flag == flags.end()) {
      error = "unknown flag '--" + name + "' (--help lists them)";
      return false;
    }
    std::string value;
    if (eq != std::string::npos)
      value = arg.substr(eq + 1);
    else if (i + 1 < argc)
      value = argv[++i];
    else {
      error = "--" + name + " needs a value: " + flag->second.second;
      return false;
    }
    if (!flag->second.first(value)) {
      error = "--" + name + "=" + value + ": expected " + flag->second.second;
      return false;
    }
  }
  return true;
}
