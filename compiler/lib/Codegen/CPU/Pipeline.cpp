//===- Pipeline.cpp - the CPU target's pass pipelines ---------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Pipeline.h"

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Conversion/Passes.h"
#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

void nnc::cpu::buildLinalgPipeline(OpPassManager &pm) {
  pm.addPass(createRecordLayersPass());
  // The conversion and the fusion rewrite inside one function at a time, so
  // they run on every function in parallel (converting Inception-v3's
  // module on one thread took 0.027 s).
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createConvertNNToLinalg());
  // Elementwise chains (bias, activation, the losses' pieces) become one
  // linalg.generic each, so their intermediates are never materialised;
  // a producer its consumer would recompute (broadcast, or read inside a
  // reduction) is materialised once instead.
  functions.addPass(createFuseElementwisePass());
  // Without the linalg dialect's pattern that gives a linalg op's tensor
  // operands the static sizes its other operands imply: every tensor of an
  // nn model has static sizes, and the pattern worked them out for every
  // linalg op in vain (Inception-v3: 0.17 G instructions, most of them on
  // the thread that canonicalises the training pass).
  functions.addPass(createCanonicalizerWithoutRegionSimplification(
      {"(anonymous namespace)::InferStaticShapeOfOperands"}));
  functions.addPass(createCSEPass());
}

/// Parses a fixed pipeline string of upstream passes into `pm`.
static void addUpstream(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("nnc: invalid built-in CPU pipeline");
}

/// Adds nnc-run-where-present: `pipeline` (with its anchor) on each op
/// `pm` runs on that holds ops of `dialects` (comma-separated), and of
/// `alongside` too if it names any.
static void addWherePresent(OpPassManager &pm, StringRef dialects,
                            StringRef pipeline, StringRef alongside = "") {
  nnc::RunWherePresentPassOptions options;
  auto append = [](StringRef list, auto &into) {
    SmallVector<StringRef> names;
    list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef name : names)
      into.push_back(name.str());
  };
  append(dialects, options.dialects);
  append(alongside, options.alongside);
  options.pipeline = pipeline.str();
  pm.addPass(nnc::createRunWherePresentPass(options));
}

void nnc::cpu::buildLLVMPipeline(OpPassManager &pm, const CPUTuning &tuning) {
  pm.addPass(createExportModelInterfacePass());
  // A padded buffer's fill shrinks to the border its producer leaves.
  pm.addNestedPass<func::FuncOp>(createFillBordersPass());
  // Matrix products and convolutions: register tiles, cache blocks, threads.
  ContractionsPassOptions contractions;
  contractions.vectorBits = tuning.vectorBits;
  contractions.vectorRegisters = tuning.vectorRegisters;
  contractions.l1Bytes = tuning.l1Bytes;
  contractions.l2Bytes = tuning.l2Bytes;
  pm.addNestedPass<func::FuncOp>(createContractionsPass(contractions));
  pm.addNestedPass<func::FuncOp>(createCopiesToLinalgPass());
  // Each loop nest in its own function; identical ones are compiled once,
  // and fills of any shape are one kernel.
  pm.addNestedPass<func::FuncOp>(createGenericFillsPass());
  // The kernels, contraction kernels included, merge once their loops are
  // in place (nnc-cpu-merge-flat-kernels below). Merged here as well, as
  // soon as outlined, the contraction kernels whose C blocks differ in
  // number stayed apart (an scf.forall's bounds are attributes, not
  // constants), and the groups' arguments then kept them from the later
  // merges: Inception-v3 compiled 86 contraction kernels, not 79, ResNet-50
  // 54, not 52.
  pm.addPass(createOutlineKernelsPass());
  // Everything else: threads over the outer loops, vectors along the
  // innermost dimension. Other loops: parallel over the outer parallel
  // dimensions, the output's last dimension innermost for LLVM's
  // vectoriser. These passes rewrite inside one function at a time, so they
  // run on every function in parallel (as a module pass, the conversion to
  // loops alone took 0.16 s of AlexNet's compilation), and only on the
  // kernels: once they are out, an entry point holds calls, buffers and
  // views, thousands of them in ResNet-50's training step, which each of
  // these passes walked for nothing.
  OpPassManager &loops = pm.nest<func::FuncOp>();
  addWherePresent(
      loops, "linalg,scf,vector,math",
      llvm::formatv("func.func(nnc-cpu-vectorize{{vector-bits={0}},"
                    "scf-forall-to-parallel,nnc-cpu-vectorizable-loop-order)",
                    tuning.vectorBits)
          .str());
  // Linalg to loops and the math expansion rewrite through the greedy
  // driver, which visits and folds every op of a function: they run only
  // where a linalg or a math op is left, so never on a contraction kernel
  // (thousands of vector ops).
  addWherePresent(loops, "linalg",
                  "func.func(convert-linalg-to-parallel-loops)");
  addWherePresent(loops, "scf",
                  "func.func(nnc-cpu-sequential-inner-parallel-loops)");
  // Math ops (rsqrt, powf, floor) are expanded while the kernels are still
  // whole vectors: after the full unroll below, the rewrite visited every op
  // of the unrolled kernels (0.59 s of ResNet-50's compile, against 0.18).
  addWherePresent(loops, "math", "func.func(math-expand-ops)");
  // The lowering of the transfers is greedy too, and converts nothing
  // else: only where there is one.
  addWherePresent(loops, "vector.transfer_read,vector.transfer_write",
                  "func.func(convert-vector-to-scf{full-unroll=true})");
  // Kernels that differ in their buffers' shapes alone (a layer's
  // elementwise and reduction kernels at each image size) are merged before
  // their lowering, with the contraction kernels: their views fold into
  // their accesses, their buffers become flat, and the strides and offsets
  // constants that nnc-cpu-merge-flat-kernels makes arguments.
  // The entry points' views are left to nnc-cpu-lower-entry-points: they
  // hold no loop.
  addWherePresent(loops,
                  "memref.subview,memref.expand_shape,memref.collapse_shape,"
                  "affine",
                  "func.func(nnc-cpu-fold-views,lower-affine)", "scf");
  pm.addPass(createFlattenKernelBuffersPass());
  pm.addPass(createMergeFlatKernelsPass());
  // The kernels' repeated constants fold here, once they are merged
  // (Inception-v3's 832 kernels before, 224 after; canonicalised before,
  // they merged into 244, as it folds in some kernels what stays an
  // argument in others). Not in the entry points (they hold no loop):
  // nnc-cpu-lower-entry-points folds their sizes and strides itself, and
  // canonicalising Inception-v3's training pass (48k lines: constants,
  // views and calls) took half of the pass's time. Without the region
  // simplification (merging blocks, dropping their unused arguments),
  // which walks every function again at each iteration and changes nothing
  // that reaches the object code here: every reference model's object code
  // is the same, and the pass took 0.32 s of ResNet-50's compile against
  // 0.42 to 0.57 s. In one sweep over each kernel: the driver's worklist
  // revisits what a rewrite changes, and the second sweep over every op
  // only folded a few constants that LLVM folds anyway. Every reference
  // model's assembly on both paths is the same, and the MLIR passes of
  // Inception-v3's AVX-512 compile execute 17.31 G instructions, not 17.64.
  addWherePresent(
      pm.nest<func::FuncOp>(), "scf",
      "func.func(canonicalize{region-simplify=disabled max-iterations=1})");
  // Upstream passes, in the order the lowering needs: alloca scopes that
  // scf-to-openmp creates are lowered with the memrefs, before scf-to-cf
  // splits their regions.
  // expand-strided-metadata makes affine.apply of the vector code's
  // subviews, hence the second lower-affine. Allocations call the
  // runtime's _mlir_memref_to_llvm_alloc (runtime/lib/Alloc.cpp), which
  // reports running out of memory instead of returning null. The passes that
  // only rewrite inside a function run on every function in parallel
  // (func.func(...)); those that add module-level symbols run on parts of
  // the module (below).
  // The conversions below are module passes (they declare functions and
  // globals at the top), though each converts one function at a time:
  // they run on parts of the module of about equal sizes, in parallel
  // (on one thread, ResNet-50's took 1.9 s, against 1.2 s in parts).
  pm.addPass(createNestFunctionPartsPass());
  OpPassManager &parts = pm.nest<ModuleOp>();
  // The entry points' parts straight to the LLVM dialect, each buffer two
  // pointers: the conversions below then find nothing left in them.
  parts.addPass(createLowerEntryPointsPass());
  // Each conversion runs only where there is something for it to convert
  // (nnc-run-where-present): every one of them walks, folds and legalises
  // all the ops it is given. The entry points (thousands of calls,
  // allocations and their buffers' descriptors) hold no vector, math,
  // scf, OpenMP or control-flow op; in ResNet-50 those passes took as long
  // on them as on the kernels.
  addWherePresent(parts, "scf", "builtin.module(convert-scf-to-openmp)");
  // Threads take chunks of a loop as they become free, not a fixed share.
  parts.addNestedPass<func::FuncOp>(createGuidedSchedulePass());
  OpPassManager &views = parts.nest<func::FuncOp>();
  addWherePresent(views, "affine", "func.func(lower-affine)");
  // Only views (subviews, reshapes, casts) have metadata to expand: the
  // contraction kernels, three quarters of the kernels' code, have none,
  // and the greedy rewrite walked every op of theirs (0.3 s of
  // Inception-v3's CPU). The vectorised kernels' subviews (two for each
  // vector they load or store) first fold into the accesses, which then
  // index the views' sources. Expanded instead, each was a chain of
  // metadata, casts and offsets for the later passes to fold: Inception-v3's
  // MLIR passes executed 6% more instructions (callgrind,
  // `--emit=llvm-mlir`: 22.9 G against 21.5 G).
  addWherePresent(
      views,
      "memref.subview,memref.expand_shape,memref.collapse_shape,"
      "memref.reinterpret_cast,memref.cast,memref.transpose,"
      "memref.extract_strided_metadata",
      "func.func(nnc-cpu-fold-views{expand-metadata=true},lower-affine)");
  addUpstream(parts, "finalize-memref-to-llvm{use-generic-functions=true}");
  OpPassManager &functions = parts.nest<func::FuncOp>();
  addWherePresent(functions, "scf", "func.func(convert-scf-to-cf)");
  addWherePresent(functions, "math", "func.func(convert-math-to-llvm)");
  addWherePresent(parts, "math", "builtin.module(nnc-cpu-math-to-libm)");
  OpPassManager &functionsAgain = parts.nest<func::FuncOp>();
  addWherePresent(functionsAgain, "vector",
                  "func.func(nnc-cpu-vector-to-llvm)");
  // What is left (arith, ub, index, cf, omp, func) in one conversion: each
  // conversion pass walks and legalises every op of its functions. On
  // Inception-v3's module on one thread, the six took 2.2 s against 0.95 s
  // for the one, whose LLVM dialect is byte for byte the same.
  addUpstream(parts, "convert-to-llvm,reconcile-unrealized-casts");
  // Each access's read of its buffer's pointer out of the descriptor
  // becomes the pointer, before LLVM translates them all.
  parts.addNestedPass<LLVM::LLVMFuncOp>(createFoldDescriptorReadsPass());
  pm.addPass(createFlattenCallComponentsPass());
  pm.addPass(createPackedEntryPointsPass());
  // Kernels that differ in constants alone are compiled once.
  pm.addPass(createMergeKernelsPass());
  // Their parallel loop nests call the runtime's dispatcher.
  pm.addPass(createParallelToRuntimePass());
}

void nnc::cpu::registerPipelines() {
  PassPipelineRegistration<>("nnc-cpu-linalg-pipeline",
                             "Lower nn to linalg on tensors for the CPU and "
                             "clean up",
                             buildLinalgPipeline);
  PassPipelineRegistration<>(
      "nnc-cpu-llvm-pipeline",
      "Bufferized model to the LLVM dialect for the CPU, with its description",
      [](OpPassManager &pm) { buildLLVMPipeline(pm); });
}
