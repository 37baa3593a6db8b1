//===- Stream.cpp - the nnc-cuda-stream pass ------------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace nnc::cuda {
#define GEN_PASS_DEF_STREAMPASS
#include "nnc/Codegen/CUDA/Passes.h.inc"
} // namespace nnc::cuda

using namespace mlir;

namespace {
struct StreamPass : nnc::cuda::impl::StreamPassBase<StreamPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    SmallVector<gpu::AsyncOpInterface> ops;
    func.walk([&](gpu::AsyncOpInterface op) {
      if (!isa<gpu::WaitOp>(op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    for (gpu::AsyncOpInterface op : ops)
      if (op->getParentRegion() != &func.getBody()) {
        op->emitError("GPU work inside control flow cannot be chained on "
                      "the stream yet");
        return signalPassFailure();
      }
    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&func.getBody().front());
    auto tokenType = gpu::AsyncTokenType::get(&getContext());
    Value token = gpu::WaitOp::create(b, func.getLoc(), tokenType, ValueRange{})
                      .getAsyncToken();
    // Every op waits for the one before and gives its token to the next.
    for (gpu::AsyncOpInterface op : ops) {
      if (op.getAsyncToken())
        return; // already asynchronous
      op.addAsyncDependency(token);
      Operation *raw = op.getOperation();
      b.setInsertionPoint(raw);
      // Re-create the op with a token result.
      OperationState state(raw->getLoc(), raw->getName());
      state.addOperands(raw->getOperands());
      state.propertiesAttr = raw->getPropertiesAsAttribute();
      state.addAttributes(llvm::to_vector(raw->getDiscardableAttrs()));
      SmallVector<Type> types(raw->getResultTypes());
      unsigned tokenIndex = isa<gpu::AllocOp>(raw) ? 1 : 0;
      types.insert(types.begin() + tokenIndex, tokenType);
      state.addTypes(types);
      for (Region &region : raw->getRegions())
        state.addRegion()->takeBody(region);
      Operation *async = b.create(state);
      for (auto [i, result] : llvm::enumerate(raw->getResults()))
        result.replaceAllUsesWith(async->getResult(i < tokenIndex ? i : i + 1));
      token = async->getResult(tokenIndex);
      raw->erase();
    }
  }
};
} // namespace
