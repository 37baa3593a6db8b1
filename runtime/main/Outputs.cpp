//===- Outputs.cpp - the files a run writes -------------------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Outputs.h"

#include "Report.h"
#include "Signals.h"

#include "nnrt/File.h"
#include "nnrt/Npz.h"

#include <cerrno>
#include <cmath>
#include <unistd.h>

using namespace nnrt;

namespace {
/// --dump: the parameters, then the last step's inputs, labels and outputs.
bool writeDump(Run &run, std::string &error) {
  run.parametersToHost();
  if (run.device)
    run.device->downloadOutputs(run.call);
  NamedTensors all = run.session.parameters();
  for (const char *role : {"input", "labels", "output"})
    for (auto &named : run.call.buffers(role))
      all.push_back(named);
  return writeNpz(run.options.dump, all, error);
}

/// The first parameter holding a NaN or an infinity, or null.
const std::string *nonFinite(const NamedTensors &parameters) {
  for (const auto &[name, tensor] : parameters) {
    if (tensor->type() != DType::F32)
      continue;
    const float *values = tensor->f32();
    for (int64_t i = 0, e = tensor->size(); i != e; ++i)
      if (!std::isfinite(values[i]))
        return &name;
  }
  return nullptr;
}

/// --json: the run's record, with the device and the training figures.
bool writeRecord(const Run &run, std::string &error) {
  Json record = runRecord(run.model, run.options, run.threads, run.seconds,
                          run.ranks.size());
  if (run.device)
    record["device"] = run.device->describe();
  record["memory_estimate_mib"] =
      std::round(run.memoryEstimate / 1048576.0 * 10) / 10;
  for (auto &[key, value] : run.training.object)
    record[key] = value;
  return writeFileAtomically(run.options.json, formatJson(record), error);
}
} // namespace

int nnrt::checkOutputs(const Run &run) {
  const Options &options = run.options;
  std::string error;
  for (const std::string *path : {&options.save, &options.dump, &options.json})
    if (!checkWritable(*path, error))
      return run.fail(error);
  return 0;
}

bool nnrt::saveParameters(Run &run) {
  const Options &options = run.options;
  if (options.save.empty())
    return true;
  run.parametersToHost();
  if (options.stopOnNan)
    if (const std::string *name = nonFinite(run.session.parameters())) {
      run.fail("parameter '" + *name + "' is not finite (NaN or infinite); '" +
               options.save +
               "' was not written (--on-nan=continue saves anyway)");
      return false;
    }
  std::string error;
  if (run.session.saveParameters(options.save, error))
    return true;
  run.fail(error);
  return false;
}

int nnrt::finishInterrupted(Run &run, int status) {
  const Options &options = run.options;
  run.training["interrupted"] = interruptName();
  std::string error;
  if (!options.json.empty() && !writeRecord(run, error))
    return run.fail(error);
  return status == 0 || status == 130 ? 128 + interruptSignal() : status;
}

int nnrt::writeOutputs(Run &run) {
  const Options &options = run.options;
  std::string error;
  if (!options.dump.empty() && !writeDump(run, error))
    return run.fail(error);
  if (!saveParameters(run))
    return 1;
  if (!options.json.empty() && !writeRecord(run, error))
    return run.fail(error);
  return 0;
}
