// A hand-written stand-in for an object compiled by `nnc --target=cuda`: a
// description with build.target "cuda" and entry points that call the CUDA
// runtime's ABI as compiled code does (a GPU module registered by a static
// constructor, the stream, pool allocations, library calls, a kernel).
//
//   forward:    output0 = relu(images x dense.weights + dense.biases)
//   train_step: counter += 1 (a kernel); loss = counter; correct = 7
//
// With -DNO_DEVICE_CODE the entry points do nothing and need no CUDA, for
// linking the bench without libnnrt_cuda.a.
#include <cstdint>

extern "C" const char nnc_model_json[] = R"({"interface": 1,
  "name": "cuda_fake", "batch_size": 2,
  "parameters": [
    {"name": "dense.weights", "shape": [4, 3], "dtype": "f32",
     "init": {"kind": "uniform", "min": -1, "max": 1}, "trainable": true},
    {"name": "dense.biases", "shape": [3], "dtype": "f32",
     "init": {"kind": "constant", "value": 0.25}, "trainable": true},
    {"name": "counter", "shape": [1], "dtype": "f32",
     "init": {"kind": "zeros"}, "trainable": false}],
  "entry_points": [
    {"name": "forward", "symbol": "_mlir_ciface_forward", "packed": "nnc_forward",
     "args": [
       {"role": "param", "name": "dense.weights", "shape": [4, 3], "dtype": "f32"},
       {"role": "param", "name": "dense.biases", "shape": [3], "dtype": "f32"},
       {"role": "param", "name": "counter", "shape": [1], "dtype": "f32"},
       {"role": "input", "name": "images", "shape": [2, 4], "dtype": "f32", "layout": "NC"},
       {"role": "output", "name": "output0", "shape": [2, 3], "dtype": "f32"}]},
    {"name": "train_step", "symbol": "_mlir_ciface_train_step", "packed": "nnc_train_step",
     "args": [
       {"role": "param", "name": "dense.weights", "shape": [4, 3], "dtype": "f32"},
       {"role": "param", "name": "dense.biases", "shape": [3], "dtype": "f32"},
       {"role": "param", "name": "counter", "shape": [1], "dtype": "f32"},
       {"role": "input", "name": "images", "shape": [2, 4], "dtype": "f32", "layout": "NC"},
       {"role": "labels", "name": "labels", "shape": [2], "dtype": "i32", "classes": 3},
       {"role": "output", "name": "loss", "shape": [], "dtype": "f32"},
       {"role": "output", "name": "correct", "shape": [], "dtype": "i32"}]}],
  "layers": [{"name": "dense", "op": "dense", "shape": [2, 3]}],
  "build": {"compiler": "nnc 0.1.0", "llvm": "22", "target": "cuda",
            "precision": "tf32", "gpu_arch": "sm_90"},
  "optimizer": null})";

#ifdef NO_DEVICE_CODE
extern "C" void nnc_forward(void **) {}
extern "C" void nnc_train_step(void **) {}
#else
#include "nnrt/cuda/Abi.h"

namespace {
// counter[0] += 1; loss[0] = counter[0]
const char kPtx[] = R"(.version 7.0
.target sm_52
.address_size 64

.visible .entry fake_bump(
	.param .u64 fake_bump_param_0,
	.param .u64 fake_bump_param_1
)
{
	.reg .f32 	%f<3>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [fake_bump_param_0];
	ld.param.u64 	%rd2, [fake_bump_param_1];
	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	ld.global.f32 	%f1, [%rd3];
	add.f32 	%f2, %f1, 0f3F800000;
	st.global.f32 	[%rd3], %f2;
	st.global.f32 	[%rd4], %f2;
	ret;
}
)";

// As gpu.binary's global constructor and destructor do.
void *module = mgpuModuleLoad(const_cast<char *>(kPtx), sizeof kPtx);
struct Unload {
  ~Unload() { mgpuModuleUnload(module); }
} unload;

struct Rank0 {
  void *allocated, *aligned;
  int64_t offset;
};
} // namespace

extern "C" void nnc_forward(void **args) {
  auto *w = static_cast<NnrtDesc2 *>(args[0]);
  auto *b = static_cast<NnrtDesc1 *>(args[1]);
  auto *x = static_cast<NnrtDesc2 *>(args[3]);
  auto *y = static_cast<NnrtDesc2 *>(args[4]);
  void *stream = mgpuStreamCreate();
  void *t = mgpuMemAlloc(2 * 3 * 4, stream, false);
  NnrtDesc2 td{t, t, 0, {2, 3}, {3, 1}};
  _mlir_ciface_nnrt_cuda_matmul_bias(x, w, b, &td, 0, 0, 1, 1,
                                     "dense (cuda_model.cpp:1:1)");
  mgpuMemcpy(y->aligned, t, 2 * 3 * 4, stream);
  mgpuMemFree(t, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}

extern "C" void nnc_train_step(void **args) {
  auto *counter = static_cast<NnrtDesc1 *>(args[2]);
  auto *loss = static_cast<Rank0 *>(args[5]);
  auto *correct = static_cast<Rank0 *>(args[6]);
  void *stream = mgpuStreamCreate();
  void *bump = mgpuModuleGetFunction(module, "fake_bump");
  void *params[] = {&counter->aligned, &loss->aligned};
  mgpuLaunchKernel(bump, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr, 2);
  mgpuMemset32(correct->aligned, 7, 1, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
}
#endif
