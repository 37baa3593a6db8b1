//===- Passes.td - CUDA code generation --------------------*- tablegen -*-===//
//
// Part of nnc. The CUDA target's host-side code generation on buffers:
// reductions split for parallelism, device buffers, one gpu.module, and all
// work chained on one stream. (Kernels come from convert-linalg-to-gpu.)
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CUDA_PASSES_TD
#define NNC_CODEGEN_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def SplitReductionsPass
    : Pass<"nnc-cuda-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split sums with few outputs into parallel partial sums";
  let description = [{
    Runs on buffers, before convert-linalg-to-gpu, which gives a GPU thread to
    each output element and runs its reduction sequentially: a bias gradient
    (64 channels summed over 73,728 positions) or a weight decay term (one
    sum of 884,736 squares) would keep a handful of threads busy. A sum
    (`out + f(inputs)`) whose outputs are fewer than `threads` and whose
    reduction is longer than `chunk` has its outermost reduction dimension
    that divides split in P pieces: the inputs are viewed with that
    dimension as [P, size / P], partial sums [P, outputs] are computed in
    parallel over P, then added to the output by a second, shorter sum.
    Repeated while it applies.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", "32768",
           "Parallel iterations wanted per op">,
    Option<"chunk", "chunk", "int64_t", "256",
           "Reductions no longer than this stay whole">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect"];
}

def HostBuffersPass : Pass<"nnc-cuda-host-buffers", "::mlir::func::FuncOp"> {
  let summary = "Allocations and copies of host functions on the GPU";
  let description = [{
    Runs on bufferized host functions for the CUDA target, where every
    buffer is device memory: `memref.alloc` and `memref.dealloc` become
    `gpu.alloc` and `gpu.dealloc` (the runtime's pool), a copy of a whole
    dense buffer `gpu.memcpy`, any other copy `linalg.copy` (a kernel).
    Constant globals, which only the host could read, are refused.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def OneModulePass : Pass<"nnc-cuda-one-module", "::mlir::ModuleOp"> {
  let summary = "Gather the outlined kernels into one gpu.module";
  let description = [{
    gpu-kernel-outlining makes a `gpu.module` per kernel; each would be
    assembled (ptxas) and loaded on its own. The kernels move into one
    module, `@nnc_kernels`, each named after the module it came from (unique
    by construction), and every `gpu.launch_func` refers to its new place.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def StreamPass : Pass<"nnc-cuda-stream", "::mlir::func::FuncOp"> {
  let summary = "Chain a host function's GPU work on one stream";
  let description = [{
    Runs on host functions after kernel outlining. A `gpu.wait async` at
    entry gives the stream (the runtime's one compute stream); every
    `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy` and `gpu.launch_func` becomes
    asynchronous, depending on the one before. Nothing waits for the device:
    the caller synchronises, and a whole step can be captured into a CUDA
    graph. The runtime's library calls use the same stream.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // NNC_CODEGEN_CUDA_PASSES_TD
