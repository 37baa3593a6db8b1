//===- Report.cpp - what the bench program prints and records -------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

using namespace nnrt;

std::string nnrt::timestamp() {
  using namespace std::chrono;
  auto now = system_clock::now();
  std::time_t t = system_clock::to_time_t(now);
  std::tm local;
  localtime_r(&t, &local);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S", &local);
  auto micros =
      duration_cast<microseconds>(now.time_since_epoch()).count() % 1000000;
  char out[80];
  std::snprintf(out, sizeof out, "%s.%06lld", buffer,
                static_cast<long long>(micros));
  return out;
}

bool nnrt::inLayerTable(const Layer &layer) {
  for (const char *op : {"lrn", "batch_norm", "dropout"})
    if (layer.op == op)
      return false;
  return true;
}

void nnrt::printLayers(const ModelInfo &model) {
  for (const Layer &l : model.layers)
    if (inLayerTable(l))
      std::printf("%s   %s\n", l.name.c_str(), formatShape(l.shape).c_str());
}

std::string nnrt::throughput(int64_t batchSize, int64_t flops, double mean) {
  if (mean <= 0)
    return "";
  char buffer[96];
  int n = std::snprintf(buffer, sizeof buffer, ", %.1f examples/sec",
                        static_cast<double>(batchSize) / mean);
  if (flops)
    std::snprintf(buffer + n, sizeof buffer - n, ", %.1f GFLOP/s",
                  flops / mean / 1e9);
  return buffer;
}

Summary nnrt::summarize(const std::vector<double> &seconds) {
  Summary s;
  if (seconds.empty())
    return s;
  double sum = 0, sumSq = 0;
  for (double d : seconds)
    sum += d, sumSq += d * d;
  s.mean = sum / seconds.size();
  s.stddev = std::sqrt(std::max(sumSq / seconds.size() - s.mean * s.mean, 0.0));
  return s;
}

std::string nnrt::cpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size())
        return line.substr(colon + 2);
    }
  return "unknown";
}

Json nnrt::runRecord(const ModelInfo &model, const Options &options,
                     int threads, const std::vector<double> &seconds,
                     int ranks) {
  Json record;
  record["model"] = model.name;
  record["mode"] = describe(options.mode).name;
  record["target"] = model.build.count("target") ? model.build.at("target")
                                                 : std::string("cpu");
  record["batch_size"] = model.batchSize;
  record["global_batch_size"] = model.batchSize * ranks;
  record["threads"] = threads;
  // The steps that ran: --epochs sets their number (and has no warm-up),
  // Ctrl-C may cut it short.
  record["steps"] = static_cast<int64_t>(seconds.size());
  record["warmup"] = options.epochs ? int64_t(0) : options.warmup;
  record["seed"] = static_cast<int64_t>(options.seed);
  record["data"] = options.data == "synthetic"
                       ? options.data
                       : options.data + ":" + options.dataDir;
  record["date"] = timestamp();

  Json &machine = record["machine"];
  machine["cpu"] = cpuName();
  machine["cores"] = static_cast<int64_t>(std::thread::hardware_concurrency());
  Json &build = record["build"];
  build = Json::makeObject();
  for (const auto &[key, value] : model.build)
    build[key] = value;
  build["runtime"] = "nnrt " NNC_VERSION;

  const EntryPoint *entry = model.entryPoint(describe(options.mode).entry);
  Json phase = phaseRecord(model.batchSize * ranks,
                           entry ? entry->flops * ranks : 0, seconds);
  for (auto &[key, value] : phase.object)
    record[key] = value;
  return record;
}

Json nnrt::phaseRecord(int64_t batchSize, int64_t flops,
                       const std::vector<double> &seconds) {
  Json record = Json::makeObject();
  Summary s = summarize(seconds);
  if (flops) {
    record["flops_per_step"] = flops;
    record["gflops_per_second"] = s.mean > 0 ? flops / s.mean / 1e9 : 0.0;
  }
  Json durations = Json::makeArray();
  for (double d : seconds)
    durations.array.push_back(d);
  record["seconds_per_step"] = std::move(durations);
  record["mean_seconds"] = s.mean;
  record["stddev_seconds"] = s.stddev;
  record["examples_per_second"] =
      s.mean > 0 ? static_cast<double>(batchSize) / s.mean : 0.0;
  return record;
}
