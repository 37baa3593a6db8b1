//===- VectorToLLVM.cpp - the nnc-cpu-vector-to-llvm pass -----------------===//
//
// Part of nnc. Upstream's convert-vector-to-llvm greedily rewrites every op
// of a function before it converts: folding, canonicalising and lowering
// what has no direct conversion. On Inception-v3's AVX-512 kernels that
// rewrite executed 1.1 G instructions of the pass's 2.0 G, nearly all in
// the contraction kernels, whose vector ops are one-dimensional FMAs,
// loads, stores and broadcasts it leaves as they are.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_VECTORTOLLVMPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {

/// Whether `op` converts as it is: a one-dimensional FMA, load, store,
/// masked load or store, or broadcast of a scalar. A vector.constant_mask
/// or create_mask, which need lowering, are vector ops of other kinds.
bool convertsDirectly(Operation *op) {
  auto oneDim = [](Type type) {
    auto vector = dyn_cast<VectorType>(type);
    return vector && vector.getRank() == 1 && !vector.isScalable();
  };
  return TypeSwitch<Operation *, bool>(op)
      .Case([&](vector::FMAOp fma) { return oneDim(fma.getType()); })
      .Case([&](vector::LoadOp load) { return oneDim(load.getType()); })
      .Case([&](vector::StoreOp store) {
        return oneDim(store.getValueToStore().getType());
      })
      .Case([&](vector::MaskedLoadOp load) { return oneDim(load.getType()); })
      .Case([&](vector::MaskedStoreOp store) {
        return oneDim(store.getValueToStore().getType());
      })
      .Case([&](vector::BroadcastOp broadcast) {
        return oneDim(broadcast.getType()) &&
               !isa<VectorType>(broadcast.getSourceType());
      })
      .Default([](Operation *) { return false; });
}

struct VectorToLLVMPass
    : nnc::cpu::impl::VectorToLLVMPassBase<VectorToLLVMPass> {
  void runOnOperation() override {
    func::FuncOp f = getOperation();
    bool direct = !f.walk([](Operation *op) {
                      return isa<vector::VectorDialect>(op->getDialect()) &&
                                     !convertsDirectly(op)
                                 ? WalkResult::interrupt()
                                 : WalkResult::advance();
                    }).wasInterrupted();
    if (!direct) {
      OpPassManager pm(func::FuncOp::getOperationName());
      pm.addPass(createConvertVectorToLLVMPass());
      if (failed(runPipeline(pm, f)))
        signalPassFailure();
      return;
    }
    // What upstream's rewrite does there: merge identical blocks (a
    // kernel's stores of C in two phases that came out the same) and drop
    // dead ones, then fold.
    IRRewriter rewriter(&getContext());
    (void)simplifyRegions(rewriter, f->getRegions());
    // The conversion of upstream's pass, with its default options.
    LowerToLLVMOptions options(&getContext());
    LLVMTypeConverter converter(&getContext(), options);
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferLoweringPatterns(patterns);
    populateVectorToLLVMConversionPatterns(converter, patterns,
                                           /*reassociateFPReductions=*/false,
                                           /*force32BitVectorIndices=*/true,
                                           /*useVectorAlignment=*/false);
    LLVMConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect, memref::MemRefDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    if (failed(applyPartialConversion(f, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
