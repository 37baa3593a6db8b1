//===- ParallelEmit.cpp - object files compiled on several threads --------===//
//
// Part of nnc. A large model (ResNet-50's training program has hundreds of
// kernels) spends most of its compile time in LLVM's optimiser and code
// generator, which run on one thread. The module is split by function into
// parts of about equal estimated cost, each an MLIR module of its own that
// declares what it uses from the others; each part is translated to LLVM
// IR in its own LLVMContext, optimised and compiled by one of the hardware
// threads. Splitting the LLVM dialect, not its translation, keeps the
// translation on the threads too: translating ResNet-50's module whole,
// then cloning its parts through bitcode, took 2 s on one thread.
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
#include "nnc/Utils/SymbolUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>
#include <atomic>
#include <thread>

using namespace llvm;
using mlir::LLVM::LLVMFuncOp;

namespace {

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

/// Whether `f` is a sequencer: a defined function marked optnone.
bool isSequencer(LLVMFuncOp f) {
  if (f.isExternal())
    return false;
  std::optional<mlir::ArrayAttr> passthrough = f.getPassthrough();
  return passthrough && llvm::any_of(*passthrough, [](mlir::Attribute a) {
           auto name = dyn_cast<mlir::StringAttr>(a);
           return name && name.getValue() == "optnone";
         });
}

/// What a function costs LLVM whatever its size, in memory accesses (the
/// unit of estimatedCost): over ResNet-50's and VGG16's kernels, their
/// compile times fit 14 ms a function plus 0.15 ms an access. A part of
/// small kernels was estimated at a fraction of its time.
constexpr uint64_t kFunctionCost = 100;

/// A function's estimated compile time: kFunctionCost plus its memory
/// accesses. Their address arithmetic is most of what instruction
/// selection and register allocation work on; over AlexNet's kernels their
/// count follows the code generator's time (correlation 0.83) far more
/// closely than the instruction count does (0.62).
uint64_t estimatedCost(LLVMFuncOp f) {
  uint64_t cost = kFunctionCost;
  f.walk([&](mlir::Operation *op) {
    cost += op->getNumRegions() == 0 && !mlir::isMemoryEffectFree(op);
  });
  return cost;
}

/// An empty module with `whole`'s name and attributes (data layout, the
/// model's batch size).
mlir::OwningOpRef<mlir::ModuleOp> emptyPart(mlir::ModuleOp whole) {
  mlir::OwningOpRef<mlir::ModuleOp> part =
      mlir::ModuleOp::create(whole.getLoc(), whole.getName());
  (*part)->setAttrs(whole->getAttrDictionary());
  return part;
}

/// Gives `symbol`, a function or global that another part uses, external
/// linkage if it was local to the module, and hidden visibility then.
void exportSymbol(mlir::Operation *symbol) {
  auto externalize = [](auto op) {
    mlir::LLVM::Linkage linkage = op.getLinkage();
    if (linkage != mlir::LLVM::Linkage::Internal &&
        linkage != mlir::LLVM::Linkage::Private)
      return;
    op.setLinkage(mlir::LLVM::Linkage::External);
    op.setVisibility_(mlir::LLVM::Visibility::Hidden);
  };
  if (auto f = dyn_cast<LLVMFuncOp>(symbol))
    externalize(f);
  else if (auto global = dyn_cast<mlir::LLVM::GlobalOp>(symbol))
    externalize(global);
}

/// Declares in `part` the symbols of `uses`, which another part defines: a
/// function without its body, a global without its value.
void declareUses(mlir::ModuleOp part, ArrayRef<mlir::Operation *> uses) {
  mlir::OpBuilder builder = mlir::OpBuilder::atBlockBegin(part.getBody());
  for (mlir::Operation *symbol : uses) {
    exportSymbol(symbol);
    mlir::Operation *decl = builder.cloneWithoutRegions(*symbol);
    if (auto f = dyn_cast<LLVMFuncOp>(decl))
      f.removePassthroughAttr();
    if (auto global = dyn_cast<mlir::LLVM::GlobalOp>(decl)) {
      global.removeValueAttr();
      global.setLinkage(mlir::LLVM::Linkage::External);
    }
  }
}

/// Splits the functions of `whole` into `numParts` parts: the sequencers
/// into the first, the others into parts of about equal estimated cost but
/// the last few, heaviest first, each into the part least full for its
/// share (with a hash of the names, a part could hold most of the heavy
/// contraction kernels and finish long after the others). The definitions
/// move; the global variables go to the second part; every part declares
/// what it uses from the others. `whole` keeps the declarations.
std::vector<mlir::OwningOpRef<mlir::ModuleOp>> split(mlir::ModuleOp whole,
                                                     unsigned numParts) {
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> parts;
  for (unsigned i = 0; i < numParts; ++i)
    parts.push_back(emptyPart(whole));
  std::vector<std::pair<uint64_t, LLVMFuncOp>> functions;
  std::vector<std::pair<mlir::Operation *, unsigned>> moves;
  for (mlir::Operation &op : *whole.getBody()) {
    auto f = dyn_cast<LLVMFuncOp>(op);
    if (!f)
      moves.push_back({&op, 1});
    else if (isSequencer(f))
      moves.push_back({&op, 0});
    else if (!f.isExternal())
      functions.push_back({estimatedCost(f), f});
  }
  // By value: an LLVMFuncOp's accessors are not const.
  llvm::sort(functions, [](std::pair<uint64_t, LLVMFuncOp> x,
                           std::pair<uint64_t, LLVMFuncOp> y) {
    if (x.first != y.first)
      return x.first > y.first;
    return x.second.getName() < y.second.getName();
  });
  // The last parts are smaller, down to an eighth of the others: the
  // threads take them as they finish, so an estimate that was off leaves
  // one thread alone for an eighth of a part, not a whole one.
  unsigned numKernelParts = numParts - 1;
  std::vector<double> weights(numKernelParts);
  for (unsigned i = 0; i < numKernelParts; ++i)
    weights[i] = std::min(1.0, (numKernelParts - i) / 8.0);
  std::vector<uint64_t> costs(numKernelParts, 0);
  for (auto [cost, f] : functions) {
    unsigned emptiest = 0;
    for (unsigned i = 1; i < numKernelParts; ++i)
      if ((costs[i] + cost) / weights[i] <
          (costs[emptiest] + cost) / weights[emptiest])
        emptiest = i;
    costs[emptiest] += cost;
    moves.push_back({f, 1 + emptiest});
  }
  // The table of `whole` still finds the definitions once they have moved.
  mlir::SymbolTable table(whole);
  for (auto [op, i] : moves)
    op->moveBefore(parts[i]->getBody(), parts[i]->getBody()->end());
  SmallVector<mlir::ModuleOp> modules;
  for (mlir::OwningOpRef<mlir::ModuleOp> &part : parts)
    modules.push_back(*part);
  std::vector<SmallVector<mlir::Operation *>> uses =
      nnc::foreignSymbols(modules, table);
  for (size_t i = 0; i < parts.size(); ++i)
    declareUses(*parts[i], uses[i]);
  return parts;
}

/// Translates, optimises and compiles one part into `path`; the error, if
/// any, in `error`. The sequencers' part is compiled without optimisation.
void compilePart(mlir::ModuleOp part, bool sequencers,
                 const nnc::CodegenOptions &options, const std::string &path,
                 std::string &error) {
  LLVMContext context;
  mlir::FailureOr<nnc::TargetModule> target =
      nnc::translateForTarget(part, context, options);
  if (mlir::failed(target)) {
    error = "could not translate part '" + path + "'";
    return;
  }
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write '" + path + "': " + ec.message();
    return;
  }
  unsigned optLevel = options.optLevel;
  if (sequencers) {
    optLevel = 0;
    target->machine->setOptLevel(CodeGenOptLevel::None);
    for (Function &f : *target->module)
      if (!f.isDeclaration())
        foldDescriptors(f);
  }
  if (failed(nnc::optimizeAndEmit(*target->module, *target->machine, optLevel,
                                  nnc::Stage::Obj, os)))
    error = "could not compile part '" + path + "'";
}

} // namespace

mlir::LogicalResult nnc::emitObjectsInParallel(mlir::ModuleOp module,
                                               const CodegenOptions &options,
                                               ArrayRef<std::string> paths) {
  assert(paths.size() >= 2 && "one part for the sequencers, one for the rest");
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> parts =
      split(module, paths.size());
  std::vector<std::string> errors(parts.size());
  // Threads take the next part as they finish one. The sequencers' part
  // comes first: compiled without optimisation, it is nothing for a small
  // model, but a large training program's must not run alone at the end;
  // the others have about equal costs, but for the last few, smaller.
  // Each thread then destroys the part it compiled: on one thread, after
  // the others, Inception-v3's parts took 0.018 s.
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < parts.size();) {
      compilePart(*parts[i], /*sequencers=*/i == 0, options, paths[i],
                  errors[i]);
      parts[i] = nullptr;
    }
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
