//===- CallBufferization.cpp - func.call's aliasing operands --------------===//
//
// Part of nnc. One-shot bufferization asks, of each tensor result of a
// func.call, which operands it may alias. Upstream's func.call model leaves
// that question to the interface's default, which asks every tensor
// operand in turn which results it aliases, and each of those answers
// looks the callee up in the symbol table again. A call of Inception-v3's
// training pass has 190 tensor operands and 380 results: 1.4 G
// instructions of the one-shot analysis, on the thread that bufferizes
// the training step, went to these questions. Here the callee is looked up
// once per question and the callee's analysis (FuncAnalysisState) read
// directly: the same answers, in the same order.
//
// The rest of func.call's model stays upstream's, so this answer replaces
// one entry of that model's method table once upstream has attached it
// (registerCallAliasingQuery runs after upstream's registration).
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/CallBufferization.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using func_ext::FuncAnalysisState;
using func_ext::FuncOpAnalysisState;

namespace {

using Concept =
    bufferization::detail::BufferizableOpInterfaceInterfaceTraits::Concept;

/// The callee's analysis, once it is complete; null before (or in a
/// recursion, while it is in progress) and outside a one-shot analysis.
const FuncAnalysisState *calleeAnalysis(func::CallOp call,
                                        const AnalysisState &state,
                                        func::FuncOp &callee) {
  auto *oneShot = dyn_cast<OneShotAnalysisState>(&state);
  const FuncAnalysisState *funcState =
      oneShot ? oneShot->getExtension<FuncAnalysisState>() : nullptr;
  if (!funcState)
    return nullptr;
  callee = dyn_cast_or_null<func::FuncOp>(
      funcState->symbolTables.lookupNearestSymbolFrom(call,
                                                      call.getCalleeAttr()));
  if (!callee)
    return nullptr;
  auto it = funcState->analyzedFuncOps.find(callee);
  if (it == funcState->analyzedFuncOps.end() ||
      it->second != FuncOpAnalysisState::Analyzed)
    return nullptr;
  return funcState;
}

/// The operands `value`, a result of a func.call, may alias: those whose
/// callee argument the callee may return as that result. An operand the
/// callee returns as this one result only, and as the same buffer, is
/// equivalent to it; any other aliasing is of unknown relation.
AliasingOpOperandList callAliasingOpOperands(const Concept *, Operation *op,
                                             Value value,
                                             const AnalysisState &state) {
  auto call = cast<func::CallOp>(op);
  func::FuncOp callee;
  const FuncAnalysisState *funcState = calleeAnalysis(call, state, callee);
  if (!funcState)
    return bufferization::detail::unknownGetAliasingOpOperands(value);
  int64_t resultNumber = cast<OpResult>(value).getResultNumber();
  const FuncAnalysisState::IndexToIndexListMapping &returned =
      funcState->aliasingReturnVals.find(callee)->second;
  auto equivalents = funcState->equivalentFuncArgs.find(callee);
  AliasingOpOperandList result;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<TensorType>(operand.get().getType()))
      continue;
    auto it = returned.find(operand.getOperandNumber());
    if (it == returned.end() || !llvm::is_contained(it->second, resultNumber))
      continue;
    bool equivalent = it->second.size() == 1 &&
                      equivalents != funcState->equivalentFuncArgs.end() &&
                      equivalents->second.contains(resultNumber);
    result.addAlias(
        {&operand,
         equivalent ? BufferRelation::Equivalent : BufferRelation::Unknown,
         /*isDefinite=*/equivalent});
  }
  return result;
}

} // namespace

void nnc::registerCallAliasingQuery(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    std::optional<RegisteredOperationName> call =
        RegisteredOperationName::lookup(func::CallOp::getOperationName(),
                                        context);
    if (auto *model = call->getInterface<BufferizableOpInterface>())
      model->getAliasingOpOperands = callAliasingOpOperands;
  });
}
