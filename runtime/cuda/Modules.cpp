//===- Modules.cpp - MLIR's GPU runtime ABI: modules and launches ---------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). gpu.binary's static constructors
// register the model's GPU code before main with mgpuModuleLoad, which only
// records it: a program without a GPU must reach main and say so cleanly.
// The code is loaded (cudaLibraryLoadData takes fatbin, cubin or PTX) when
// the first kernel is asked for, and kernels are cached per name.
//
// A blob is registered once however often it is loaded (code that loads
// and unloads its module around every launch gets the same module each
// time), and loaded code stays until the process exits: mgpuModuleUnload
// only drops a registration, so a captured CUDA graph never refers to
// unloaded kernels and no static destructor calls into CUDA.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include "nnrt/cuda/Abi.h"

#include <map>
#include <mutex>
#include <string>

using namespace nnrt::cuda;

namespace {
struct Kernel {
  cudaKernel_t handle = nullptr;
  std::string name;
  int32_t sharedMemory = 48 * 1024; // dynamic shared memory it may use
};

struct Module {
  Module(const void *data, size_t size) : data(data), size(size) {}
  const void *data;
  size_t size;
  int64_t registrations = 0;
  cudaLibrary_t library = nullptr;
  std::map<std::string, Kernel> kernels;
};

std::mutex &lock() {
  static std::mutex *m = new std::mutex;
  return *m;
}

/// Every blob ever registered, by address; never freed.
std::map<const void *, Module *> &modules() {
  static auto *m = new std::map<const void *, Module *>;
  return *m;
}

Module *registerBlob(const void *data, size_t size) {
  std::lock_guard<std::mutex> guard(lock());
  Module *&m = modules()[data];
  if (!m)
    m = new Module(data, size);
  ++m->registrations;
  return m;
}

void load(Module &m, const Site &site) {
  stream(); // initialises the device first, with its own clear error
  cudaError_t status = cudaLibraryLoadData(&m.library, m.data, nullptr, nullptr,
                                           0, nullptr, nullptr, 0);
  if (status == cudaSuccess)
    return;
  cudaDeviceProp prop{};
  std::string device;
  if (cudaGetDeviceProperties(&prop, nnrt::cuda::device()) == cudaSuccess)
    device = std::string("; the device is ") + prop.name + ", sm_" +
             std::to_string(prop.major) + std::to_string(prop.minor);
  fail(site, "cudaLibraryLoadData",
       std::string(cudaGetErrorString(status)) + " (the model's GPU code, " +
           std::to_string(m.size) + " bytes" + device + ")");
}
} // namespace

extern "C" void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  return registerBlob(data, gpuBlobSize);
}

// What MLIR emits for PTX objects (format "isa"): the PTX is NUL-terminated
// and cudaLibraryLoadData JIT-compiles it at the driver's default level.
extern "C" void *mgpuModuleLoadJIT(void *data, int /*optLevel*/) {
  return registerBlob(data, 0);
}

extern "C" void mgpuModuleUnload(void *module) {
  if (!module)
    return;
  std::lock_guard<std::mutex> guard(lock());
  --static_cast<Module *>(module)->registrations;
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  Site site{"mgpuModuleGetFunction"};
  auto *m = static_cast<Module *>(module);
  if (!m || !name)
    fail(site, "no module or kernel name");
  std::lock_guard<std::mutex> guard(lock());
  auto it = m->kernels.find(name);
  if (it != m->kernels.end())
    return &it->second;
  if (!m->library)
    load(*m, site);
  Kernel k;
  k.name = name;
  cudaError_t status = cudaLibraryGetKernel(&k.handle, m->library, name);
  if (status != cudaSuccess)
    fail(site, "cudaLibraryGetKernel",
         std::string(cudaGetErrorString(status)) + " (kernel '" + name + "')");
  return &m->kernels.emplace(name, std::move(k)).first->second;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *s, void **params, void **extra, size_t) {
  Site site{"mgpuLaunchKernel"};
  auto *k = static_cast<Kernel *>(function);
  if (!k)
    fail(site, "no kernel");
  if (extra)
    fail(site, "kernel '" + k->name +
                   "' was given `extra` launch parameters; the runtime "
                   "passes kernel arguments through `params` only");
  for (intptr_t d : {gridX, gridY, gridZ, blockX, blockY, blockZ})
    if (d < 1 || d > INT32_MAX)
      fail(site, "kernel '" + k->name + "' has a launch dimension of " +
                     std::to_string(d));
  if (smem > k->sharedMemory) {
    check(cudaKernelSetAttributeForDevice(
              k->handle, cudaFuncAttributeMaxDynamicSharedMemorySize, smem,
              device()),
          "cudaKernelSetAttributeForDevice", site);
    k->sharedMemory = smem;
  }
  dim3 grid(static_cast<unsigned>(gridX), static_cast<unsigned>(gridY),
            static_cast<unsigned>(gridZ));
  dim3 block(static_cast<unsigned>(blockX), static_cast<unsigned>(blockY),
             static_cast<unsigned>(blockZ));
  cudaError_t status =
      cudaLaunchKernel(reinterpret_cast<const void *>(k->handle), grid, block,
                       params, static_cast<size_t>(smem < 0 ? 0 : smem),
                       s ? static_cast<cudaStream_t>(s) : stream());
  if (status != cudaSuccess)
    fail(site, "cudaLaunchKernel",
         std::string(cudaGetErrorString(status)) + " (kernel '" + k->name +
             "')");
}
