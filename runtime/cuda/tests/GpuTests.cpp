//===- GpuTests.cpp - the CUDA runtime's calls against CPU references -----===//
//
// Part of nnc's runtime (the CUDA runtime's tests). Small random shapes
// (strides that do not divide, dilation, padding), every precision mode
// (fp32 within 1e-4, tf32 and bf16 within 1e-2 of the reference), the MLIR
// ABI's memory, event and module functions, the pool, and a graph capture
// replayed against direct calls.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "Reference.h"

#include "Graph.h"
#include "Pool.h"
#include "Runtime.h"

#include "nnrt/cuda/Abi.h"

#include <cmath>
#include <cstring>

using namespace nnrt::cuda;
using namespace nnrt::cuda::test;

namespace {
const char *kLayer = "test (nnrt-cuda-tests)";
const double kTolerance[] = {1e-4, 1e-2, 1e-2}; // by math mode
const char *kMode[] = {"fp32", "tf32", "bf16"};

void sync() {
  check(cudaStreamSynchronize(stream()), "cudaStreamSynchronize",
        Site{"nnrt-cuda-tests"});
}

/// A device buffer of f32 or bf16 elements, outside the pool.
class Buffer {
public:
  Buffer(std::vector<int64_t> shape, bool bf16 = false)
      : dims(std::move(shape)), half(bf16) {
    count = 1;
    for (int64_t d : dims)
      count *= d;
    check(cudaMalloc(&ptr, bytes() ? bytes() : 256), "cudaMalloc",
          Site{"nnrt-cuda-tests"});
  }
  ~Buffer() { cudaFree(ptr); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;

  size_t bytes() const { return count * (half ? 2 : 4); }
  void *data() const { return ptr; }

  void upload(const std::vector<float> &v) {
    std::vector<uint16_t> h(v.size());
    for (size_t i = 0; i < v.size(); ++i)
      h[i] = toBf16(v[i]);
    const void *from = half ? static_cast<const void *>(h.data()) : v.data();
    // On the compute stream: it does not wait for the legacy stream.
    check(cudaMemcpyAsync(ptr, from, bytes(), cudaMemcpyHostToDevice, stream()),
          "cudaMemcpyAsync", Site{"nnrt-cuda-tests"});
    sync();
  }
  std::vector<float> download() const {
    sync();
    std::vector<float> v(count);
    std::vector<uint16_t> h(count);
    void *to = half ? static_cast<void *>(h.data()) : v.data();
    check(cudaMemcpyAsync(to, ptr, bytes(), cudaMemcpyDeviceToHost, stream()),
          "cudaMemcpyAsync", Site{"nnrt-cuda-tests"});
    sync();
    if (half)
      for (size_t i = 0; i < count; ++i)
        v[i] = fromBf16(h[i]);
    return v;
  }

  NnrtDesc1 d1() const { return {ptr, ptr, 0, {dims[0]}, {1}}; }
  NnrtDesc2 d2() const {
    return {ptr, ptr, 0, {dims[0], dims[1]}, {dims[1], 1}};
  }
  NnrtDesc4 d4() const {
    return {ptr,
            ptr,
            0,
            {dims[0], dims[1], dims[2], dims[3]},
            {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1}};
  }

private:
  std::vector<int64_t> dims;
  bool half;
  size_t count;
  void *ptr = nullptr;
};

std::mt19937 rng(2024);

/// Random data as a buffer of `math`'s storage holds it.
std::vector<float> data(size_t n, int64_t math) {
  std::vector<float> v = randomVector(n, rng);
  return math == 2 ? roundedToBf16(v) : v;
}

void testConvolutions() {
  const ConvShape shapes[] = {
      // strides that do not divide, asymmetric kernel, padding in H only
      {2, 7, 9, 3, 3, 2, 5, 2, 3, 1, 1, 1, 0},
      // dilation with padding
      {1, 8, 8, 4, 3, 3, 6, 1, 1, 2, 2, 2, 2},
      // AlexNet's conv1, small: 11x11 stride 4
      {2, 23, 23, 3, 11, 11, 8, 4, 4, 1, 1, 2, 2},
      // 1x1, more channels
      {3, 5, 4, 16, 1, 1, 8, 1, 1, 1, 1, 0, 0},
  };
  for (const ConvShape &s : shapes)
    for (int64_t math = 0; math < 3; ++math) {
      bool bf16 = math == 2;
      std::string name =
          "conv N" + std::to_string(s.n) + " " + std::to_string(s.h) + "x" +
          std::to_string(s.w) + "x" + std::to_string(s.c) + " k" +
          std::to_string(s.kh) + "x" + std::to_string(s.kw) + " s" +
          std::to_string(s.strideH) + "x" + std::to_string(s.strideW) + " d" +
          std::to_string(s.dilationH) + " " + kMode[math];
      Buffer x({s.n, s.h, s.w, s.c}, bf16), w({s.kh, s.kw, s.c, s.f}, bf16),
          y({s.n, s.oh(), s.ow(), s.f}, bf16), dx({s.n, s.h, s.w, s.c}, bf16),
          dw({s.kh, s.kw, s.c, s.f}, bf16),
          dy({s.n, s.oh(), s.ow(), s.f}, bf16);
      std::vector<float> xv = data(s.n * s.h * s.w * s.c, math),
                         wv = data(s.kh * s.kw * s.c * s.f, math),
                         dyv = data(s.n * s.oh() * s.ow() * s.f, math);
      x.upload(xv), w.upload(wv), dy.upload(dyv);
      NnrtDesc4 xd = x.d4(), wd = w.d4(), yd = y.d4(), dxd = dx.d4(),
                dwd = dw.d4(), dyd = dy.d4();
      _mlir_ciface_nnrt_cuda_conv2d(&xd, &wd, &yd, s.strideH, s.strideW,
                                    s.dilationH, s.dilationW, s.padH, s.padW,
                                    math, kLayer);
      _mlir_ciface_nnrt_cuda_conv2d_backprop_input(
          &dyd, &wd, &dxd, s.strideH, s.strideW, s.dilationH, s.dilationW,
          s.padH, s.padW, math, kLayer);
      _mlir_ciface_nnrt_cuda_conv2d_backprop_filter(
          &xd, &dyd, &dwd, s.strideH, s.strideW, s.dilationH, s.dilationW,
          s.padH, s.padW, math, kLayer);
      checkClose(y.download(), convForward(s, xv, wv), kTolerance[math],
                 name + " forward");
      checkClose(dx.download(), convBackwardData(s, dyv, wv), kTolerance[math],
                 name + " backprop input");
      checkClose(dw.download(), convBackwardFilter(s, xv, dyv),
                 kTolerance[math], name + " backprop filter");
    }
}

void testPooling() {
  const PoolShape shapes[] = {
      {2, 7, 6, 3, 3, 3, 2, 2, 1, 1, true},
      {2, 7, 6, 3, 3, 3, 2, 2, 1, 1, false},
      {1, 9, 5, 4, 2, 3, 2, 1, 0, 1, true},
      {1, 9, 5, 4, 2, 3, 2, 1, 0, 1, false},
      {2, 13, 13, 2, 3, 3, 2, 2, 0, 0, true}, // AlexNet's 3/2 VALID
  };
  for (const PoolShape &s : shapes) {
    std::string name = std::string(s.max ? "max" : "average") + " pool " +
                       std::to_string(s.windowH) + "x" +
                       std::to_string(s.windowW) + " stride " +
                       std::to_string(s.strideH) + "x" +
                       std::to_string(s.strideW) + " pad " +
                       std::to_string(s.padH) + "x" + std::to_string(s.padW);
    Buffer x({s.n, s.h, s.w, s.c}), y({s.n, s.oh(), s.ow(), s.c}),
        dy({s.n, s.oh(), s.ow(), s.c}), dx({s.n, s.h, s.w, s.c});
    std::vector<float> xv = data(s.n * s.h * s.w * s.c, 0),
                       dyv = data(s.n * s.oh() * s.ow() * s.c, 0);
    x.upload(xv), dy.upload(dyv);
    NnrtDesc4 xd = x.d4(), yd = y.d4(), dyd = dy.d4(), dxd = dx.d4();
    int64_t mode = s.max ? 0 : 1;
    _mlir_ciface_nnrt_cuda_pool2d(&xd, &yd, mode, s.windowH, s.windowW,
                                  s.strideH, s.strideW, s.padH, s.padW, kLayer);
    _mlir_ciface_nnrt_cuda_pool2d_backward(&xd, &yd, &dyd, &dxd, mode,
                                           s.windowH, s.windowW, s.strideH,
                                           s.strideW, s.padH, s.padW, kLayer);
    checkClose(y.download(), poolForward(s, xv), 1e-5, name);
    checkClose(dx.download(), poolBackward(s, xv, dyv), 1e-5,
               name + " backward");
  }
}

void testLRN() {
  // Alpha large enough that dividing it by the window would show.
  const LRNParams params[] = {{2 * 3 * 4, 7, 2, 2.0, 0.3, 0.75},
                              {1 * 5 * 2, 12, 4, 1.0, 0.5, 0.75},
                              {2 * 2 * 2, 3, 0, 1.5, 0.2, 0.5}};
  for (const LRNParams &p : params) {
    std::string name = "LRN radius " + std::to_string(p.radius) + " over " +
                       std::to_string(p.c) + " channels";
    std::vector<int64_t> shape = {1, p.pixels / 2, 2, p.c};
    Buffer x(shape), y(shape), dy(shape), dx(shape);
    std::vector<float> xv = data(p.pixels * p.c, 0),
                       dyv = data(p.pixels * p.c, 0);
    x.upload(xv), dy.upload(dyv);
    NnrtDesc4 xd = x.d4(), yd = y.d4(), dyd = dy.d4(), dxd = dx.d4();
    _mlir_ciface_nnrt_cuda_lrn(&xd, &yd, p.radius, p.bias, p.alpha, p.beta,
                               kLayer);
    _mlir_ciface_nnrt_cuda_lrn_backward(&xd, &yd, &dyd, &dxd, p.radius, p.bias,
                                        p.alpha, p.beta, kLayer);
    checkClose(y.download(), lrnForward(p, xv), 1e-4, name);
    checkClose(dx.download(), lrnBackward(p, xv, dyv), 1e-4,
               name + " backward");
  }
}

/// Positive values around 1: scales, and variances to normalise with.
std::vector<float> positive(size_t n) {
  std::vector<float> v = data(n, 0);
  for (float &f : v)
    f = 1.0f + 0.5f * f;
  return v;
}

void testBatchNorm() {
  // NHWC images, a dense layer's [N, C] as [N, 1, 1, C], and one element
  // per channel (the biased variance is 0).
  const std::vector<int64_t> shapes[] = {
      {2, 5, 3, 7}, {16, 1, 1, 10}, {3, 4, 4, 64}, {1, 1, 1, 5}};
  for (const std::vector<int64_t> &shape : shapes) {
    BatchNormShape s{shape[0] * shape[1] * shape[2], shape[3], 1e-3};
    std::string name = "batch norm [" + std::to_string(shape[0]) + ", " +
                       std::to_string(shape[1]) + ", " +
                       std::to_string(shape[2]) + ", " +
                       std::to_string(shape[3]) + "]";
    Buffer x(shape), y(shape), dy(shape), dx(shape), scale({s.c}),
        offset({s.c}), mean({s.c}), variance({s.c}), invStd({s.c}),
        dscale({s.c}), doffset({s.c});
    // An offset from zero that a one-pass variance would lose precision on.
    std::vector<float> xv = data(s.pixels * s.c, 0);
    for (float &f : xv)
      f = 3.0f + 2.0f * f;
    std::vector<float> dyv = data(s.pixels * s.c, 0), scalev = positive(s.c),
                       offsetv = data(s.c, 0);
    x.upload(xv), dy.upload(dyv), scale.upload(scalev), offset.upload(offsetv);
    // Whatever the outputs held before must not matter.
    mean.upload(std::vector<float>(s.c, std::nanf("")));
    variance.upload(std::vector<float>(s.c, std::nanf("")));
    NnrtDesc4 xd = x.d4(), yd = y.d4(), dyd = dy.d4(), dxd = dx.d4();
    NnrtDesc1 scaled = scale.d1(), offsetd = offset.d1(), meand = mean.d1(),
              varianced = variance.d1(), invStdd = invStd.d1(),
              dscaled = dscale.d1(), doffsetd = doffset.d1();
    _mlir_ciface_nnrt_cuda_batch_norm_train(&xd, &scaled, &offsetd, &yd, &meand,
                                            &varianced, s.epsilon, kLayer);
    BatchNormStats want = batchNormTrain(s, xv, scalev, offsetv);
    checkClose(y.download(), want.y, 1e-4, name + " training output");
    checkClose(mean.download(), want.mean, 1e-4, name + " batch mean");
    checkClose(variance.download(), want.variance, 1e-4,
               name + " biased batch variance");

    std::vector<float> invStdv(s.c);
    for (int64_t c = 0; c < s.c; ++c)
      invStdv[c] = float(1 / std::sqrt(double(want.variance[c]) + s.epsilon));
    mean.upload(want.mean), invStd.upload(invStdv);
    _mlir_ciface_nnrt_cuda_batch_norm_backward(&xd, &scaled, &meand, &invStdd,
                                               &dyd, &dxd, &dscaled, &doffsetd,
                                               s.epsilon, kLayer);
    BatchNormGrads grads =
        batchNormGrad(s, xv, scalev, want.mean, want.variance, dyv);
    checkClose(dx.download(), grads.dx, 1e-4, name + " input gradient");
    checkClose(dscale.download(), grads.dscale, 1e-4, name + " scale gradient");
    checkClose(doffset.download(), grads.doffset, 1e-4,
               name + " offset gradient");

    std::vector<float> meanv = data(s.c, 0), variancev = positive(s.c);
    mean.upload(meanv), variance.upload(variancev);
    _mlir_ciface_nnrt_cuda_batch_norm(&xd, &scaled, &offsetd, &meand,
                                      &varianced, &yd, s.epsilon, kLayer);
    checkClose(y.download(),
               batchNormInference(s, xv, scalev, offsetv, meanv, variancev),
               1e-4, name + " inference");
  }
}

void testMatmul() {
  const int64_t m = 33, n = 17, k = 19;
  for (int64_t math = 0; math < 3; ++math)
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb)
        for (int epilogue = 0; epilogue < 3; ++epilogue) {
          bool bf16 = math == 2;
          Buffer a(ta ? std::vector<int64_t>{k, m} : std::vector<int64_t>{m, k},
                   bf16),
              b(tb ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n},
                bf16),
              bias({n}), c({m, n});
          std::vector<float> av = data(m * k, math), bv = data(k * n, math),
                             biasv = data(n, 0);
          a.upload(av), b.upload(bv), bias.upload(biasv);
          NnrtDesc2 ad = a.d2(), bd = b.d2(), cd = c.d2();
          NnrtDesc1 biasd = bias.d1();
          if (epilogue == 0)
            _mlir_ciface_nnrt_cuda_matmul(&ad, &bd, &cd, ta, tb, math, kLayer);
          else
            _mlir_ciface_nnrt_cuda_matmul_bias(&ad, &bd, &biasd, &cd, ta, tb,
                                               epilogue == 2, math, kLayer);
          std::string name = std::string("matmul ") + (ta ? "T" : "N") +
                             (tb ? "T" : "N") +
                             (epilogue == 1   ? " + bias"
                              : epilogue == 2 ? " + bias, ReLU"
                                              : "") +
                             " " + kMode[math];
          checkClose(c.download(),
                     matmul(m, n, k, ta, tb, av, bv,
                            epilogue ? &biasv : nullptr, epilogue == 2),
                     kTolerance[math], name);
        }
}

// A kernel in PTX (cudaLibraryLoadData JIT-compiles it): out[tid] = value.
const char kFillPtx[] = R"(.version 7.0
.target sm_52
.address_size 64

.visible .entry nnrt_test_fill(
	.param .u64 nnrt_test_fill_param_0,
	.param .u32 nnrt_test_fill_param_1
)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [nnrt_test_fill_param_0];
	ld.param.u32 	%r1, [nnrt_test_fill_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r2, %tid.x;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
	ret;
}
)";

void testMgpu() {
  check(mgpuStreamCreate() == stream(), "mgpuStreamCreate gives the stream");
  void *s = mgpuStreamCreate();
  auto *p = static_cast<uint32_t *>(mgpuMemAlloc(4096, s, false));
  auto *q = static_cast<uint32_t *>(mgpuMemAlloc(4096, s, false));
  mgpuMemset32(p, 0x3f800000u, 1024, s);
  mgpuMemcpy(q, p, 4096, s);
  mgpuMemset16(p, 0xabcd, 2048, s);
  mgpuStreamSynchronize(s);
  std::vector<uint32_t> host(1024);
  cudaMemcpy(host.data(), q, 4096, cudaMemcpyDeviceToHost);
  bool ones = true;
  for (uint32_t v : host)
    ones &= v == 0x3f800000u;
  check(ones, "mgpuMemset32 then mgpuMemcpy");
  cudaMemcpy(host.data(), p, 4096, cudaMemcpyDeviceToHost);
  bool halves = true;
  for (uint32_t v : host)
    halves &= v == 0xabcdabcdu;
  check(halves, "mgpuMemset16");

  void *e = mgpuEventCreate();
  mgpuEventRecord(e, s);
  mgpuStreamWaitEvent(s, e);
  mgpuEventSynchronize(e);
  mgpuEventDestroy(e);

  void *module = mgpuModuleLoad(const_cast<char *>(kFillPtx), sizeof kFillPtx);
  void *fill = mgpuModuleGetFunction(module, "nnrt_test_fill");
  check(fill && mgpuModuleGetFunction(module, "nnrt_test_fill") == fill,
        "kernels are cached per module and name");
  uint32_t value = 42;
  void *params[] = {&p, &value};
  // More than 48 KiB of dynamic shared memory needs the kernel's attribute.
  mgpuLaunchKernel(fill, 1, 1, 1, 256, 1, 1, 64 * 1024, s, params, nullptr, 2);
  mgpuStreamSynchronize(s);
  cudaMemcpy(host.data(), p, 1024, cudaMemcpyDeviceToHost);
  bool filled = true;
  for (int i = 0; i < 256; ++i)
    filled &= host[i] == 42;
  check(filled, "a PTX kernel loads, launches and writes");
  // Code that loads and unloads around every launch finds the same kernel.
  mgpuModuleUnload(module);
  void *again = mgpuModuleLoad(const_cast<char *>(kFillPtx), sizeof kFillPtx);
  check(mgpuModuleGetFunction(again, "nnrt_test_fill") == fill,
        "a module loaded again keeps its kernels");
  mgpuModuleUnload(again);

  mgpuMemFree(q, s);
  void *r = mgpuMemAlloc(4000, s, false);
  check(r == q, "a freed block is handed out again");
  mgpuMemFree(r, s);
  mgpuMemFree(p, s);
}

/// A few calls as compiled code makes them, with an intermediate from the
/// pool: conv -> max pool -> LRN, and a product with bias and ReLU.
struct Step {
  ConvShape conv{2, 9, 9, 3, 3, 3, 4, 1, 1, 1, 1, 1, 1};
  PoolShape pool{2, 9, 9, 4, 3, 3, 2, 2, 1, 1, true};
  Buffer x{{2, 9, 9, 3}}, w{{3, 3, 3, 4}}, y{{2, 5, 5, 4}}, z{{2, 5, 5, 4}};
  Buffer a{{8, 6}}, b{{6, 5}}, bias{{5}}, c{{8, 5}};

  void operator()() {
    void *s = mgpuStreamCreate();
    auto *t = mgpuMemAlloc(2 * 9 * 9 * 4 * 4, s, false);
    NnrtDesc4 xd = x.d4(), wd = w.d4(), yd = y.d4(), zd = z.d4();
    NnrtDesc4 td{t, t, 0, {2, 9, 9, 4}, {324, 36, 4, 1}};
    _mlir_ciface_nnrt_cuda_conv2d(&xd, &wd, &td, 1, 1, 1, 1, 1, 1, 0, kLayer);
    _mlir_ciface_nnrt_cuda_pool2d(&td, &yd, 0, 3, 3, 2, 2, 1, 1, kLayer);
    mgpuMemFree(t, s);
    _mlir_ciface_nnrt_cuda_lrn(&yd, &zd, 2, 1.0, 0.1, 0.75, kLayer);
    NnrtDesc2 ad = a.d2(), bd = b.d2(), cd = c.d2();
    NnrtDesc1 biasd = bias.d1();
    _mlir_ciface_nnrt_cuda_matmul_bias(&ad, &bd, &biasd, &cd, 0, 0, 1, 1,
                                       kLayer);
    mgpuStreamDestroy(s);
  }
};

void testGraph() {
  Step step;
  step.x.upload(data(2 * 9 * 9 * 3, 0));
  step.w.upload(data(3 * 3 * 3 * 4, 0));
  step.a.upload(data(8 * 6, 0));
  step.b.upload(data(6 * 5, 0));
  step.bias.upload(data(5, 0));
  step(); // the warm-up: plans chosen, the pool filled
  std::vector<float> z = step.z.download(), c = step.c.download();

  size_t fresh = devicePool().stats().fresh;
  StepGraph graph;
  std::string error;
  bool captured = graph.capture([&] { step(); }, error);
  check(captured, "a step is captured: " + error);
  check(devicePool().stats().fresh == fresh,
        "no fresh device memory is allocated during a capture");
  if (!captured)
    return;
  step.z.upload(std::vector<float>(2 * 5 * 5 * 4, 0));
  check(graph.launch(error), "the graph launches: " + error);
  checkClose(step.z.download(), z, 1e-6, "the replay equals the direct calls");
  checkClose(step.c.download(), c, 1e-6, "the replayed product");

  // The graph reads the buffers' current contents.
  step.x.upload(data(2 * 9 * 9 * 3, 0));
  check(graph.launch(error), "the graph launches again: " + error);
  std::vector<float> replayed = step.z.download();
  step();
  checkClose(replayed, step.z.download(), 1e-6,
             "a replay on new inputs equals the direct calls");
}
} // namespace

void nnrt::cuda::test::runGpuTests() {
  testMgpu();
  testConvolutions();
  testPooling();
  testLRN();
  testBatchNorm();
  testMatmul();
  testGraph();
}
