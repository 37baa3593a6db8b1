//===- Bench.cpp - the bench program's main -------------------------------===//
//
// Part of nnc's runtime. `nnc model.nn -o bench` links this main with the
// compiled model: it initialises (or loads) the parameters, feeds synthetic
// or CIFAR-10 data, runs the chosen entry point for --warmup and --steps
// steps and prints TensorFlow's AlexNet-benchmark lines.
//
//===----------------------------------------------------------------------===//

#include "DataSource.h"
#include "Entries.h"
#include "Options.h"
#include "Report.h"
#include "Train.h"

#include "nnrt/Device.h"
#include "nnrt/Session.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <malloc.h>
#include <numeric>
#include <thread>
#include <unistd.h>

using namespace nnrt;

// Weak: a CUDA build's bench need not link OpenMP, a CPU build's not CUDA.
extern "C" __attribute__((weak)) void omp_set_num_threads(int);
extern "C" __attribute__((weak)) nnrt::Device *nnrt_cuda_device();

namespace {
const char *program = "bench";

int fail(const std::string &message, int code = 1) {
  std::fprintf(stderr, "%s: error: %s\n", program, message.c_str());
  return code;
}

const char *entryFor(const std::string &mode) {
  if (mode == "forward")
    return "forward";
  if (mode == "forward-backward")
    return "forward_backward";
  return "train_step";
}

/// Output files are checked before the run, so a long run never ends
/// unable to write what it computed.
bool checkWritable(const std::string &path, std::string &error) {
  if (path.empty())
    return true;
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "." : path.substr(0, slash);
  if (dir.empty())
    dir = "/";
  if (access(dir.c_str(), W_OK) == 0)
    return true;
  error = "cannot write '" + path + "': directory '" + dir + "' " +
          (errno == ENOENT ? "does not exist" : "is not writable");
  return false;
}

bool writeText(const std::string &path, const std::string &text,
               std::string &error) {
  std::ofstream out(path);
  if (!(out << text) || !out.flush()) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  program = argv[0];
  // The compiled code allocates and frees its intermediate buffers every
  // step. Serve them from the heap and never give it back, so later steps
  // reuse memory that is already mapped instead of faulting in fresh pages.
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, INT_MAX);
  Options options;
  std::string error;
  if (!parseOptions(argc, argv, options, error))
    return fail(error, 2);
  if (options.help) {
    std::printf("%s", usage(program).c_str());
    return 0;
  }
  if (options.epochs && !options.modeGiven)
    options.mode = "train";
  if (options.epochs && options.mode != "train")
    return fail("--epochs applies to --mode=train", 2);

  for (const std::string *path : {&options.save, &options.dump, &options.json})
    if (!checkWritable(*path, error))
      return fail(error);

  Session session;
  if (!session.open(modelDescription(), error))
    return fail("the linked model's description: " + error);
  ModelInfo model = session.info();
  // A device build opens its device before anything else touches it.
  Device *device = nullptr;
  if (model.target() == "cuda") {
    device = nnrt_cuda_device ? nnrt_cuda_device() : nullptr;
    if (!device)
      return fail("model '" + model.name +
                  "' was compiled for CUDA, but this program was linked "
                  "without nnrt's CUDA runtime (libnnrt_cuda.a)");
    if (!device->open(error))
      return fail(error);
  }
  Call call;
  std::string entry = entryFor(options.mode);
  if (!session.bind(entry, findEntryPoint(entry), call, error))
    return fail("--mode=" + options.mode + " needs the '" + entry +
                    "' entry point, which model '" + model.name +
                    "' was not compiled with",
                2);
  if (Tensor *input = call.first("input");
      !model.batchSize && input && !input->shape().empty())
    model.batchSize = input->shape()[0];

  int threads = options.threads
                    ? options.threads
                    : static_cast<int>(std::thread::hardware_concurrency());
  if (device && options.threads)
    std::fprintf(stderr, "%s: note: --threads is ignored on the GPU\n",
                 program);
  if (!device && omp_set_num_threads)
    omp_set_num_threads(threads > 0 ? threads : 1);

  if (options.load.empty()) {
    session.initParameters(options.seed);
  } else {
    std::vector<std::string> ignored;
    if (!session.loadParameters(options.load, error, ignored))
      return fail(error);
    for (const std::string &name : ignored)
      std::fprintf(stderr,
                   "%s: warning: '%s' holds '%s', which is not a "
                   "parameter of model '%s'; ignored\n",
                   program, options.load.c_str(), name.c_str(),
                   model.name.c_str());
  }
  DataSource data;
  if (!data.setUp(options, call, error))
    return fail(error);
  if (options.epochs && !data.real())
    return fail("--epochs needs a real data set (--data=cifar10:DIR or "
                "mnist:DIR); use --steps on synthetic data",
                2);
  // On a device the parameters stay there; the host copies are refreshed
  // before they are written out.
  if (device && (!device->attach(session, error) ||
                 !device->bind(call, data.real(), error)))
    return fail(error);
  auto parametersToHost = [&] {
    if (device)
      device->downloadParameters();
  };

  std::vector<double> seconds;
  Json training = Json::makeObject();
  if (options.mode == "train") {
    Call eval;
    bool hasEval = session.info().entryPoint("eval") &&
                   session.bind("eval", findEntryPoint("eval"), eval, error);
    if (hasEval && device && !device->bind(eval, true, error))
      return fail(error);
    auto checkpoint = [&] {
      if (options.save.empty())
        return true;
      parametersToHost();
      if (session.saveParameters(options.save, error))
        return true;
      fail(error);
      return false;
    };
    if (int status = runTraining(options, call, hasEval ? &eval : nullptr, data,
                                 seconds, training, checkpoint))
      return status;
    if (interrupted()) {
      std::printf("\n");
      if (!checkpoint())
        return 1;
      std::string saved =
          options.save.empty() ? "" : "; parameters saved to " + options.save;
      std::fprintf(stderr, "%s: interrupted after %zu timed steps%s\n", program,
                   seconds.size(), saved.c_str());
      return 130;
    }
  } else {
    printLayers(model);
    std::fflush(stdout);
    std::vector<int64_t> order;
    if (data.real())
      order = data.order(data.train(), /*shuffle=*/false);
    else
      data.fillSynthetic(call);
    for (int64_t i = 0; i < options.warmup + options.steps; ++i) {
      if (data.real())
        data.fill(call, data.train(), order, i * data.batchSize(),
                  /*augment=*/false);
      auto start = std::chrono::steady_clock::now();
      call.run();
      std::chrono::duration<double> took =
          std::chrono::steady_clock::now() - start;
      if (i < options.warmup)
        continue;
      int64_t step = i - options.warmup;
      seconds.push_back(took.count());
      if (step % 10 == 0) {
        std::printf("%s: step %lld, duration = %.3f\n", timestamp().c_str(),
                    static_cast<long long>(step), took.count());
        std::fflush(stdout);
      }
    }
  }
  Summary s = summarize(seconds);
  const char *what = options.mode == "forward"            ? "Forward"
                     : options.mode == "forward-backward" ? "Forward-backward"
                                                          : "Train";
  std::printf("%s: %s across %lld steps, %.3f +/- %.3f sec / batch\n",
              timestamp().c_str(), what, static_cast<long long>(seconds.size()),
              s.mean, s.stddev);

  if (!options.dump.empty()) {
    parametersToHost();
    if (device)
      device->downloadOutputs(call);
    NamedTensors all = session.parameters();
    for (const char *role : {"input", "labels", "output"})
      for (auto &named : call.buffers(role))
        all.push_back(named);
    if (!writeNpz(options.dump, all, error))
      return fail(error);
  }
  if (!options.save.empty()) {
    parametersToHost();
    if (!session.saveParameters(options.save, error))
      return fail(error);
  }
  if (!options.json.empty()) {
    Json record = runRecord(model, options, threads, seconds);
    if (device)
      record["device"] = device->describe();
    for (auto &[key, value] : training.object)
      record[key] = value;
    if (!writeText(options.json, formatJson(record), error))
      return fail(error);
  }
  return 0;
}
