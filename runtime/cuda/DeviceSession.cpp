//===- DeviceSession.cpp - a compiled model's state on the GPU ------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a).
//
//===----------------------------------------------------------------------===//

#include "DeviceSession.h"
#include "Graph.h"
#include "Nccl.h"
#include "Runtime.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

using namespace nnrt;
using namespace nnrt::cuda;

std::string nnrt::cuda::cudaVersion(int version) {
  return std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10);
}

std::string nnrt::cuda::libraryVersion(size_t version) {
  return std::to_string(version / 10000) + "." +
         std::to_string(version % 10000 / 100) + "." +
         std::to_string(version % 100);
}

namespace {
/// Device memory of one tensor and its memref descriptor.
struct Buffer {
  void *data = nullptr;
  size_t bytes = 0;
  std::vector<int64_t> descriptor;

  Buffer(size_t size, const Shape &shape, const Site &site) : bytes(size) {
    // Empty tensors still get a valid, distinct address.
    // Everything runs on the compute stream, which does not wait for the
    // legacy default stream: the zeroing is ordered there too.
    check(cudaMalloc(&data, bytes ? bytes : 256), "cudaMalloc", site);
    check(cudaMemsetAsync(data, 0, bytes ? bytes : 256, stream()),
          "cudaMemsetAsync", site);
    describe(shape);
  }

  /// A part of another buffer, at `at`.
  Buffer(void *at, size_t size, const Shape &shape) : data(at), bytes(size) {
    describe(shape);
  }

private:
  void describe(const Shape &shape) {
    size_t rank = shape.size();
    descriptor.assign(3 + 2 * rank, 0);
    descriptor[0] = descriptor[1] =
        static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
    int64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      descriptor[3 + i] = shape[i];
      descriptor[3 + rank + i] = stride;
      stride *= shape[i];
    }
  }
};

/// A host tensor and its device buffer; `staging` is pinned host memory
/// when the copy happens every step.
struct Transfer {
  Tensor *host;
  void *device;
  void *staging;
  size_t bytes;
  bool everyStep = false;
};

void *pinned(size_t bytes, const Site &site) {
  void *p = nullptr;
  check(cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocDefault),
        "cudaHostAlloc", site);
  return p;
}

class DeviceCall {
public:
  Call *call = nullptr;
  std::string name; // "entry point 'forward'", for messages
  std::vector<std::unique_ptr<Buffer>> owned;
  std::vector<void *> descriptors;
  /// What a step enqueues, when more than the call's entry point.
  std::function<void()> work;
  std::vector<Transfer> uploads, stepDownloads, outputs;

  void run() {
    Site site{name.c_str()};
    cudaStream_t s = stream();
    for (Transfer &t : uploads) {
      if (runs > 0 && !t.everyStep)
        continue; // still on the device
      const void *from = t.host->data();
      if (t.staging) {
        std::memcpy(t.staging, from, t.bytes);
        from = t.staging;
      }
      check(cudaMemcpyAsync(t.device, from, t.bytes, cudaMemcpyHostToDevice, s),
            "cudaMemcpyAsync", site);
    }
    enqueue(site);
    for (Transfer &t : stepDownloads)
      check(cudaMemcpyAsync(t.staging, t.device, t.bytes,
                            cudaMemcpyDeviceToHost, s),
            "cudaMemcpyAsync", site);
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize", site);
    for (Transfer &t : stepDownloads)
      std::memcpy(t.host->data(), t.staging, t.bytes);
    ++runs;
  }

  void downloadOutputs() {
    Site site{name.c_str()};
    for (Transfer &t : outputs)
      check(cudaMemcpyAsync(t.host->data(), t.device, t.bytes,
                            cudaMemcpyDeviceToHost, stream()),
            "cudaMemcpyAsync", site);
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize", site);
  }

private:
  int64_t runs = 0;
  StepGraph graph;
  bool graphFailed = false;

  /// The first run is plain (plans chosen, pool filled); the second is
  /// captured, and every later one replays the graph.
  void enqueue(const Site &site) {
    auto direct = [this] {
      if (work)
        return work();
      call->function()(descriptors.data());
    };
    if (runs == 0 || graphFailed || !graphsEnabled())
      return direct();
    std::string error;
    if (!graph.ready() && !graph.capture(direct, error)) {
      std::fprintf(stderr, "nnrt: warning: %s runs without a CUDA graph: %s\n",
                   name.c_str(), error.c_str());
      graphFailed = true;
      return direct();
    }
    if (!graph.launch(error))
      fail(site, error);
  }
};

class CudaDevice final : public nnrt::Device {
public:
  bool open(std::string &error) override {
    int count = 0;
    cudaError_t status = cudaGetDeviceCount(&count);
    if (status == cudaSuccess && count == 0)
      status = cudaErrorNoDevice;
    if (status != cudaSuccess) {
      error = std::string("no CUDA device is visible (") +
              cudaGetErrorString(status) + ")";
      return false;
    }
    status = cudaSetDevice(localDevice(count));
    if (status == cudaSuccess)
      status = cudaFree(nullptr); // creates the context now, not mid-step
    if (status != cudaSuccess) {
      error = "cannot initialise CUDA device " +
              std::to_string(localDevice(count)) + " (" +
              cudaGetErrorString(status) + ")";
      return false;
    }
    stream();
    return true;
  }

  bool attach(Session &s, std::string &) override {
    session = &s;
    const ModelInfo &model = s.info();
    Site site{"the parameter upload"};
    for (size_t i = 0; i < model.parameters.size(); ++i) {
      Tensor &host = s.parameter(i);
      params.push_back(
          std::make_unique<Buffer>(host.bytes(), host.shape(), site));
      check(cudaMemcpyAsync(params.back()->data, host.data(), host.bytes(),
                            cudaMemcpyHostToDevice, stream()),
            "cudaMemcpyAsync", site);
      index[model.parameters[i].name] = i;
    }
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize", site);
    return true;
  }

  bool bind(Call &call, Uploads uploads, std::string &error) override {
    if (!session) {
      error = "the device has no parameters yet";
      return false;
    }
    auto dc = std::make_unique<DeviceCall>();
    dc->call = &call;
    dc->name = "entry point '" + call.entry().name + "'";
    if (!addArguments(*dc, call, uploads, {}, dc->descriptors, error))
      return false;
    DeviceCall *d = dc.get();
    call.setRunner([d] { d->run(); });
    calls.push_back(std::move(dc));
    return true;
  }

  bool bindAcrossRanks(Call &gradients, Call &apply, Uploads uploads,
                       const RankLink &link, std::string &error) override {
    if (!session) {
      error = "the device has no parameters yet";
      return false;
    }
    if (!sum.connect(link, error))
      return false;
    // Each gradient's slice of one buffer, 256-byte aligned.
    GradientLayout layout;
    if (!layOutGradients(gradients, apply, 64, layout, error))
      return false;
    Site site{"the data-parallel step"};
    int64_t total = layout.total;
    flat = std::make_unique<Buffer>(total * sizeof(float), Shape{total}, site);
    auto slices = [&](Call &call, const std::vector<size_t> &args) {
      std::map<size_t, std::unique_ptr<Buffer>> out;
      for (size_t k = 0; k < args.size(); ++k)
        out[args[k]] = std::make_unique<Buffer>(
            static_cast<float *>(flat->data) + layout.offsets[k],
            call.at(args[k]).bytes(), call.at(args[k]).shape());
      return out;
    };
    auto gradientSlices = slices(gradients, layout.outputs);
    auto inputSlices = slices(apply, layout.inputs);
    auto dc = std::make_unique<DeviceCall>();
    dc->call = &gradients;
    dc->name = "the data-parallel step";
    auto applyDescriptors = std::make_shared<std::vector<void *>>();
    if (!addArguments(*dc, gradients, uploads, std::move(gradientSlices),
                      dc->descriptors, error) ||
        !addArguments(*dc, apply, Uploads::Once, std::move(inputSlices),
                      *applyDescriptors, error))
      return false;
    DeviceCall *d = dc.get();
    PackedFn applyFn = apply.function();
    float *sums = static_cast<float *>(flat->data);
    d->work = [d, applyFn, applyDescriptors, sums, total, this] {
      d->call->function()(d->descriptors.data());
      sum.enqueue(sums, static_cast<size_t>(total));
      applyFn(applyDescriptors->data());
    };
    gradients.setRunner([d] { d->run(); });
    calls.push_back(std::move(dc));
    return true;
  }

  void downloadParameters() override {
    Site site{"the parameter download"};
    for (size_t i = 0; i < params.size(); ++i)
      check(cudaMemcpyAsync(session->parameter(i).data(), params[i]->data,
                            params[i]->bytes, cudaMemcpyDeviceToHost, stream()),
            "cudaMemcpyAsync", site);
    check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize", site);
  }

  void downloadOutputs(Call &call) override {
    for (auto &dc : calls)
      if (dc->call == &call)
        dc->downloadOutputs();
  }

  Json describe() override {
    Site site{"the device description"};
    int d = device(), smClock = 0, memoryClock = 0, driver = 0, runtime = 0;
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, d), "cudaGetDeviceProperties", site);
    check(cudaDeviceGetAttribute(&smClock, cudaDevAttrClockRate, d),
          "cudaDeviceGetAttribute", site);
    check(cudaDeviceGetAttribute(&memoryClock, cudaDevAttrMemoryClockRate, d),
          "cudaDeviceGetAttribute", site);
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion", site);
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion", site);
    Json out = Json::makeObject();
    out["name"] = std::string(prop.name);
    out["compute_capability"] =
        std::to_string(prop.major) + "." + std::to_string(prop.minor);
    out["multiprocessors"] = prop.multiProcessorCount;
    out["memory_bytes"] = static_cast<int64_t>(prop.totalGlobalMem);
    out["sm_clock_mhz"] = smClock / 1000.0;
    out["memory_clock_mhz"] = memoryClock / 1000.0;
    out["driver"] = cudaVersion(driver);
    out["runtime"] = cudaVersion(runtime);
    out["cudnn"] = libraryVersion(cudnnGetVersion());
    out["cublas"] = libraryVersion(cublasLtGetVersion());
    out["graphs"] = graphsEnabled();
    return out;
  }

private:
  /// Device buffers for the arguments of `call` (the session's for its
  /// parameters, `shared` ones where given, else new ones), their
  /// descriptors appended to `descriptors`, and the transfers `dc` makes.
  bool addArguments(DeviceCall &dc, Call &call, Uploads uploads,
                    std::map<size_t, std::unique_ptr<Buffer>> shared,
                    std::vector<void *> &descriptors, std::string &error) {
    Site site{dc.name.c_str()};
    for (size_t i = 0; i < call.size(); ++i) {
      const Argument &a = call.entry().args[i];
      Tensor &host = call.at(i);
      if (a.role == "param") {
        auto it = index.find(a.name);
        if (it == index.end()) {
          error = dc.name + " takes parameter '" + a.name +
                  "', which the model does not declare";
          return false;
        }
        descriptors.push_back(params[it->second]->descriptor.data());
        continue;
      }
      if (auto it = shared.find(i); it != shared.end()) {
        dc.owned.push_back(std::move(it->second));
        descriptors.push_back(dc.owned.back()->descriptor.data());
        continue; // computed and read on the device only
      }
      dc.owned.push_back(
          std::make_unique<Buffer>(host.bytes(), host.shape(), site));
      Buffer &b = *dc.owned.back();
      descriptors.push_back(b.descriptor.data());
      if (a.role == "input" || a.role == "labels") {
        bool everyStep = uploadsEveryStep(uploads, a.role);
        dc.uploads.push_back({&host, b.data,
                              everyStep ? pinned(b.bytes, site) : nullptr,
                              b.bytes, everyStep});
      }
      if (a.role != "output")
        continue;
      dc.outputs.push_back({&host, b.data, nullptr, b.bytes});
      if (a.name == "loss" || a.name == "correct")
        dc.stepDownloads.push_back(
            {&host, b.data, pinned(b.bytes, site), b.bytes});
    }
    return true;
  }

  Session *session = nullptr;
  GradientSum sum;              // across the ranks of a data-parallel run
  std::unique_ptr<Buffer> flat; // their gradients
  std::vector<std::unique_ptr<Buffer>> params; // in declaration order
  std::map<std::string, size_t> index;
  std::vector<std::unique_ptr<DeviceCall>> calls;
};
} // namespace

std::unique_ptr<nnrt::Device> nnrt::cuda::makeCudaDevice() {
  return std::make_unique<CudaDevice>();
}
