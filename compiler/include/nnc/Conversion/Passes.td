//===- Passes.td - nnc conversion passes -------------------*- tablegen -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_PASSES_TD
#define NNC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNNToLinalg : Pass<"convert-nn-to-linalg"> {
  let summary = "Lower nn layers and losses to linalg on tensors";
  let description = [{
    Convolutions and pooling become linalg's NHWC named ops on explicitly
    padded inputs (TensorFlow SAME padding is asymmetric), matrix products
    `linalg.matmul`, and everything else `linalg.generic` (elementwise ops,
    LRN, batch norm, losses) or tensor reshapes. Parameters
    (`nn.parameter`, `nn.get_param`) and the optimizer declaration stay: the
    training-step and runtime-interface passes consume them. It runs on any
    op: on each function, the functions convert in parallel.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertNNToCUDA : Pass<"convert-nn-to-cuda", "::mlir::ModuleOp"> {
  let summary = "Convolutions, pooling, LRN, batch norm and matrix products as calls into libnnrt's CUDA part";
  let description = [{
    Runs on the nn dialect, before convert-nn-to-linalg. Convolutions (and
    their input and filter gradients), max pooling (and its gradient),
    average pooling, LRN (and LRN's gradient) and batch normalisation
    (inference, training and its gradient) become cuDNN calls, matrix
    products cuBLASLt calls with a following bias_add and relu fused into
    the epilogue. Each call reads its operands through
    `bufferization.to_buffer`, writes a fresh `memref.alloc` and yields it
    through `bufferization.to_tensor`, so it bufferizes with the generated
    code around it; the callee is declared with memrefs of dynamic shape and
    the C interface, and receives the layer's name and source location for
    its error messages. TensorFlow's asymmetric SAME padding is made
    explicit (the runtime pads symmetrically). Ops outside what the
    libraries do like TensorFlow (average pooling with asymmetric padding,
    LRN beyond cuDNN's window) stay for the generated kernels.
    docs/cuda-runtime.md documents the calls.
  }];
  let options = [
    Option<"precision", "precision", "::nnc::CudaMath",
           "::nnc::CudaMath::FP32",
           "How convolutions and matrix products compute",
           "::nnc::cudaMathValues()">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertLinalgToGPUPass
    : Pass<"convert-linalg-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Every linalg op of a host function as a GPU kernel";
  let description = [{
    Runs on bufferized host functions for the CUDA target. Each linalg op
    becomes parallel loops over its parallel dimensions (its reductions run
    sequentially inside each thread), launched as one `gpu.launch` with one
    thread per iteration: the iterations are flattened, blocks of 256
    threads (fewer for small ops) cover them, and each thread delinearises
    its index. Ops without loops (scalar updates) run on one thread.
    gpu-kernel-outlining then moves each launch into a kernel.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // NNC_CONVERSION_PASSES_TD
