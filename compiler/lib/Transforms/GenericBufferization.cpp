//===- GenericBufferization.cpp - linalg.generic's bufferization model ----===//
//
// Part of nnc. One-shot bufferization asks each op, many times over, which
// of its operands it writes and which result each aliases. Upstream's
// linalg model answers through DestinationStyleOpInterface::isDpsInit and
// getTiedOpResult, and each call of those builds the op's init operand
// range, uniquing its operand segment sizes as a DenseI32ArrayAttr in the
// context: a fifth of the one-shot analysis of Inception-v3's training
// pass (2,967 linalg.generic ops), on one thread. A linalg.generic's inits
// are its last operands, as many as its results, so the answers need no
// range: the same answers as upstream's, from operand numbers alone. The
// rewrite (each op on buffers) is upstream's too.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/GenericBufferization.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;

namespace {

/// The result `operand` is tied to, when it is an init.
std::optional<OpResult> tiedResult(Operation *op, OpOperand &operand) {
  unsigned numInputs = op->getNumOperands() - op->getNumResults();
  unsigned number = operand.getOperandNumber();
  if (number < numInputs)
    return std::nullopt;
  return op->getResult(number - numInputs);
}

struct GenericBufferizationModel
    : DstBufferizableOpInterfaceExternalModel<GenericBufferizationModel,
                                              linalg::GenericOp> {
  /// An input, or an init the body reads.
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<linalg::GenericOp>(op)
                .getBody()
                ->getArgument(operand.getOperandNumber())
                .use_empty();
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &) const {
    return tiedResult(op, operand).has_value();
  }

  /// Each result is written: its init is.
  bool resultBufferizesToMemoryWrite(Operation *, OpResult,
                                     const AnalysisState &) const {
    return true;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &) const {
    if (std::optional<OpResult> result = tiedResult(op, operand))
      return {{*result, BufferRelation::Equivalent}};
    return {};
  }

  AliasingOpOperandList getAliasingOpOperands(Operation *op, Value value,
                                              const AnalysisState &) const {
    auto result = cast<OpResult>(value);
    unsigned numInputs = op->getNumOperands() - op->getNumResults();
    return {{&op->getOpOperand(numInputs + result.getResultNumber()),
             BufferRelation::Equivalent}};
  }

  /// Upstream's: all loops parallel, and the given tensor operands read or
  /// written through identity maps.
  bool bufferizesToElementwiseAccess(Operation *op, const AnalysisState &,
                                     ArrayRef<OpOperand *> operands) const {
    auto generic = cast<linalg::GenericOp>(op);
    if (generic.getNumLoops() != generic.getNumParallelLoops())
      return false;
    ArrayAttr maps = generic.getIndexingMaps();
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<RankedTensorType, MemRefType>(operand.get().getType()) ||
          !llvm::is_contained(operands, &operand))
        continue;
      if (!cast<AffineMapAttr>(maps[operand.getOperandNumber()])
               .getValue()
               .isIdentity())
        return false;
    }
    return true;
  }

  /// Upstream's rewrite: the op on the operands' buffers, the body moved
  /// over, and its inits' buffers for its results.
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto generic = cast<linalg::GenericOp>(op);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    if (generic.hasPureBufferSemantics())
      return success();
    if (!generic.hasPureTensorSemantics())
      return op->emitError() << "op does not have pure tensor semantics";
    unsigned numInputs = op->getNumOperands() - op->getNumResults();
    SmallVector<Value> operands, outputs;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<TensorType>(operand.get().getType())) {
        operands.push_back(operand.get());
        continue;
      }
      FailureOr<Value> buffer =
          getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
      if (operand.getOperandNumber() >= numInputs)
        outputs.push_back(*buffer);
    }
    // Built whole before it is inserted: the rewriter's listener reads the
    // new op's region.
    OperationState bufferized(op->getLoc(), op->getName(), operands,
                              TypeRange(), op->getAttrs());
    bufferized.addRegion();
    Operation *newOp = Operation::create(bufferized);
    newOp->getRegion(0).getBlocks().splice(newOp->getRegion(0).begin(),
                                           op->getRegion(0).getBlocks());
    rewriter.setInsertionPoint(op);
    rewriter.insert(newOp);
    replaceOpWithBufferizedValues(rewriter, op, outputs);
    return success();
  }
};

} // namespace

void nnc::registerGenericBufferizationModel(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    linalg::GenericOp::attachInterface<GenericBufferizationModel>(*context);
  });
}
