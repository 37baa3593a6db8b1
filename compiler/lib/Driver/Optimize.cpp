//===- Optimize.cpp - LLVM's optimisation pipeline for nnc's modules ------===//
//
// Part of nnc. LLVM's default pipeline at the requested level (-O2's for
// -O3, see optimizeModule), without loop strength reduction: nnc's kernels
// address their buffers with offsets that x86's addressing modes absorb
// (the contraction kernels carry theirs through their loops,
// ContractionEmit.cpp), and on the others (elementwise loops, copies with
// computed addresses) it cost a quarter of their code generation for
// nothing measurable at run time (docs/bench.md). Passes of the default
// pipeline that find nothing to do in nnc's modules are skipped (idlePass,
// and the late InstCombine runs in the contraction kernels:
// OptionalPasses), constant propagation does not specialise functions, and
// the code generator runs without its post-RA list scheduler. LLVM's
// standard instrumentations leave the optnone sequencers alone (when
// `--emit=obj` compiles them with the rest) and give `--time-passes`.
//
//===----------------------------------------------------------------------===//

#include "LLVMCodegen.h"

#include "nnc/Codegen/CPU/Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>

using namespace llvm;

namespace {
/// Whether a loop of `f` carries a floating-point value (a reduction) from
/// one iteration to the next. The partial unroller runs only on such
/// kernels: an elementwise loop or a copy, whose vectorised body is a few
/// loads and a store bound by memory, gains nothing from it, while the
/// copies of 84 vectors of a padded image came out unrolled 21 times, and
/// loop strength reduction, instruction selection and register allocation
/// then paid for every copy. Without it elsewhere, ResNet-50's
/// optimisation took 1.79 s of CPU against 2.00 s and its code generation
/// 3.52 against 3.76 (three rounds each, `--emit=llvm-ir` and `llc`), and
/// its training step and cifar10_cnn's ran as fast.
bool hasFloatRecurrence(const Function &f) {
  for (const BasicBlock &block : f)
    for (const PHINode &phi : block.phis())
      if (phi.getType()->isFPOrFPVectorTy())
        return true;
  return false;
}

/// Whether `pass` may be skipped on `ir`, a function or loop of an nnc
/// module: it finds nothing to do there, or nothing that matters. They took
/// 12% of cifar10_cnn's optimisation and code generation, most of it loop
/// load elimination's dependence analysis of the loops with many accesses,
/// and the full unroller's cost model on the contraction kernels' long
/// unrolled loops.
/// - Everywhere: no loop reads what an earlier iteration stored (loop load
///   elimination), no store is overwritten unread (dead store
///   elimination), no loop is dead, and no call is indirect. Nor is there
///   anything left for the late clean-ups (loop instruction simplification,
///   sparse constant propagation, bit-tracking and aggressive dead code
///   elimination, memcpy optimisation) after InstCombine and the MLIR
///   lowering's own folding: ResNet-50's compile took about 6% less CPU
///   without these five. Every reference model's object
///   comes out byte for byte the same without any of them.
/// - In the contraction kernels, which ContractionEmit vectorises and
///   unrolls itself: no loop or straight-line code left to vectorise, no
///   loop that is a memset or memcpy, and no loop worth unrolling, whole or
///   in part. The copies of A's rows and of the packed panels stay loops of
///   whole vectors (products from 512 to 2048 ran as fast,
///   bench/ab_product.sh). Under `--time-passes`, AlexNet's LLVM passes
///   took 7.9 s of CPU, against 9.1 s when the partial unroller also
///   weighed the micro-kernels' long loops (0.71 s of it, 0.10 s now).
///   Nor is a loop worth unswitching: the tests it would hoist (a K
///   block's phase, the last panel) are taken once per register tile of
///   hundreds of FMAs, and always the same way. Without it, the innermost
///   FMA loops of ResNet-50's 86 contraction kernels come out the same
///   (27 of alexnet_tf_cnn's 30), the products of 512 to 2048 run as fast
///   (bench/ab_product.sh), and alexnet_tf_cnn compiles in 4.2% fewer
///   instructions. Nor is an induction variable left to simplify: the
///   micro-kernel's K loop runs over A's offset and carries B's
///   (ContractionEmit.cpp). IndVarSimplify took 0.4 s of CPU on ResNet-50's
///   contraction kernels, a sixth of their optimisation; without it and
///   with that loop, 35 of their 82 FMA loops come out an instruction
///   shorter (no counter beside the offsets), 4 longer by one or two
///   instructions after the loop, the rest the same. Nor is anything left
///   for InstSimplify between the loop passes and GVN: every reference
///   model's assembly, on both vector widths, is the same without it.
/// - In the other kernels, the partial unroller where no loop carries a
///   float (hasFloatRecurrence).
bool idlePass(StringRef pass, Any ir) {
  if (is_contained({"LoopLoadEliminationPass", "DSEPass", "LoopDeletionPass",
                    "CalledValuePropagationPass", "LoopInstSimplifyPass",
                    "SCCPPass", "BDCEPass", "ADCEPass", "MemCpyOptPass"},
                   pass))
    return true;
  if (!is_contained({"SLPVectorizerPass", "LoopVectorizePass",
                     "LoopIdiomRecognizePass", "LoopFullUnrollPass",
                     "LoopUnrollPass", "SimpleLoopUnswitchPass",
                     "IndVarSimplifyPass", "InstSimplifyPass"},
                    pass))
    return false;
  const Function *f = nullptr;
  if (const auto *function = any_cast<const Function *>(&ir))
    f = *function;
  else if (const auto *loop = any_cast<const Loop *>(&ir))
    f = (*loop)->getHeader()->getParent();
  if (!f)
    return false;
  if (f->hasFnAttribute(nnc::cpu::kContractionFnAttr))
    return true;
  return pass == "LoopUnrollPass" && !hasFloatRecurrence(*f);
}

/// Which optional passes run on the functions of one module: idlePass's
/// choice, and no InstCombine in a contraction kernel once the
/// optimisation pipeline (from the loop vectoriser on) has begun. Its
/// InstCombine runs clean up after the vectorisers and the unroller, idle
/// there; every reference model's optimised IR but cifar_mlp's is byte for
/// byte the same without them (cifar_mlp: one tile's row offset an `add`
/// where it was an `or disjoint`), and they were a fifth of InstCombine's
/// time on Inception-v3 (`--time-passes`: 1.5 s of CPU, 1.2 s without).
class OptionalPasses {
public:
  bool shouldRun(StringRef pass, Any ir) {
    if (const auto *function = any_cast<const Function *>(&ir)) {
      const Function *f = *function;
      if (f->hasFnAttribute(nnc::cpu::kContractionFnAttr)) {
        if (pass == "LoopVectorizePass")
          optimizing.insert(f);
        else if (pass == "InstCombinePass" && optimizing.contains(f))
          return false;
      }
    }
    return !idlePass(pass, ir);
  }

private:
  DenseSet<const Function *> optimizing;
};

/// Marks optnone the functions that only start a parallel region (a
/// kernel's entry: its loops are in its `.bodyN` functions, which the entry
/// hands to the runtime's `nnc_parallel_for`, nnc-cpu-parallel-to-runtime;
/// or in the `..omp_par` function OpenMP's translation outlined from a
/// region left to it, handed to `__kmpc_fork_call`). The
/// entries are a few stores and a call, run once per kernel call; without
/// optimisation, ResNet-50's 188 take about 0.13 s less CPU to compile
/// (its `--emit=llvm-ir` 1.79 -> 1.73 s, `llc` 3.59 -> 3.51 s, medians of
/// three). An entry with a loop of its own (a kernel that runs on one
/// thread around its region) is optimised.
void skipParallelRegionEntries(Module &module) {
  SmallPtrSet<Function *, 16> entries;
  for (StringRef name : {"__kmpc_fork_call", "nnc_parallel_for"}) {
    Function *fork = module.getFunction(name);
    if (!fork)
      continue;
    for (User *user : fork->users())
      if (auto *call = dyn_cast<CallBase>(user);
          call && call->getCalledFunction() == fork)
        entries.insert(call->getFunction());
  }
  for (Function *f : entries) {
    if (f->hasOptNone())
      continue;
    SmallVector<std::pair<const BasicBlock *, const BasicBlock *>> backEdges;
    FindFunctionBackedges(*f, backEdges);
    if (!backEdges.empty())
      continue;
    f->addFnAttr(Attribute::OptimizeNone);
    f->addFnAttr(Attribute::NoInline);
  }
}

/// Sets the LLVM option `name` to `value` as if the command line had (some
/// options read where they were given, not their value), unless it did.
void setDefault(StringRef name, StringRef value) {
  cl::Option *option = cl::getRegisteredOptions().lookup(name);
  if (option && option->getNumOccurrences() == 0)
    (void)option->addOccurrence(/*pos=*/1, name, value);
}

/// LLVM's defaults for nnc's modules, set once:
/// - No function specialisation in interprocedural constant propagation
///   (`-funcspec-max-iters=0`): a kernel is called through the runtime's
///   nnc_parallel_for or from another part of the module, never with
///   constant arguments it could be specialised for. Every reference
///   model's assembly, on both vector widths, is the same without it, and
///   IPSCCP took about 0.12 s of CPU on Inception-v3's kernels, not 0.23.
/// - No loop strength reduction (`-disable-lsr`), the pass that would
///   rewrite the loops' address arithmetic into pointer increments. On
///   Inception-v3's kernels other than the contraction kernels (which it
///   left alone already) it took 0.37 s of CPU, a quarter of their code
///   generation; without it their share of ResNet-50's, Inception-v3's and
///   AlexNet's run time was the same or lower (`perf` samples against the
///   unchanged contraction kernels') and their object code 3% smaller. A
///   CUDA model's kernels are compiled to PTX earlier, in the MLIR
///   pipeline, with it on.
/// - No post-RA list scheduling (`-post-RA-scheduler=false`): on these
///   out-of-order cores the order it picks after register allocation gains
///   nothing. `llc` took 15 to 20% less time on Inception-v3's contraction
///   kernels without it (1.6 to 1.8 s, against 1.9 to 2.2), 7% on its
///   other kernels; products of 512 to 2048 (bench/ab_product.sh), the
///   training steps of cifar10_cnn and ResNet-50 and AlexNet's forward and
///   forward-backward passes ran as fast (docs/bench.md).
void setDefaults() {
  static std::once_flag once;
  std::call_once(once, [] {
    setDefault("funcspec-max-iters", "0");
    setDefault("disable-lsr", "true");
    setDefault("post-RA-scheduler", "false");
  });
}
} // namespace

Error nnc::optimizeModule(Module &module, TargetMachine &machine,
                          unsigned optLevel) {
  setDefaults();
  skipParallelRegionEntries(module);
  // -O3's pipeline adds nothing to -O2's that nnc's kernels gain from (the
  // code generator stays at -O3): with -O2's, ResNet-50's contraction
  // kernels compile to the same machine code, 52 of its other kernels to
  // less (reductions unrolled fewer times), and its training step,
  // cifar10_cnn's, AlexNet's forward-backward and Inception-v3's run as
  // fast, while its optimisation takes 1.39 s of CPU, not 1.69, and its
  // code generation 3.2, not 3.4 (docs/bench.md).
  OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                            : optLevel == 1 ? OptimizationLevel::O1
                                            : OptimizationLevel::O2;
  LoopAnalysisManager loops;
  FunctionAnalysisManager functions;
  CGSCCAnalysisManager sccs;
  ModuleAnalysisManager modules;
  PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  PassInstrumentationCallbacks callbacks;
  StandardInstrumentations instrumentations(module.getContext(),
                                            /*DebugLogging=*/false);
  instrumentations.registerCallbacks(callbacks, &modules);
  OptionalPasses optional;
  callbacks.registerShouldRunOptionalPassCallback(
      [&optional](StringRef pass, Any ir) {
        return optional.shouldRun(pass, ir);
      });
  PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  ModulePassManager pm = builder.buildPerModuleDefaultPipeline(level);
  pm.run(module, modules);
  return Error::success();
}
