//===- MathToLibm.cpp - the nnc-cpu-math-to-libm pass ---------------------===//
//
// Part of nnc. Upstream's convert-math-to-libm, run only when math ops are
// left after convert-math-to-llvm (none are in the reference models). As a
// dialect conversion over the module, on one thread, it visited every op
// of every kernel to find none: 0.28 s of ResNet-50's compile.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassManager.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_MATHTOLIBMPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
struct MathToLibmPass : nnc::cpu::impl::MathToLibmPassBase<MathToLibmPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool anyMath = module
                       .walk([](Operation *op) {
                         return isa<math::MathDialect>(op->getDialect())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!anyMath)
      return;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createConvertMathToLibmPass());
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }
};
} // namespace
