//===- OneModule.cpp - the nnc-cuda-one-module pass -----------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace nnc::cuda {
#define GEN_PASS_DEF_ONEMODULEPASS
#include "nnc/Codegen/CUDA/Passes.h.inc"
} // namespace nnc::cuda

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kModule = "nnc_kernels";

struct OneModulePass : nnc::cuda::impl::OneModulePassBase<OneModulePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> kernels(module.getOps<gpu::GPUModuleOp>());
    if (kernels.empty())
      return;
    OpBuilder b(&getContext());
    b.setInsertionPoint(kernels.front());
    auto merged = gpu::GPUModuleOp::create(b, module.getLoc(), kModule);
    // Outlined kernels come without target attributes; a module that has
    // some keeps them.
    if (ArrayAttr targets = kernels.front().getTargetsAttr())
      merged.setTargetsAttr(targets);
    Block &body = merged.getBodyRegion().front();
    DenseMap<Attribute, SymbolRefAttr> moved;
    for (gpu::GPUModuleOp kernel : kernels) {
      StringAttr name = kernel.getSymNameAttr();
      for (auto fn : llvm::make_early_inc_range(
               kernel.getBody()->getOps<gpu::GPUFuncOp>())) {
        // One kernel per outlined module: its name is the module's.
        SymbolRefAttr old = SymbolRefAttr::get(
            name, {FlatSymbolRefAttr::get(SymbolTable::getSymbolName(fn))});
        SymbolTable::setSymbolName(fn, name);
        fn->moveBefore(&body, body.end());
        moved[old] = SymbolRefAttr::get(b.getStringAttr(kModule),
                                        {FlatSymbolRefAttr::get(name)});
      }
      kernel->erase();
    }
    module.walk([&](gpu::LaunchFuncOp launch) {
      if (SymbolRefAttr to = moved.lookup(launch.getKernel()))
        launch.setKernelAttr(to);
    });
  }
};
} // namespace
