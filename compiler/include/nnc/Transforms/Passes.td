//===- Passes.td - nnc transformation passes ----------------*- tablegen -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_PASSES_TD
#define NNC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNGenerateTraining : Pass<"nn-generate-training", "::mlir::ModuleOp"> {
  let summary = "Derive the training functions from @loss and the optimizer";
  let description = [{
    From `@loss(inputs, labels) -> loss` (with `@forward` inlined) builds, in
    the nn dialect:
    - `@forward_backward(inputs, labels) -> (loss, gradients...)`: the
      gradient of the loss with respect to every trainable parameter, in
      declaration order, without an update;
    - `@eval(inputs, labels) -> (loss, correct)`, when the model has labels
      and its output is [N, classes];
    - `@train_step(inputs, labels) -> (loss, correct)`, when the model has an
      optimizer: the gradients, then each trainable parameter updated in
      place (`nn.assign_param`) by `nn.sgd_update` or `nn.adam_update` at
      the rate `nn.learning_rate` gives for the global step. The optimizer's
      state is declared as non-trainable parameters: `global_step`, and per
      parameter `<name>.momentum` or `<name>.adam_m` / `<name>.adam_v`.
    Gradients come from reverse-mode differentiation through
    `DifferentiableOpInterface`. When an op on the path to the loss has no
    gradient, the pass warns at that op and adds no training function: the
    model still compiles for inference.

    With `loss-scale` S other than 1 (static loss scaling, for reduced
    precision), the backward pass starts from S instead of 1, so small
    gradients stay representable in bf16 operands, and every parameter
    gradient is divided by S before it is returned or applied.
  }];
  let options = [
    Option<"lossScale", "loss-scale", "double", "1.0",
           "Scale of the loss for the backward pass (gradients unscaled)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def NNParamsToArguments : Pass<"nn-params-to-arguments", "::mlir::ModuleOp"> {
  let summary = "Pass the model's parameters to its functions as arguments";
  let description = [{
    Every function that reads a parameter (`nn.get_param`), directly or
    through a call, takes all of the module's parameters as leading
    arguments, in declaration order, each tagged `{nn.param = "<name>"}`;
    calls pass them on. This is the calling convention of the compiled
    model: the runtime owns the parameter buffers and passes them to every
    entry point, so a training step can update them in place. The
    `nn.parameter` declarations stay, for the runtime interface.
  }];
}

def NNRecordLayers : Pass<"nn-record-layers", "::mlir::ModuleOp"> {
  let summary = "Record the layers of @forward and their shapes on the module";
  let description = [{
    Runs on the nn dialect, before it is lowered. Lists the layers of the
    `forward` function in order, as the module attribute `nn.layers`: an
    array of dictionaries with the layer's `name`, `op` and `shape`. A layer is the group of nn ops whose location is the same `NameLoc`
    (conv2d, bias_add and relu of one `conv2d(..., activation=relu)` line;
    parameter reads aside), its op the first of them, its shape the last
    one's result. Layer names come from locations: a model read back from
    .mlir keeps them with --mlir-print-debuginfo. The runtime
    prints them as the benchmark's layer-shape table; nn-export-model-interface
    moves them into the model description.
  }];
}

def NNInPlaceUpdates : Pass<"nn-in-place-updates", "::mlir::ModuleOp"> {
  let summary = "Drop the parameter-update results once bufferized";
  let description = [{
    Runs right after one-shot bufferization. nn-params-to-arguments returns
    each parameter written by `nn.assign_param` as a result tagged
    `{nn.updates = "<name>"}`, materialised in the parameter's argument;
    bufferized, that result is the argument's buffer. The result is dropped
    (the caller's parameter buffer already holds the new value); should it
    be another buffer, it is first copied into the parameter's.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NNExportModelInterface
    : Pass<"nn-export-model-interface", "::mlir::ModuleOp"> {
  let summary = "Describe the compiled model for the runtime, as JSON";
  let description = [{
    Runs on bufferized modules. Writes a JSON description of the model into
    the constant global `nnc_model_json` (a NUL-terminated string): the
    interface version, the model name and batch size, every parameter (name,
    shape, element type, initialiser, trainable), every entry point with its
    arguments in order (role `param`, `input`, `labels` or `output`, name,
    shape, element type), the layers `nn-record-layers` recorded, the build
    information the driver attached (`nn.build`, a dictionary of strings)
    and the optimizer. Entry points get
    `llvm.emit_c_interface`; `symbol` names their C interface (one
    descriptor pointer per argument) and `packed` the
    `nnc_<entry>(void **args)` wrapper nn-packed-entry-points adds. The `nn.parameter` and `nn.optimizer`
    declarations are then removed: the description replaces them.
    docs/interface.md documents the format.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NNDuplicateSharedFills
    : Pass<"nn-duplicate-shared-fills", "::mlir::func::FuncOp"> {
  let summary = "Give every user of a filled tensor its own fill";
  let description = [{
    Runs on tensors, before bufferization. CSE merges the identical fills
    (zeros for an accumulation, the border of a padded tensor) that several
    ops start from; bufferized, all but one of those ops would then copy the
    shared buffer before writing it. A `linalg.fill` (of a `tensor.empty`)
    with several uses is cloned before each further use, so every op fills
    and writes its own buffer in place.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NNCopiesToLinalg : Pass<"nn-copies-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Lower memref.copy of static buffers to linalg.copy";
  let description = [{
    Runs on buffers, before the loops are made. A `memref.copy` between
    strided views would otherwise become a call to the runtime's generic
    element-by-element copy; as `linalg.copy` it becomes parallel loops with
    a vectorised innermost loop like every other op.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def NNGPUSplitReductions
    : Pass<"nn-gpu-split-reductions", "::mlir::func::FuncOp"> {
  let summary = "Split sums with few outputs into parallel partial sums";
  let description = [{
    Runs on buffers, before nn-linalg-to-gpu, which gives a GPU thread to
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

def NNGPUHostBuffers : Pass<"nn-gpu-host-buffers", "::mlir::func::FuncOp"> {
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

def NNLinalgToGPU : Pass<"nn-linalg-to-gpu", "::mlir::func::FuncOp"> {
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

def NNGPUOneModule : Pass<"nn-gpu-one-module", "::mlir::ModuleOp"> {
  let summary = "Gather the outlined kernels into one gpu.module";
  let description = [{
    gpu-kernel-outlining makes a `gpu.module` per kernel; each would be
    assembled (ptxas) and loaded on its own. The kernels move into one
    module, `@nnc_kernels`, each named after the module it came from (unique
    by construction), and every `gpu.launch_func` refers to its new place.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def NNGPUStream : Pass<"nn-gpu-stream", "::mlir::func::FuncOp"> {
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

def NNCPUVectorize : Pass<"nn-cpu-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile and vectorise the linalg ops left after contractions";
  let description = [{
    Runs on buffers, after nn-cpu-contractions. Every static linalg op whose
    maps are projected permutations and whose output's innermost dimension
    is a parallel loop becomes: `scf.forall` over its other parallel loops
    (the threads' work), a loop over vectors of that innermost dimension
    (`vector-bits` wide, the last one masked when it does not divide), loops
    over its reductions, and the op vectorised on one vector's worth of
    elements. Accumulators of reductions are then hoisted out of their loops
    and stay in registers. Ops that do not qualify keep their linalg form
    (and become scalar loops).
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "256",
           "Width of the target's vector registers">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def NNCPUContractions : Pass<"nn-cpu-contractions", "::mlir::func::FuncOp"> {
  let summary = "Register-blocked, cache-blocked CPU code for contractions";
  let description = [{
    Runs on buffers. Every static f32 linalg op that computes
    `C[m, n] += sum_k A[m, k] * B[k, n]` with addresses linear in its loop
    indices (matrix products with any transposes, NHWC convolutions, filter
    gradients) becomes:
    - `scf.forall` over blocks of C, one thread's unit of work;
    - loops over blocks of K that keep the operands' panels in L1 and L2;
    - register tiles of `mr` x `nr` accumulators: outer products (`mr`
      broadcasts of A times an `nr`-wide row of B) when B is unit-stride
      along n, dot products along k when A and B are unit-stride along k;
    - stores that write C in the first K block, add to it in later ones and,
      in the last, apply C's elementwise consumer (bias and activation, an
      activation gradient, an optimizer update), which is then removed.
    No operand is copied or repacked: convolutions read their input through
    the addresses of an implicit im2col. Tile sizes come from the options
    (the driver sets them for the target CPU); contractions no kernel fits
    keep their linalg form.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", "256",
           "Width of the target's vector registers">,
    Option<"vectorRegisters", "vector-registers", "int64_t", "16",
           "Number of vector registers">,
    Option<"l1Bytes", "l1-bytes", "int64_t", "32768",
           "Level-1 data cache per core">,
    Option<"l2Bytes", "l2-bytes", "int64_t", "524288",
           "Level-2 cache per core">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def NNVectorizableLoopOrder
    : Pass<"nn-vectorizable-loop-order", "::mlir::func::FuncOp"> {
  let summary = "Order linalg loops so the innermost one is unit-stride";
  let description = [{
    Interchanges the loops of `linalg.generic` ops (named ops are generalised
    first) whose output's last dimension is a parallel loop followed by
    reductions: that loop moves innermost and the reductions before it, so
    `C[m, n] += A[m, k] * B[k, n]` runs m, k, n and a convolution's output
    channels are innermost. The innermost loop then walks the output, and
    usually the weights, contiguously, which LLVM vectorises. Ops with a
    single parallel loop keep their order, so the outer loop stays parallel.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def NNSequentialInnerParallelLoops
    : Pass<"nn-sequential-inner-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Turn scf.parallel loops nested in another into scf.for";
  let description = [{
    After `convert-linalg-to-parallel-loops`, an op whose parallel loops are
    split by reductions has an scf.parallel inside another. Only the
    outermost one is spread over threads; the inner ones become scf.for
    nests, so OpenMP does not open a nested parallel region per iteration.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def NNPackedEntryPoints : Pass<"nn-packed-entry-points", "::mlir::ModuleOp"> {
  let summary = "Add nnc_<entry>(void **args) wrappers of the C interface";
  let description = [{
    Runs on the LLVM dialect. For every C-interface function
    `_mlir_ciface_<entry>(ptr, ..., ptr)` adds `nnc_<entry>(ptr args)`,
    which loads the i-th descriptor pointer from `args[i]` and calls it, so
    a runtime can call any model's entry points through one signature.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // NNC_TRANSFORMS_PASSES_TD
