//===- HostBuffers.cpp - the nnc-cuda-host-buffers pass -------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace nnc::cuda {
#define GEN_PASS_DEF_HOSTBUFFERSPASS
#include "nnc/Codegen/CUDA/Passes.h.inc"
} // namespace nnc::cuda

using namespace mlir;

namespace {
bool isDense(Type type) {
  auto memref = cast<MemRefType>(type);
  return memref.hasStaticShape() && memref.getLayout().isIdentity();
}

struct HostBuffersPass : nnc::cuda::impl::HostBuffersPassBase<HostBuffersPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp, memref::AllocaOp>(op))
        ops.push_back(op);
    });
    OpBuilder b(&getContext());
    for (Operation *op : ops) {
      b.setInsertionPoint(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto gpuAlloc = gpu::AllocOp::create(
            b, loc, alloc.getType(), /*asyncToken=*/Type(),
            /*asyncDependencies=*/ValueRange{}, alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), /*hostShared=*/false);
        alloc.replaceAllUsesWith(gpuAlloc.getMemref());
        alloc->erase();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                               dealloc.getMemref());
        dealloc->erase();
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        if (isDense(copy.getSource().getType()) &&
            isDense(copy.getTarget().getType()))
          gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                                copy.getTarget(), copy.getSource());
        else
          linalg::CopyOp::create(b, loc, copy.getSource(), copy.getTarget());
        copy->erase();
      } else {
        op->emitError("the CUDA target keeps every buffer on the device; ")
            << op->getName() << " would be host memory";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
