//===- Memory.cpp - the run's peak memory, estimated before it starts -----===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Memory.h"

#include "nnrt/Tensor.h"

#include <algorithm>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>

using namespace nnrt;

namespace {
constexpr int64_t kMiB = int64_t(1) << 20;

int64_t bytesOf(const std::string &dtype, const Shape &shape) {
  DType type;
  size_t size = parseDType(dtype, type) ? elementSize(type) : 8;
  return elementCount(shape) * static_cast<int64_t>(size);
}

/// The inputs, labels and outputs of `entry` (parameters are counted once,
/// apart).
int64_t bufferBytes(const ModelInfo &model, const std::string &entry) {
  const EntryPoint *e = model.entryPoint(entry);
  int64_t bytes = 0;
  if (e)
    for (const Argument &a : e->args)
      if (a.role != "param")
        bytes += bytesOf(a.dtype, a.shape);
  return bytes;
}

/// The size of the data file `path` once read: a gzip file's is in its
/// trailer (modulo 2^32, a single member's), else the file's own.
int64_t fileBytes(const std::string &path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
    return 0;
  std::ifstream in(path, std::ios::binary);
  unsigned char magic[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  in.read(reinterpret_cast<char *>(magic), 2);
  if (!in || magic[0] != 0x1f || magic[1] != 0x8b || info.st_size < 18)
    return info.st_size;
  in.seekg(-4, std::ios::end);
  in.read(reinterpret_cast<char *>(tail), 4);
  int64_t size = int64_t(tail[0]) | int64_t(tail[1]) << 8 |
                 int64_t(tail[2]) << 16 | int64_t(tail[3]) << 24;
  return std::max<int64_t>(size, info.st_size);
}

/// The data set's files as read: the archive given itself, or every
/// CIFAR-10 or MNIST file in the directory.
int64_t dataBytes(const Options &options) {
  if (options.data == "synthetic")
    return 0;
  const std::string &dir = options.dataDir;
  struct stat info;
  if (stat(dir.c_str(), &info) == 0 && S_ISREG(info.st_mode))
    return fileBytes(dir);
  DIR *d = opendir(dir.c_str());
  if (!d)
    return 0;
  int64_t bytes = 0;
  while (dirent *entry = readdir(d)) {
    std::string name = entry->d_name;
    bool cifar = name.rfind("data_batch_", 0) == 0 ||
                 name.rfind("test_batch", 0) == 0 ||
                 name == "cifar-10-binary.tar.gz";
    bool mnist = name.find("-idx") != std::string::npos;
    if (options.data == "cifar10" ? cifar : mnist)
      bytes += fileBytes(dir + "/" + name);
  }
  closedir(d);
  return bytes;
}

/// Whether --mode runs a backward pass.
bool differentiates(const ModelInfo &model, Mode mode) {
  switch (mode) {
  case Mode::Train:
  case Mode::TfCnn:
  case Mode::ForwardBackward:
    return true;
  case Mode::Benchmark:
    return model.entryPoint("forward_backward") != nullptr;
  default:
    return false;
  }
}

/// A number from a /proc or /sys file ("max" and unreadable: -1).
int64_t readNumber(const std::string &path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || word[0] < '0' || word[0] > '9')
    return -1;
  return std::stoll(word);
}

/// A "Name:   N kB" line of /proc/meminfo or /proc/self/status, in bytes.
int64_t procField(const std::string &path, const std::string &name) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(name + ":", 0) == 0) {
      std::istringstream fields(line.substr(name.size() + 1));
      int64_t kb;
      if (fields >> kb)
        return kb * 1024;
    }
  return -1;
}

/// The cgroup's memory limit less its usage (v2's memory.max, v1's
/// memory.limit_in_bytes), or -1 when none is set.
int64_t cgroupLeft() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos)
      continue;
    std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    if (path == "/")
      path.clear();
    std::string limitFile, usageFile;
    if (controllers.empty()) {
      limitFile = "/sys/fs/cgroup" + path + "/memory.max";
      usageFile = "/sys/fs/cgroup" + path + "/memory.current";
    } else if (("," + controllers + ",").find(",memory,") !=
               std::string::npos) {
      std::string base = "/sys/fs/cgroup/memory";
      // Inside a container the hierarchy's root is often the cgroup's own.
      struct stat info;
      if (stat((base + path).c_str(), &info) != 0)
        path.clear();
      limitFile = base + path + "/memory.limit_in_bytes";
      usageFile = base + path + "/memory.usage_in_bytes";
    } else {
      continue;
    }
    int64_t limit = readNumber(limitFile);
    if (limit < 0 || limit >= (int64_t(1) << 60))
      continue; // none
    return std::max<int64_t>(
        limit - std::max<int64_t>(readNumber(usageFile), 0), 0);
  }
  return -1;
}

/// What `resource` still allows, given the process's current use.
int64_t rlimitLeft(int resource, int64_t used) {
  struct rlimit limit;
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return -1;
  return std::max<int64_t>(int64_t(limit.rlim_cur) - std::max<int64_t>(used, 0),
                           0);
}

std::string mib(int64_t bytes) {
  return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB";
}
} // namespace

int64_t MemoryEstimate::total() const {
  return parameters + state + buffers + data + activations;
}

MemoryEstimate nnrt::estimateMemory(const ModelInfo &model,
                                    const Options &options) {
  MemoryEstimate e;
  for (const Parameter &p : model.parameters)
    (p.trainable ? e.parameters : e.state) += bytesOf(p.dtype, p.shape);
  Mode mode = options.mode;
  e.buffers = bufferBytes(model, describe(mode).entry);
  if (mode == Mode::Benchmark)
    e.buffers += bufferBytes(model, "forward_backward");
  if (mode == Mode::Train)
    e.buffers += bufferBytes(model, "eval");
  e.data = dataBytes(options);
  // On a device the compiled code's buffers are in the device's memory.
  if (model.target() != "cpu")
    return e;
  int64_t layers = 0;
  for (const Layer &layer : model.layers)
    layers += elementCount(layer.shape) * 4;
  // Training keeps every layer's output for the backward pass, which makes
  // a gradient of each and of every trainable parameter.
  e.activations =
      differentiates(model, mode) ? 2 * layers + e.parameters : layers;
  return e;
}

MemoryLimit nnrt::availableMemory(int64_t counted, int sharing) {
  MemoryLimit out;
  auto consider = [&](int64_t bytes, const std::string &what) {
    if (bytes >= 0 && (out.bytes < 0 || bytes < out.bytes)) {
      out.bytes = bytes;
      out.what = what;
    }
  };
  // The machine's memory and the cgroup's are shared with the other ranks
  // on this machine; the limits of the process are its own.
  auto share = [&](int64_t bytes, const char *what) {
    if (sharing <= 1 || bytes < 0)
      return consider(bytes, what);
    consider(bytes / sharing, std::string(what) + ", shared by " +
                                  std::to_string(sharing) +
                                  " ranks on this machine");
  };
  share(procField("/proc/meminfo", "MemAvailable"),
        "MemAvailable in /proc/meminfo");
  // Allocated memory is not resident until it is written: MemAvailable
  // does not count it, the address-space and data-size limits do.
  consider(
      rlimitLeft(RLIMIT_AS, procField("/proc/self/status", "VmSize") - counted),
      "the address-space limit, ulimit -v");
  consider(rlimitLeft(RLIMIT_DATA,
                      procField("/proc/self/status", "VmData") - counted),
           "the data-size limit, ulimit -d");
  share(cgroupLeft(), "the cgroup's memory limit");
  return out;
}

std::string nnrt::memoryShortage(const MemoryEstimate &e,
                                 const MemoryLimit &limit) {
  if (limit.bytes < 0 || e.total() <= limit.bytes)
    return "";
  return "this run needs about " + mib(e.total()) + " (parameters " +
         mib(e.parameters) + ", optimizer state and statistics " +
         mib(e.state) + ", entry-point buffers " + mib(e.buffers) + ", data " +
         mib(e.data) + ", activations " + mib(e.activations) + ") but only " +
         mib(limit.bytes) + " are available (" + limit.what +
         "); --no-memory-check runs it anyway";
}
