//===- Passes.td - target-independent passes ---------------*- tablegen -*-===//
//
// Part of nnc. Passes on the nn dialect and on the compiled model's
// interface, shared by every target: training, parameters as arguments, the
// layer table, bufferization without copies, the model description and the
// packed entry points.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_PASSES_TD
#define NNC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def GenerateTrainingPass : Pass<"nn-generate-training", "::mlir::ModuleOp"> {
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
      state is declared as non-trainable parameters: `global_step` (an i64
      scalar that `nn.increment` counts up), and per parameter
      `<name>.momentum` or `<name>.adam_m` / `<name>.adam_v`.
    Gradients come from reverse-mode differentiation through
    `DifferentiableOpInterface`. When an op on the path to the loss has no
    gradient, the pass warns at that op and adds no training function: the
    model still compiles for inference.

    With `loss-scale` S other than 1 (static loss scaling, for reduced
    precision), the backward pass starts from S instead of 1, so small
    gradients stay representable in bf16 operands, and every parameter
    gradient is divided by S before it is returned or applied.

    With `data-parallel` (the default), train_step is also derived in two
    halves, for training where the gradients are summed across processes
    between them: `@gradients(inputs, labels) -> (loss, correct,
    gradients...)`, which updates the moving statistics but no parameter,
    and `@apply_update(gradients..., grad_scale)`, which updates each
    trainable parameter from its gradient times the scalar `grad_scale` and
    counts the global step.

    The forward and backward pass of forward_backward and gradients is a
    private `@training_pass` that both call. train_step either keeps a
    copy of its own, where each gradient's product or convolution can apply
    the update as it finishes (`fused-updates=always`), or calls the
    training pass and applies the updates to the gradients it returns
    (`never`). With `auto` (the default) it calls the training pass when
    writing the gradients out and reading them back, 8 bytes per trainable
    element, would cost under 1% of the step at 10 floating-point
    operations per byte (the step's FLOPs taken as three times @loss's),
    and the model taps no layer: the step then runs as fast, and the
    stages after this one compile its forward and backward pass once.
  }];
  let options = [
    Option<"lossScale", "loss-scale", "double", "1.0",
           "Scale of the loss for the backward pass (gradients unscaled)">,
    Option<"dataParallel", "data-parallel", "bool", "true",
           "Also derive @gradients and @apply_update, train_step's halves">,
    Option<"fusedUpdates", "fused-updates", "::nnc::FusedUpdates",
           "::nnc::FusedUpdates::Auto",
           "train_step's own copy of the training pass, with the updates "
           "fused: always, never, or auto (when they are worth it)",
           "::nnc::fusedUpdatesValues()">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def RecordLayersPass : Pass<"nn-record-layers", "::mlir::ModuleOp"> {
  let summary = "Record the layers of @forward and their shapes on the module";
  let description = [{
    Runs on the nn dialect, before it is lowered. Lists the layers of the
    `forward` function in order, as the module attribute `nn.layers`: an
    array of dictionaries with the layer's `name`, `op` and `shape`. A layer is the group of nn ops whose location is the same `NameLoc`
    (inside a block instance, the callee of a `callsite` location; conv2d, bias_add and relu of one `conv2d(..., activation=relu)` line;
    parameter reads aside), its op the first of them, its shape the last
    one's result. Layer names come from locations: a model read back from
    .mlir keeps them with --mlir-print-debuginfo. The runtime
    prints them as the benchmark's layer-shape table; nn-export-model-interface
    moves them into the model description.
  }];
}

def ParamsToArgumentsPass : Pass<"nn-params-to-arguments", "::mlir::ModuleOp"> {
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
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect"];
}

def DuplicateSharedFillsPass
    : Pass<"nnc-duplicate-shared-fills", "::mlir::func::FuncOp"> {
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

def FuseElementwisePass : Pass<"nnc-fuse-elementwise"> {
  let summary = "Fuse elementwise producers that their consumer reads once";
  let description = [{
    Runs on tensors, after the lowering to linalg. Upstream's elementwise
    fusion, with one more condition: a `linalg.generic` whose every loop is
    parallel is fused into the consumer of its only use when the consumer
    reads each of its elements once, that is, when the consumer's indexing
    map for that operand is a permutation of all the consumer's loops. A
    producer that the consumer broadcasts or reads inside a reduction it
    does not index (a batch norm's backward pass feeding a convolution's
    filter gradient, a per-channel scale feeding every pixel) would
    otherwise be recomputed for every such iteration: for ResNet-50's first
    convolution, 147 times per element. Such a producer is materialised
    instead. Reshapes are folded by expansion under the same condition.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def ConcatIntoSlicesPass
    : Pass<"nnc-concat-into-slices", "::mlir::func::FuncOp"> {
  let summary = "Compute a concatenation's inputs into its slices";
  let description = [{
    Runs on tensors, before bufferization. A `tensor.concat` bufferizes into
    a fresh buffer and one copy per input. Each input that a linalg op
    computes into a `tensor.empty` (an input the concat takes once) is
    computed instead into a `tensor.extract_slice` of one
    `tensor.empty` of the concatenated shape and put back with
    `tensor.insert_slice`, so bufferization makes the producers write
    subviews of one buffer. Other inputs are inserted where the concat was.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def EmptyIntoDestinationsPass
    : Pass<"nnc-empty-into-destinations", "::mlir::func::FuncOp"> {
  let summary = "Compute what is inserted into a tensor into its slice";
  let description = [{
    Runs on tensors, before bufferization. A tensor that ops compute into a
    `tensor.empty` (each writing its result into its init) and that a
    subset insertion (`tensor.insert_slice`,
    `bufferization.materialize_in_destination`) then puts into another
    tensor is computed instead into a `tensor.extract_slice` of that tensor,
    built where the `tensor.empty` was or right after what it needs (moved
    up if need be), when nothing reads the destination from the chain's
    first op on: one-shot bufferization then writes the destination's
    buffer directly. An elementwise update that reads each element of its
    parameter where it writes it does not count as a read. Upstream's
    `eliminate-empty-tensors` rewrites the same chains but asks a one-shot
    analysis of the whole module which insertions can be in place.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def InPlaceUpdatesPass : Pass<"nnc-in-place-updates", "::mlir::ModuleOp"> {
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

def CheckModelPass : Pass<"nnc-check-model", "::mlir::ModuleOp"> {
  let summary = "Refuse models the compiled code and the runtime cannot run";
  let description = [{
    The first pass of every pipeline, so that a .mlir model meets the same
    rules as a .nn one. Every tensor of the module (function signatures,
    block arguments, op results, parameters) has a static shape of at most
    2^53 elements and 2^53 bytes, so that sizes, strides and offsets stay
    exact in 64-bit arithmetic. Parameters and the entry points' floating-
    point inputs and outputs are f32: the runtime's data, parameters and
    checkpoints are f32 (reduced precision on CUDA is --precision, not the
    model's types). The entry points (public functions) take and return
    tensors of f32, i32 or i64 only, the types the bench program passes.
    Each violation is an error at the value's location.
  }];
}

def NestCallComponentsPass
    : Pass<"nnc-nest-call-components", "::mlir::ModuleOp"> {
  let summary = "Move each group of functions that call one another into "
                "a nested module";
  let description = [{
    Top-level ops are grouped by the symbols they use: a function, what it
    calls, what calls it, and so on. Each group that defines a function
    moves into a `builtin.module` of its own, nested in the top one and
    marked `nnc.call_component`, so that a pipeline nested on
    `builtin.module` runs its module passes on the groups in parallel
    (one-shot bufferization analyses a whole module, callees first: a
    model's training step and its training pass are each a whole copy of
    the network, and neither calls the other). The nested modules come
    largest first, for the threads to share them evenly; they carry the
    top module's attributes. nnc-flatten-call-components undoes it.
  }];
}

def NestFunctionPartsPass
    : Pass<"nnc-nest-function-parts", "::mlir::ModuleOp"> {
  let summary = "Move the functions into nested modules of about equal "
                "sizes";
  let description = [{
    For the module passes that convert each function on its own (to the
    LLVM dialect): the functions, declarations too, go into nested
    modules marked `nnc.call_component`, each whole into the part with the
    fewest ops so far, the largest first, so that a pipeline nested on
    `builtin.module` runs those passes on the parts in parallel. Each part
    declares the functions it calls that other parts define, and holds a
    copy of any other symbol it uses. That suits top-level ops of the LLVM
    dialect, which the conversions leave be; a module with any other kind
    of top-level op goes into one part whole. nnc-flatten-call-components
    keeps one op per symbol: the definition, the original.
  }];
  let options = [
    Option<"parts", "parts", "unsigned", /*default=*/"0",
           "Parts to make (0: four per thread of the context)">,
  ];
}

def RunWherePresentPass : Pass<"nnc-run-where-present"> {
  let summary = "Run a pipeline on an op only if it holds ops of given "
                "dialects or names";
  let description = [{
    Runs `pipeline` (with its anchor, e.g. `func.func(convert-vector-to-llvm)`)
    on the op this pass runs on when an op nested in it belongs to one of
    `dialects` (a dialect's namespace, or an op's full name such as
    `vector.transfer_read`), and does nothing otherwise. For the
    conversions to the LLVM dialect: each walks, folds and legalises every
    op it is given, though it converts the ops of one dialect (or a few
    ops). A model's entry points (thousands of
    calls, allocations and the descriptors of their buffers) hold no
    vector, math, OpenMP or control-flow op, and a kernel without
    transcendental functions no math op. With `alongside`, the op must also
    hold an op of one of those: a kernel's views (`memref.subview`) and its
    loops (`scf`), where an entry point has views but no loop.
  }];
  let options = [
    ListOption<"dialects", "dialects", "std::string",
               "Dialect namespaces or op names: the ops the pipeline "
               "converts">,
    ListOption<"alongside", "alongside", "std::string",
               "Dialect namespaces or op names, of which the op must also "
               "hold one (none: no such condition)">,
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "The pipeline, anchored on the op this pass runs on">,
  ];
}

def FlattenCallComponentsPass
    : Pass<"nnc-flatten-call-components", "::mlir::ModuleOp"> {
  let summary = "Move the ops of nnc-nest-call-components' modules back";
  let description = [{
    The top module's symbols take the order they had before
    nnc-nest-call-components or nnc-nest-function-parts (recorded on the
    top module); a symbol a pass created in one of the nested modules and
    any op without a name go before them. Of several ops of one name, a
    definition is kept over declarations and an original over copies;
    two definitions are two symbols, and the one in a nested module is
    renamed (a private one rather than a public one).
  }];
}

def DistinctResultsPass : Pass<"nnc-distinct-results", "::mlir::ModuleOp"> {
  let summary = "Give every returned buffer its own allocation";
  let description = [{
    Runs after nnc-in-place-updates. A function may return one buffer
    several times (two gradients CSE made one value: the offsets of two
    batch norms that feed the same sum); each later occurrence is returned
    as a copy, so that buffer-results-to-out-params gives every result its
    own caller-owned buffer.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def DeallocateBuffersPass
    : Pass<"nnc-deallocate-buffers", "::mlir::ModuleOp"> {
  let summary = "Free every buffer a function allocates at its return";
  let description = [{
    Runs after nnc-call-results-in-place. When every function of the module
    is straight-line code that returns no buffer, allocates only in its
    body's block and frees nothing itself, each of its `memref.alloc`s is
    freed by a `memref.dealloc` before its return, in the order of the
    allocations. That is what upstream's ownership-based deallocation
    pipeline makes of such a module, but without its analysis: its
    simplification compares every buffer of a function's one
    `bufferization.dealloc` with every other (1.5 s of Inception-v3's
    compile). Any other module goes through that pipeline, with the passes
    that work inside one function nested on the functions (their dialects
    are the pass's too).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CallResultsInPlacePass
    : Pass<"nnc-call-results-in-place", "::mlir::func::FuncOp"> {
  let summary = "Calls write their results into the caller's out-params "
                "or into aligned buffers";
  let description = [{
    Runs after buffer-results-to-out-params. An entry point that returns
    what a call computed (forward_backward and gradients return the
    training pass's gradients) would allocate a buffer for the call's
    out-param and copy it into its own:

      %a = memref.alloc() : memref<64xf32>
      call @training_pass(..., %a)
      memref.copy %a, %out

    When the buffer is used by that one call and the copy, and the
    out-param (`{bufferize.result}`) only by the copy, the call writes into
    the out-param and neither the buffer nor the copy remain. The
    out-param buffers left (results the caller drops, or uses itself) are
    aligned to 64 bytes, as one-shot bufferization aligns its own.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ExportModelInterfacePass
    : Pass<"nn-export-model-interface", "::mlir::ModuleOp"> {
  let summary = "Describe the compiled model for the runtime, as JSON";
  let description = [{
    Runs on bufferized modules. Writes a JSON description of the model into
    the constant global `nnc_model_json` (a NUL-terminated string): the
    interface version, the model name, batch size and benchmark
    (`nn.benchmark`, when set), every parameter (name, shape, element type,
    initialiser, trainable), every entry point with its
    arguments in order (role `param`, `input`, `labels` or `output`, name,
    shape, element type), the layers `nn-record-layers` recorded, the build
    information the driver attached (`nn.build`, a dictionary of strings)
    and the optimizer. Entry points get
    `llvm.emit_c_interface`; `symbol` names their C interface (one
    descriptor pointer per argument) and `packed` the
    `nnc_<entry>(void **args)` wrapper nnc-packed-entry-points adds. The `nn.parameter` and `nn.optimizer`
    declarations are then removed: the description replaces them.
    docs/interface.md documents the format.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PackedEntryPointsPass
    : Pass<"nnc-packed-entry-points", "::mlir::ModuleOp"> {
  let summary = "Add nnc_<entry>(void **args) wrappers of the C interface";
  let description = [{
    Runs on the LLVM dialect. An entry point that takes its buffers as
    bare pointers (`nnc.bare_c_interface`, the element type of each, set
    by nnc-cpu-outline-kernels) first gets its C interface:
    `_mlir_ciface_<entry>(ptr, ..., ptr)` passes each descriptor's aligned
    pointer, moved by its offset; when no other function calls the entry
    point and its body is one block, that body moves into the C interface
    in place of the call (a function of hundreds of stack arguments costs
    the code generator each time). Then for every C-interface function
    `_mlir_ciface_<entry>(ptr, ..., ptr)` it adds `nnc_<entry>(ptr args)`,
    which loads the i-th descriptor pointer from `args[i]` and calls it, so
    a runtime can call any model's entry points through one signature.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // NNC_TRANSFORMS_PASSES_TD
