//===- ParallelEmit.cpp - object files compiled on several threads --------===//
//
// Part of nnc. A large model (ResNet-50's training program has hundreds of
// kernels) spends most of its compile time in LLVM's optimiser and code
// generator, which run on one thread. The module is split by function into
// parts of about equal estimated cost; each part goes through bitcode into
// its own LLVMContext and is optimised and compiled by one of the hardware
// threads.
//
// The functions marked optnone are the entry points' sequencers (kernel
// calls, allocations, memref descriptors; OutlineKernels marks them). They
// go into a part of their own, compiled without optimisation: at -O3 the
// code generator spends seconds on ResNet-50's training step alone (one
// block of thousands of calls, through SelectionDAG and the greedy register
// allocator), while its run time is nothing beside the kernels'.
//
//===----------------------------------------------------------------------===//

#include "LLVMCodegen.h"
#include "nnc/Driver/Error.h"

#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace llvm;

namespace {

/// Whether `value` is a sequencer: a defined function marked optnone.
bool isSequencer(const GlobalValue *value) {
  const auto *f = dyn_cast<Function>(value);
  return f && !f->isDeclaration() && f->hasOptNone();
}

/// Gives every local symbol external linkage and hidden visibility, so that
/// a function or global may be defined in one part and used in another.
void externalizeLocals(Module &module) {
  auto externalize = [](GlobalValue &value) {
    if (!value.hasLocalLinkage())
      return;
    if (!value.hasName())
      value.setName("nnc_local");
    value.setLinkage(GlobalValue::ExternalLinkage);
    value.setVisibility(GlobalValue::HiddenVisibility);
  };
  for (Function &f : module)
    externalize(f);
  for (GlobalVariable &v : module.globals())
    externalize(v);
  for (GlobalAlias &a : module.aliases())
    externalize(a);
}

/// Folds a sequencer's memref descriptors: each is built with insertvalue
/// and taken apart with extractvalue for the next call, which FastISel
/// cannot select. Folded, the function is its calls and their scalars.
void foldDescriptors(Function &f) {
  const DataLayout &layout = f.getDataLayout();
  for (BasicBlock &block : f)
    for (Instruction &inst : make_early_inc_range(block))
      if (Value *simpler = simplifyInstruction(&inst, SimplifyQuery(layout)))
        inst.replaceAllUsesWith(simpler);
  for (BasicBlock &block : f)
    for (Instruction &inst : make_early_inc_range(reverse(block)))
      if (isInstructionTriviallyDead(&inst))
        inst.eraseFromParent();
}

SmallString<0> toBitcode(const Module &module) {
  SmallString<0> buffer;
  raw_svector_ostream os(buffer);
  WriteBitcodeToFile(module, os);
  return buffer;
}

/// A part as bitcode, and whether it holds the sequencers.
struct Part {
  SmallString<0> bitcode;
  bool sequencers = false;
};

/// A function's estimated compile time: its memory accesses. Their address
/// arithmetic is most of what loop strength reduction, instruction
/// selection and register allocation work on; over AlexNet's kernels their
/// count follows the code generator's time (correlation 0.83) far more
/// closely than the instruction count does (0.62).
uint64_t estimatedCost(Function &f) {
  uint64_t cost = 1;
  for (Instruction &inst : instructions(f))
    cost += inst.mayReadOrWriteMemory();
  return cost;
}

/// Splits the functions of `whole` other than the sequencers into
/// `numParts` parts of about equal estimated cost: heaviest first, each
/// into the part with the least cost so far (with a hash of the names, a
/// part could hold most of the heavy contraction kernels and finish long
/// after the others). The global variables are defined in the first part;
/// every part declares what it uses from the others.
void splitByCost(Module &whole, unsigned numParts, std::vector<Part> &parts) {
  std::vector<std::pair<uint64_t, Function *>> functions;
  for (Function &f : whole)
    if (!f.isDeclaration() && !isSequencer(&f))
      functions.push_back({estimatedCost(f), &f});
  llvm::sort(functions, [](const auto &x, const auto &y) {
    if (x.first != y.first)
      return x.first > y.first;
    return x.second->getName() < y.second->getName();
  });
  std::vector<uint64_t> costs(numParts, 0);
  DenseMap<const GlobalValue *, unsigned> owner;
  for (auto [cost, f] : functions) {
    unsigned lightest =
        std::min_element(costs.begin(), costs.end()) - costs.begin();
    owner[f] = lightest;
    costs[lightest] += cost;
  }
  for (unsigned i = 0; i < numParts; ++i) {
    ValueToValueMapTy map;
    std::unique_ptr<Module> part =
        CloneModule(whole, map, [&](const GlobalValue *value) {
          if (!isa<Function>(value))
            return i == 0;
          auto it = owner.find(value);
          return it != owner.end() && it->second == i;
        });
    parts.push_back({toBitcode(*part), /*sequencers=*/false});
  }
}

/// Optimises and compiles one part into `path`; the error, if any, in
/// `error`. The sequencers' part is compiled without optimisation.
void compilePart(const Part &part, const nnc::CodegenOptions &options,
                 const std::string &path, std::string &error) {
  LLVMContext context;
  Expected<std::unique_ptr<Module>> module =
      parseBitcodeFile(MemoryBufferRef(part.bitcode, "part"), context);
  if (!module) {
    error = toString(module.takeError());
    return;
  }
  std::unique_ptr<TargetMachine> machine = nnc::createTargetMachine(options);
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (!machine || ec) {
    error = ec ? "cannot write '" + path + "': " + ec.message()
               : "no target machine";
    return;
  }
  unsigned optLevel = options.optLevel;
  if (part.sequencers) {
    optLevel = 0;
    machine->setOptLevel(CodeGenOptLevel::None);
    for (Function &f : **module)
      if (!f.isDeclaration())
        foldDescriptors(f);
  }
  if (failed(nnc::optimizeAndEmit(**module, *machine, optLevel, nnc::Stage::Obj,
                                  os)))
    error = "could not compile part '" + path + "'";
}

} // namespace

mlir::LogicalResult nnc::emitObjectsInParallel(mlir::ModuleOp module,
                                               const CodegenOptions &options,
                                               ArrayRef<std::string> paths) {
  assert(paths.size() >= 2 && "one part for the sequencers, one for the rest");
  LLVMContext context;
  FailureOr<TargetModule> target = translateForTarget(module, context, options);
  if (failed(target))
    return mlir::failure();
  Module &whole = *target->module;
  externalizeLocals(whole);
  std::vector<Part> parts;
  ValueToValueMapTy map;
  std::unique_ptr<Module> sequencers = CloneModule(whole, map, isSequencer);
  parts.push_back({toBitcode(*sequencers), /*sequencers=*/true});
  splitByCost(whole, paths.size() - 1, parts);
  std::vector<std::string> errors(parts.size());
  // Threads take the next part as they finish one. The sequencers' part
  // comes first: compiled without optimisation, it is nothing for a small
  // model, but 1.6 s of ResNet-50's training program, which must not run
  // alone at the end; the others have about equal costs.
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < parts.size();)
      compilePart(parts[i], options, paths[i], errors[i]);
  };
  size_t workers = std::min<size_t>(
      parts.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers; ++i)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();
  for (const std::string &error : errors)
    if (!error.empty())
      return nnc::reportError(error);
  return mlir::success();
}
