//===- Passes.td - CPU code generation ---------------------*- tablegen -*-===//
//
// Part of nnc. The CPU target's code generation on buffers: register-
// tiled contractions, vectorised elementwise and reduction loops, loop order
// and copies for the vectoriser. Option defaults come from CPUTuning
// (Tuning.h), the one definition of the tuning a target CPU gets.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_PASSES_TD
#define NNC_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ContractionsPass : Pass<"nnc-cpu-contractions", "::mlir::func::FuncOp"> {
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
      a tile whose rows lie in one line of every operand (m dimensions
      whose strides chain), or in a few groups that each do, reads each
      group's rows at one address (an `llvm.freeze`, opaque to LLVM's loop
      strength reduction) plus constants;
    - stores that write C in the first K block, add to it in later ones and,
      in the last, apply C's elementwise consumer (bias and activation, an
      activation gradient, an optimizer update), which is then removed.
    Convolutions read their input through the addresses of an implicit
    im2col. B is packed into panels when many rows of C reuse it; packed
    or not, the micro-kernel prefetches B's panel 1 KiB ahead; on a packed
    B it also spreads over its k steps prefetches into L2 of its share of
    the panel's next K block and of the next tile's copied rows of A, and
    prefetches for writing the lines of C it updates. A tile's
    rows of A are copied when in place they would evict each other from L1
    (rows a multiple of 4 KiB apart) or spread over a cache line per k
    step (a filter gradient's channels, copied k-major). Tile sizes come
    from the options (the driver sets them for the target CPU);
    contractions no kernel fits keep their linalg form.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t",
           "::nnc::cpu::CPUTuning().vectorBits",
           "Width of the target's vector registers">,
    Option<"vectorRegisters", "vector-registers", "int64_t",
           "::nnc::cpu::CPUTuning().vectorRegisters",
           "Number of vector registers">,
    Option<"l1Bytes", "l1-bytes", "int64_t",
           "::nnc::cpu::CPUTuning().l1Bytes",
           "Level-1 data cache per core">,
    Option<"l2Bytes", "l2-bytes", "int64_t",
           "::nnc::cpu::CPUTuning().l2Bytes", "Level-2 cache per core">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def VectorizePass : Pass<"nnc-cpu-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile and vectorise the linalg ops left after contractions";
  let description = [{
    Runs on buffers, after nnc-cpu-contractions. Every static linalg op whose
    maps are projected permutations and whose output's innermost dimension
    is a parallel loop becomes: `scf.forall` over its other parallel loops
    (the threads' work), a loop over vectors of that innermost dimension
    (`vector-bits` wide, or the widest that divides it), loops
    over its reductions, and the op vectorised on one vector's worth of
    elements. Accumulators of reductions are then hoisted out of their loops
    and stay in registers. Ops that do not qualify keep their linalg form
    (and become scalar loops).

    First, a fill, copy or elementwise op whose innermost dimension does not
    hold a whole number of vectors (an image's three channels) iterates over
    its trailing parallel dimensions as one, as far as every operand holds
    them contiguously (`memref.collapse_shape`): the fill and copy of a
    padded image then store whole vectors.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t",
           "::nnc::cpu::CPUTuning().vectorBits",
           "Width of the target's vector registers">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def FillBordersPass : Pass<"nnc-cpu-fill-borders", "::mlir::func::FuncOp"> {
  let summary = "Fill only the border of a buffer whose interior is written next";
  let description = [{
    Runs on buffers, before nnc-cpu-contractions. A `linalg.fill` of a
    static buffer whose next access (views aside) is an op that overwrites
    a box of it (a static unit-stride subview that is its one output, every
    point written and none read: an activation written into the padded
    input of the next convolution or pooling) becomes fills of the parts
    outside the box: two slabs per dimension, within the box along the
    dimensions before it, whole along those after. Only boxes that span
    the innermost dimension and hold at least half of the buffer qualify,
    so that the slabs stay contiguous along it. A padded image is then
    written once, not twice: AlexNet's 128 images of 231 x 231 x 3 floats
    fill 6% of 82 MB instead of all of it.
  }];
}

def CopiesToLinalgPass
    : Pass<"nnc-cpu-copies-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Lower memref.copy of static buffers to linalg.copy";
  let description = [{
    Runs on buffers, before the loops are made. A `memref.copy` between
    strided views would otherwise become a call to the runtime's generic
    element-by-element copy; as `linalg.copy` it becomes parallel loops with
    a vectorised innermost loop like every other op.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def GenericFillsPass : Pass<"nnc-cpu-generic-fills", "::mlir::func::FuncOp"> {
  let summary = "Fill buffers through views of dynamic shape, one kernel for all";
  let description = [{
    Runs on buffers, just before nnc-cpu-outline-kernels. Every top-level
    `linalg.fill` of a model function (an entry point, or the training
    pass the entry points call) whose buffer has a static shape and layout
    fills it through a view instead: its dimensions merged where they walk
    one contiguous range (`memref.collapse_shape`), then cast to
    dynamic sizes, offset and strides (a unit innermost stride stays
    static), and stored by loops: `scf.forall` over its rows (all
    dimensions but the innermost as one index; chunks of 8192 elements when
    it has one dimension), a scalar `scf.for` along each, which LLVM
    vectorises (a zero fill's becomes a memset). Outlined, the fills of a
    model are then one kernel per rank, element type and value, not one
    per shape.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def OutlineKernelsPass : Pass<"nnc-cpu-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Move each loop nest of the model's functions into its own "
                "function";
  let description = [{
    Runs on buffers, after nnc-cpu-contractions. Every top-level scf.forall,
    scf.for and linalg op of a model function (an entry point, or the
    training pass the entry points call) becomes a call to a private
    `noinline` function that takes the buffers and values it uses as
    arguments (constants are cloned in). The same layer shapes then give
    the same functions, and identical functions are one (the first): a
    ResNet's repeated blocks are generated, vectorised and compiled once.
    A kernel whose buffers all have static sizes, strides and offsets takes
    them as bare pointers (`llvm.bareptr`), not as descriptors the entry
    point builds and takes apart at every call. The kernel of a
    contraction's loop (marked `nnc.contraction` by nnc-cpu-contractions)
    carries the LLVM function attribute `nnc-contraction`: LLVM's
    vectorisers and unrollers leave it alone (compiler/lib/Driver/Optimize.cpp).
    A model function left with straight-line code only (calls, allocations)
    is marked `noinline optnone`: LLVM's optimiser leaves it alone, and the
    driver compiles it at -O0 in an object of its own, where FastISel
    selects its one large block of calls in linear time (ResNet-50's
    training step: seconds less; compiler/lib/Driver/ParallelEmit.cpp).
    A model function whose buffers all have static layouts (and no results)
    takes them as bare pointers too. An entry point's `llvm.emit_c_interface`
    is then replaced by `nnc.bare_c_interface`, its buffers' element types,
    from which nnc-packed-entry-points builds its C interface.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def VectorizableLoopOrderPass
    : Pass<"nnc-cpu-vectorizable-loop-order", "::mlir::func::FuncOp"> {
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

def SequentialInnerParallelLoopsPass
    : Pass<"nnc-cpu-sequential-inner-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Turn scf.parallel loops nested in another into scf.for";
  let description = [{
    After `convert-linalg-to-parallel-loops`, an op whose parallel loops are
    split by reductions has an scf.parallel inside another. Only the
    outermost one is spread over threads; the inner ones become scf.for
    nests, so OpenMP does not open a nested parallel region per iteration.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def GuidedSchedulePass
    : Pass<"nnc-cpu-guided-schedule", "::mlir::func::FuncOp"> {
  let summary = "Give OpenMP worksharing loops the guided schedule";
  let description = [{
    Runs after `convert-scf-to-openmp`. Every `omp.wsloop` without a
    schedule gets `schedule(guided)`: the threads take chunks of the
    iterations left (halving as the loop runs out) as they become free,
    instead of a fixed share each, so a core slowed by another process no
    longer holds up every kernel. One that names a schedule keeps it.
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def FoldDescriptorReadsPass
    : Pass<"nnc-cpu-fold-descriptor-reads", "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "Read a descriptor's fields from the values it was built of";
  let description = [{
    Runs on the LLVM dialect. An `llvm.extractvalue` of a field that a
    chain of `llvm.insertvalue`s set reads the inserted value instead, and
    the insertions left unused are erased. The memref lowering reads a
    buffer's pointer out of its descriptor at every access, and a kernel
    builds its descriptors from its arguments: the kernels reach LLVM with
    the pointers themselves.
  }];
}

def FoldViewsPass : Pass<"nnc-cpu-fold-views", "::mlir::func::FuncOp"> {
  let summary = "Upstream's view folding and metadata expansion, without "
                "region simplification";
  let description = [{
    The rewrites of upstream's `fold-memref-alias-ops` (accesses through a
    subview, expand_shape or collapse_shape index the view's source) and,
    with `expand-metadata`, then those of `expand-strided-metadata` (what
    is left of the views becomes explicit sizes, strides and offsets), each
    through the greedy driver as upstream's passes run them, but without
    its region simplification: after every iteration that walked the
    whole function again, merging blocks and erasing dead ones, of which
    these rewrites make none.
  }];
  let options = [
    Option<"expandMetadata", "expand-metadata", "bool", /*default=*/"false",
           "Then expand the remaining views' strided metadata">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect", "::mlir::vector::VectorDialect"
  ];
}

def VectorToLLVMPass : Pass<"nnc-cpu-vector-to-llvm", "::mlir::func::FuncOp"> {
  let summary = "Upstream's convert-vector-to-llvm, without its greedy "
                "lowering where it has nothing to lower";
  let description = [{
    Upstream's `convert-vector-to-llvm` first lowers, in a greedy rewrite
    over every op of the function, the vector ops that have no direct
    conversion (contractions, transposes, shape casts, masks, n-D ops),
    then converts. A function whose vector ops are all one-dimensional
    FMAs, loads, stores, masked loads and stores, and broadcasts of
    scalars (a contraction kernel: thousands of them) has nothing for that
    rewrite: its identical blocks are merged, as the rewrite's region
    simplification merges them, and it is converted with upstream's
    patterns and options. Any other runs upstream's pass.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def MathToLibmPass : Pass<"nnc-cpu-math-to-libm", "::mlir::ModuleOp"> {
  let summary = "Upstream's convert-math-to-libm, when math ops are left";
  let description = [{
    Runs upstream's `convert-math-to-libm` on the module when it holds an op
    of the math dialect (one that `convert-math-to-llvm` left: `math.erf`,
    `math.atan2`, ...), and does nothing otherwise: a dialect conversion
    over the module visits every op of every kernel on one thread.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::vector::VectorDialect", "::mlir::LLVM::LLVMDialect"
  ];
}

def LowerEntryPointsPass
    : Pass<"nnc-cpu-lower-entry-points", "::mlir::ModuleOp"> {
  let summary = "Lower straight-line entry points to the LLVM dialect, "
                "buffers as pointers";
  let description = [{
    Runs on one part of the module (nnc-nest-function-parts), before the
    upstream conversions. When every function defined in the part takes
    bare pointers (`llvm.bareptr`), returns nothing and holds only
    allocations and deallocations of static buffers, views of them with
    static layouts (subviews, casts, reshapes), scalar constants, index
    computations whose values it knows (a static buffer's dimensions, its
    layout's fields, arithmetic on them), calls to functions of the part,
    ops whose results nothing uses, and a return, the part's functions become
    `llvm.func`s directly, and so do the part's declarations. A buffer is
    then its two pointers: its layout is known, so each view is its
    source's pointers, and a call passes the aligned pointer to a callee
    that takes bare pointers, or the descriptor's fields as constants to
    one that takes descriptors, as `convert-func-to-llvm` would. Upstream's
    lowering builds a descriptor for every buffer and view, field by field,
    and takes it apart at each call: in a training step, thousands of ops
    for each kernel call. Parts with anything else are left as they are.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def FlattenKernelBuffersPass
    : Pass<"nnc-cpu-flatten-kernel-buffers", "::mlir::ModuleOp"> {
  let summary = "Address the buffers of kernels lowered to loops as flat "
                "buffers";
  let description = [{
    Runs on buffers, once the kernels are loops (after nnc-cpu-vectorize
    and the conversion of linalg to loops, and once their views are folded
    into their accesses). A buffer argument of a kernel that takes bare
    pointers (`llvm.bareptr`), of static shape, strides and offset, and
    only read and written element by element (`memref.load`,
    `memref.store`; `vector.load`, `vector.store` and their masked forms of
    one-dimensional vectors along a unit-stride innermost dimension),
    becomes a flat buffer (`memref<N x T>`, N its elements' span from its
    base): each access's indices become one, the offset plus each index
    times its stride in `arith` index operations on constants. Every call
    to the kernel views the buffer it passes as that type
    (`memref.reinterpret_cast`: the same base pointer). Kernels that differ
    in their buffers' shapes alone then differ in constants, which
    nnc-cpu-merge-flat-kernels merges.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MergeFlatKernelsPass
    : Pass<"nnc-cpu-merge-flat-kernels", "::mlir::ModuleOp"> {
  let summary = "Merge kernels on flat buffers that differ only in index "
                "constants and buffer sizes, before their lowering";
  let description = [{
    Runs on buffers, after nnc-cpu-flatten-kernel-buffers: on the
    contraction kernels (flat as nnc-cpu-contractions emits them) and on
    the others.
    Kernels that take their buffers as bare pointers to flat
    (one-dimensional, static, identity) memrefs, each only read and written
    element by element (loads, stores, prefetches), and whose operations,
    attributes and wiring are the same, differing only in the sizes of
    those buffers and in the values of index constants used by additions,
    subtractions, multiplications, comparisons, minima and maxima,
    selections, loop bounds and steps (sequential and parallel), shifts,
    masks and element indices,
    become one: the first, which takes the values that differ as trailing
    `index` arguments, one per distinct column of values across the kernels
    (at most 12). Each call to one of them calls it, with that kernel's values,
    its buffers viewed (`memref.reinterpret_cast`) as the first's types.
    Other constants (divisors, casts, floats) keep their values: kernels
    that differ in them stay apart.
    nnc-cpu-merge-kernels then merges what is left once lowered.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MergeKernelsPass : Pass<"nnc-cpu-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Merge kernels that differ only in integer constants";
  let description = [{
    Runs on the LLVM dialect, after the lowering. Kernels (the functions
    nnc-cpu-outline-kernels made) whose operations, types, attributes and
    wiring are the same, and that differ only in the values of 64-bit
    integer constants used by additions, subtractions, multiplications,
    comparisons, selections, addresses and branch or loop bounds, become
    one: the first, which takes the values that differ as trailing `i64`
    arguments, one per distinct column of values across the kernels (at
    most 12). Each call to one of them calls it, with that kernel's
    values. Constants used in any other way (divisors, shift
    amounts, masks, call and intrinsic operands) keep their values: kernels
    that differ in them stay apart.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ParallelToRuntimePass
    : Pass<"nnc-cpu-parallel-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Kernels' parallel loop nests as calls of the runtime's "
                "dispatcher";
  let description = [{
    Runs on the LLVM dialect, after nnc-cpu-merge-kernels. In every kernel,
    an `omp.parallel` region that holds only a guided (or unscheduled)
    `omp.wsloop` of one `omp.loop_nest`, without clauses, becomes a call
    `nnc_parallel_for(@KERNEL.bodyN, context, count)`: the nest's blocks
    move to the internal function `KERNEL.bodyN(context, first, last)`,
    which runs its iterations [first, last) (numbered row-major, each
    dimension's indices from its bounds and step); the values it reads
    from the kernel go through a structure on the kernel's stack, and its
    constants are copied into it. The runtime (runtime/lib/Parallel.cpp)
    hands out chunks of the `count` iterations to the OpenMP threads as
    the guided schedule does.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // NNC_CODEGEN_CPU_PASSES_TD
