//===- DeallocateBuffers.cpp - the nnc-deallocate-buffers pass ------------===//
//
// Part of nnc. After bufferization a model's functions are straight-line
// code: allocations, loop nests on buffers, calls, and a return of nothing
// (buffer-results-to-out-params made every result an out-param). Every
// buffer then lives until the return, where it is freed.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

namespace nnc {
#define GEN_PASS_DEF_DEALLOCATEBUFFERSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {

/// Whether `op` allocates, frees or reallocates memory that outlives the
/// scope it is in (a stack allocation does not).
bool managesHeap(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(
      instances, [](const MemoryEffects::EffectInstance &effect) {
        return isa<MemoryEffects::Allocate, MemoryEffects::Free>(
                   effect.getEffect()) &&
               !isa<SideEffects::AutomaticAllocationScopeResource>(
                   effect.getResource());
      });
}

/// The heap allocations of `f`, in order, when freeing them all at its
/// return is right: `f` is one block, returns no buffer, and its only heap
/// effects are memref.allocs in that block. A call frees nothing (the
/// model's functions free only what they allocate); an op of an
/// unregistered dialect may. Otherwise nullopt.
std::optional<SmallVector<memref::AllocOp>> allocationsToFree(func::FuncOp f) {
  if (llvm::any_of(f.getResultTypes(), llvm::IsaPred<BaseMemRefType>))
    return std::nullopt;
  if (f.isExternal())
    return SmallVector<memref::AllocOp>();
  if (!f.getBody().hasOneBlock())
    return std::nullopt;
  Block *body = &f.getBody().front();
  SmallVector<memref::AllocOp> allocs;
  WalkResult walk = f.getBody().walk([&](Operation *op) {
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (alloc && op->getBlock() == body) {
      allocs.push_back(alloc);
      return WalkResult::advance();
    }
    // An op of an unregistered dialect may do anything.
    if (!op->isRegistered() || managesHeap(op) ||
        isa<bufferization::BufferizationDialect>(op->getDialect()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return allocs;
}

/// Upstream's buffer deallocation pipeline
/// (`bufferization::buildBufferDeallocationPipeline`), with the passes
/// that work inside one function nested on the functions, so that they
/// run in parallel. Ownership-based deallocation resolves calls, and the
/// lowering of `bufferization.dealloc` may add a helper function to the
/// module, so both stay module passes. Upstream's CSE and canonicalisation
/// at its end are left to the clean-up after bufferization.
void buildDeallocationPipeline(OpPassManager &pm) {
  memref::ExpandReallocPassOptions expand;
  expand.emitDeallocs = false;
  pm.addNestedPass<func::FuncOp>(memref::createExpandReallocPass(expand));
  pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createCanonicalizerPass());
  functions.addPass(
      bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
}

struct DeallocateBuffersPass
    : nnc::impl::DeallocateBuffersPassBase<DeallocateBuffersPass> {
  DeallocateBuffersPass() : pipeline("builtin.module") {
    buildDeallocationPipeline(pipeline);
  }
  DeallocateBuffersPass(const DeallocateBuffersPass &other)
      : DeallocateBuffersPassBase(other), pipeline(other.pipeline) {}

  void getDependentDialects(DialectRegistry &registry) const override {
    DeallocateBuffersPassBase::getDependentDialects(registry);
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<func::FuncOp, SmallVector<memref::AllocOp>>> frees;
    for (auto f : module.getOps<func::FuncOp>()) {
      std::optional<SmallVector<memref::AllocOp>> allocs = allocationsToFree(f);
      if (!allocs) {
        if (failed(runPipeline(pipeline, module)))
          signalPassFailure();
        return;
      }
      if (!allocs->empty())
        frees.push_back({f, std::move(*allocs)});
    }
    for (auto &[f, allocs] : frees) {
      Operation *ret = f.getBody().front().getTerminator();
      OpBuilder b(ret);
      for (memref::AllocOp alloc : allocs)
        memref::DeallocOp::create(b, ret->getLoc(), alloc);
    }
  }

  OpPassManager pipeline;
};

} // namespace
