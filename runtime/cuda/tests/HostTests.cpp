//===- HostTests.cpp - the CUDA runtime's checks that need no GPU ---------===//
//
// Part of nnc's runtime (the CUDA runtime's tests). Descriptor reading, the
// pool's bookkeeping through a fake backend, plan keys and engine filters,
// messages, module registration before any CUDA call, and the batch-norm
// reference.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "Reference.h"

#include "ConvPlan.h"
#include "DeviceSession.h"
#include "Memref.h"
#include "Pool.h"

#include "nnrt/cuda/Abi.h"

#include <cmath>

using namespace nnrt::cuda;
using namespace nnrt::cuda::test;

namespace {
void testViews() {
  float data[64];
  View v;
  std::string error;
  int64_t sizes[4] = {2, 2, 2, 3}, strides[4] = {12, 6, 3, 1};
  check(readView(data, 5, sizes, strides, 4, 4, "x", v, error) &&
            v.data == reinterpret_cast<char *>(data + 5) &&
            v.shape() == "[2, 2, 2, 3]" && v.count() == 24,
        "a dense NHWC descriptor reads with its offset: " + error);

  int64_t ones[4] = {1, 4, 1, 3}, oddStrides[4] = {99, 3, 7, 1};
  check(readView(data, 0, ones, oddStrides, 4, 4, "x", v, error),
        "dimensions of one element may have any stride: " + error);

  int64_t padded[2] = {4, 5}, pitch[2] = {8, 1};
  check(!readView(data, 0, padded, pitch, 2, 4, "a", v, error) &&
            error == "operand 'a' is not a dense row-major buffer: sizes "
                     "[4, 5], strides [8, 1] (expected [5, 1])",
        "a strided view is refused, naming the operand: " + error);

  int64_t colMajor[2] = {1, 4};
  check(!readView(data, 0, padded, colMajor, 2, 4, "b", v, error) &&
            error.find("operand 'b' is not a dense row-major") == 0,
        "a transposed layout is refused");
  check(!readView(nullptr, 0, sizes, strides, 4, 4, "y", v, error) &&
            error == "operand 'y' has no data",
        "a descriptor without data is refused: " + error);

  NnrtDesc2 d{data, data, 2, {3, 4}, {4, 1}};
  check(
      readView(d.aligned, d.offset, d.sizes, d.strides, 2, 2, "c", v, error) &&
          v.data == reinterpret_cast<char *>(data) + 4,
      "the offset counts elements of the operand's size (bf16: 2 bytes)");
}

/// Hands out fake addresses and counts them.
class FakeBackend final : public PoolBackend {
public:
  bool capture = false;
  size_t allocations = 0, limit = SIZE_MAX, used = 0;
  void *allocate(size_t bytes, std::string &error) override {
    if (used + bytes > limit) {
      error = "fake out of memory";
      return nullptr;
    }
    used += bytes;
    ++allocations;
    next += (bytes + 255) / 256 * 256 + 256;
    return reinterpret_cast<void *>(next);
  }
  bool capturing() override { return capture; }

private:
  uintptr_t next = 0x10000;
};

void testPool() {
  check(Pool::sizeClass(0) == 512 && Pool::sizeClass(1) == 512 &&
            Pool::sizeClass(513) == 1024 && Pool::sizeClass(1 << 20) == 1 << 20,
        "small blocks are rounded to 512 bytes");
  check(Pool::sizeClass((1 << 20) + 1) == (1 << 20) + (1 << 17) &&
            Pool::sizeClass(3 << 20) == 3 << 20 &&
            Pool::sizeClass((3 << 20) + 1) == (3 << 20) + (1 << 18),
        "large blocks take eight classes per power of two");
  bool bounded = true;
  for (size_t bytes = 1; bytes < (size_t(1) << 34); bytes = bytes * 3 + 7)
    bounded &= Pool::sizeClass(bytes) >= bytes &&
               Pool::sizeClass(bytes) <= bytes + bytes / 8 + 512;
  check(bounded, "a class wastes at most an eighth (or 512 bytes)");

  FakeBackend backend;
  Pool pool(backend);
  std::string error;
  void *a = pool.allocate(1000, error), *b = pool.allocate(5000, error);
  check(a && b && a != b && backend.allocations == 2 &&
            pool.stats().inUse == 2 && pool.stats().inUseBytes == 1024 + 5120,
        "fresh blocks come from the backend");
  check(pool.release(a) && !pool.release(a) && !pool.release(&error),
        "a block is released once; unknown pointers are refused");
  void *c = pool.allocate(900, error);
  check(c == a && backend.allocations == 2 && pool.stats().reused == 1,
        "a freed block of the same class is reused without the backend");
  pool.release(b);
  pool.release(c);
  check(pool.stats().inUse == 0 && pool.stats().cached == 2 &&
            pool.stats().cachedBytes == 1024 + 5120,
        "freed blocks stay cached: nothing goes back to the backend");

  // A warm-up fills the pool; the same requests during a capture are served
  // without a fresh block, and a smaller class may take a larger block.
  backend.capture = true;
  void *d = pool.allocate(5000, error), *e = pool.allocate(700, error);
  check(d == b && e == a && backend.allocations == 2,
        "a capture is served from the cache");
  pool.release(e);
  void *f = pool.allocate(3000, error);
  check(f == nullptr, "no block fits: nothing is allocated during a capture");
  check(error.find("while a CUDA graph is being captured") != std::string::npos,
        "the capture failure says why: " + error);
  pool.release(d);
  void *g = pool.allocate(3000, error);
  check(g == b && backend.allocations == 2,
        "a larger cached block serves during a capture");
  pool.release(g);
  backend.capture = false;

  FakeBackend small;
  small.limit = 4096;
  Pool tight(small);
  check(!tight.allocate(10000, error) &&
            error.find("cannot allocate 10240 bytes of device memory (fake out "
                       "of memory;") == 0,
        "an allocation failure names the size and the backend's reason: " +
            error);
}

void testPlans() {
  ConvProblem p;
  p.kind = ConvKind::BackwardFilter;
  p.n = 2, p.h = 7, p.w = 9, p.c = 3, p.kh = 3, p.kw = 2, p.f = 5;
  p.oh = 4, p.ow = 3;
  p.stride[0] = 2, p.stride[1] = 3, p.pad[0] = 1;
  p.math = 2;
  check(p.describe() == "x [2, 7, 9, 3], dy [2, 4, 3, 5], dw [3, 2, 3, 5], "
                        "stride 2x3, dilation 1x1, padding 1x0, bf16",
        "a convolution describes itself in its call's terms: " + p.describe());
  ConvProblem q = p;
  q.math = 1;
  ConvProblem r = p;
  r.alignX = 16;
  check(p.key() != q.key() && p.key() != r.key() &&
            p.key() == ConvProblem(p).key(),
        "plans are keyed by precision and alignment too");

  using N = std::vector<cudnnBackendNumericalNote_t>;
  N tf32 = {CUDNN_NUMERICAL_NOTE_TENSOR_CORE,
            CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS};
  N halfSums = {CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION};
  N winograd = {CUDNN_NUMERICAL_NOTE_WINOGRAD};
  check(!engineAllowed(tf32, 0) && engineAllowed(tf32, 1) &&
            engineAllowed(tf32, 2),
        "strict fp32 refuses engines that down-convert their inputs");
  check(!engineAllowed(halfSums, 0) && !engineAllowed(halfSums, 1) &&
            !engineAllowed(halfSums, 2) && engineAllowed(winograd, 0),
        "no mode takes reduced-precision sums");
}

void testMessages() {
  check(errorLine(Site{"nnrt_cuda_conv2d", "conv1 (models/alexnet.nn:10:1)"},
                  "cudnnBackendExecute in nnrt_cuda_conv2d",
                  "CUDNN_STATUS_EXECUTION_FAILED") ==
            "nnrt: error: cudnnBackendExecute in nnrt_cuda_conv2d for layer "
            "'conv1 (models/alexnet.nn:10:1)': CUDNN_STATUS_EXECUTION_FAILED",
        "an error names the call and the layer");
  check(errorLine(Site{"mgpuMemAlloc"}, "mgpuMemAlloc", "out of memory") ==
            "nnrt: error: mgpuMemAlloc: out of memory",
        "a call without a layer says so");
  check(cudaVersion(13000) == "13.0" && cudaVersion(12080) == "12.8" &&
            libraryVersion(91900) == "9.19.0" &&
            libraryVersion(130100) == "13.1.0",
        "versions are formatted as their libraries do");
}

void testModules() {
  // What gpu.binary's constructors and destructors do before main and at
  // exit: nothing may touch CUDA, fail or print.
  static const char blob[] = "not loaded", other[] = "other";
  void *m = mgpuModuleLoad(const_cast<char *>(blob), sizeof blob);
  check(m != nullptr, "a module is registered without CUDA");
  check(mgpuModuleLoad(const_cast<char *>(blob), sizeof blob) == m &&
            mgpuModuleLoadJIT(const_cast<char *>(blob), 2) == m &&
            mgpuModuleLoad(const_cast<char *>(other), sizeof other) != m,
        "a blob registered again is the same module");
  for (int i = 0; i < 3; ++i)
    mgpuModuleUnload(m);
  mgpuModuleUnload(nullptr);
  check(true, "unloading never touches CUDA");
}
/// The batch-norm reference the GPU tests trust: hand-computed statistics,
/// and the gradient's identities (dx sums to zero over a channel and is
/// orthogonal to xhat; doffset and dscale are the plain sums).
void testBatchNormReference() {
  BatchNormShape s{4, 2, 0.0};
  std::vector<float> x = {1, 2, 2, -2, 3, 2, 4, 2}, scale = {2, 1},
                     offset = {0.5f, -1};
  BatchNormStats t = batchNormTrain(s, x, scale, offset);
  checkClose(t.mean, {2.5f, 1.0f}, 1e-7, "batch-norm reference: mean");
  checkClose(t.variance, {1.25f, 3.0f}, 1e-7,
             "batch-norm reference: biased variance");
  checkClose(
      {t.y[0], t.y[1]},
      {float(2 * -1.5 / std::sqrt(1.25) + 0.5), float(1 / std::sqrt(3.0) - 1)},
      1e-6, "batch-norm reference: output");
  std::vector<float> dy = {0.5f, 1, -1, 2, 0.25f, -3, 3, 1};
  BatchNormGrads g = batchNormGrad(s, x, scale, t.mean, t.variance, dy);
  double sum[2] = {0, 0}, dot[2] = {0, 0};
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t c = 0; c < 2; ++c) {
      sum[c] += g.dx[i * 2 + c];
      dot[c] += g.dx[i * 2 + c] * (x[i * 2 + c] - t.mean[c]);
    }
  check(std::fabs(sum[0]) + std::fabs(sum[1]) < 1e-5 &&
            std::fabs(dot[0]) + std::fabs(dot[1]) < 1e-5,
        "batch-norm reference: dx is centred and orthogonal to xhat");
  checkClose(g.doffset, {2.75f, 1.0f}, 1e-7,
             "batch-norm reference: offset gradient");
  double dscale0 =
      (0.5 * -1.5 - 1 * -0.5 + 0.25 * 0.5 + 3 * 1.5) / std::sqrt(1.25);
  checkClose({g.dscale[0]}, {float(dscale0)}, 1e-6,
             "batch-norm reference: scale gradient");
}
} // namespace

void nnrt::cuda::test::runHostTests() {
  testViews();
  testPool();
  testPlans();
  testMessages();
  testModules();
  testBatchNormReference();
}
