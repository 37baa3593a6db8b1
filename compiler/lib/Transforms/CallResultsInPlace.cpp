//===- CallResultsInPlace.cpp - the nnc-call-results-in-place pass --------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace nnc {
#define GEN_PASS_DEF_CALLRESULTSINPLACEPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// One-shot bufferization's alignment of the buffers it allocates.
constexpr uint64_t kCacheLine = 64;

/// Whether `copy` moves a buffer that one call wrote into an out-param of
/// `func` that nothing else touches.
bool copiesCallResultOut(memref::CopyOp copy, func::FuncOp func) {
  auto out = dyn_cast<BlockArgument>(copy.getTarget());
  if (!out || out.getOwner() != &func.getBody().front() ||
      !func.getArgAttr(out.getArgNumber(), "bufferize.result") ||
      !out.hasOneUse())
    return false;
  auto alloc = copy.getSource().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getType() != out.getType() ||
      alloc->getBlock() != copy->getBlock())
    return false;
  unsigned calls = 0;
  for (Operation *user : alloc->getUsers()) {
    if (user == copy)
      continue;
    if (!isa<func::CallOp>(user) || !user->isBeforeInBlock(copy))
      return false;
    ++calls;
  }
  return calls == 1;
}

struct CallResultsInPlacePass
    : nnc::impl::CallResultsInPlacePassBase<CallResultsInPlacePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) {
      if (copiesCallResultOut(copy, func))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      Operation *alloc = copy.getSource().getDefiningOp();
      Value out = copy.getTarget();
      copy->erase();
      alloc->getResult(0).replaceAllUsesWith(out);
      alloc->erase();
    }
    // The out-param buffers left, like every buffer bufferization makes,
    // start on a cache line, so the callee's vectors never straddle two.
    func.walk([&](func::CallOp call) {
      for (Value operand : call.getOperands())
        if (auto alloc = operand.getDefiningOp<memref::AllocOp>())
          if (!alloc.getAlignment())
            alloc.setAlignment(kCacheLine);
    });
  }
};
} // namespace
