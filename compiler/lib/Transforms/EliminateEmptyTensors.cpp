//===- EliminateEmptyTensors.cpp - the nnc-eliminate-empty-tensors pass ---===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace nnc {
#define GEN_PASS_DEF_ELIMINATEEMPTYTENSORSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;
using namespace mlir::bufferization;

namespace {
struct EliminateEmptyTensorsPass
    : nnc::impl::EliminateEmptyTensorsPassBase<EliminateEmptyTensorsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    OneShotBufferizationOptions options;
    options.allowReturnAllocsFromLoops = true;
    // The function's arguments are writable, as under one-shot module
    // bufferization; a call is analysed without its callee's summary
    // (conservatively: it reads and writes its operands).
    options.bufferizeFunctionBoundaries = true;
    OneShotAnalysisState state(func, options);
    state.addExtension<func_ext::FuncAnalysisState>();
    if (failed(analyzeOp(func, state)))
      return signalPassFailure();
    IRRewriter rewriter(&getContext());
    if (failed(eliminateEmptyTensors(rewriter, func, state)))
      signalPassFailure();
  }
};
} // namespace
