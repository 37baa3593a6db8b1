//===- NNOps.cpp - nn dialect operations ----------------------------------===//
//
// Part of nnc. Result-type inference (delegating to ShapeFunctions.cpp),
// verifiers and folders of the nn ops.
//
//===----------------------------------------------------------------------===//

#include "nn/IR/NNDialect.h"
#include "nn/IR/ShapeFunctions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nn;

namespace {
RankedTensorType rt(Value v) {
  return dyn_cast_or_null<RankedTensorType>(v ? v.getType() : Type());
}

/// Appends `type` to `results` when inference succeeded.
LogicalResult push(FailureOr<RankedTensorType> type,
                   SmallVectorImpl<Type> &results) {
  if (failed(type))
    return failure();
  results.push_back(*type);
  return success();
}

/// Fails quietly when an operand is not a ranked tensor; the ODS type
/// constraints report that case.
bool allRanked(ValueRange values) {
  return llvm::all_of(values, [](Value v) { return rt(v) != nullptr; });
}
} // namespace

#define NN_INFER(OP)                                                           \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &results)

//===----------------------------------------------------------------------===//
// Model structure
//===----------------------------------------------------------------------===//

LogicalResult ParameterOp::verify() {
  if (isa<IntegerType>(getTensorType().getElementType())) {
    // A counter: no gradient, starts at zero.
    if (!getNonTrainable())
      return emitOpError("an integer parameter must be non_trainable");
    if (!isa<ZerosInitAttr>(getInitializer()))
      return emitOpError("an integer parameter must be zero-initialised");
  }
  return verifyInitializer(getLoc(), getInitializer(), getTensorType());
}

LogicalResult GetParamOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto param =
      symbolTable.lookupNearestSymbolFrom<ParameterOp>(*this, getNameAttr());
  if (!param)
    return emitOpError("'") << getName() << "' is not an nn.parameter";
  if (param.getType() != getType())
    return emitOpError("type ") << getType() << " does not match parameter '"
                                << getName() << "' of type " << param.getType();
  return success();
}

LogicalResult OptimizerOp::verify() {
  if (failed(verifyOptimizerConfig(
          getLoc(), getKind(), getLearningRate().convertToDouble(),
          getMomentum().convertToDouble(), getNesterov(),
          getWeightDecay().convertToDouble(), getBeta1().convertToDouble(),
          getBeta2().convertToDouble(), getEpsilon().convertToDouble(),
          getScheduleAttr(), getWarmupStepsAttr().getInt())))
    return failure();
  auto module = (*this)->getParentOp();
  if (module) {
    for (auto other : module->getRegion(0).getOps<OptimizerOp>())
      if (other != *this)
        return emitOpError("a model has at most one optimizer");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

NN_INFER(Conv2DOp) {
  if (!allRanked({adaptor.getInput(), adaptor.getFilter()}))
    return failure();
  return push(inferConv2DType(loc, rt(adaptor.getInput()),
                              rt(adaptor.getFilter()), adaptor.getStrides(),
                              adaptor.getDilations(), adaptor.getPadding(),
                              adaptor.getPad()),
              results);
}

NN_INFER(BiasAddOp) {
  if (!allRanked({adaptor.getInput(), adaptor.getBias()}))
    return failure();
  return push(
      inferBiasAddType(loc, rt(adaptor.getInput()), rt(adaptor.getBias())),
      results);
}

// relu, sigmoid and tanh get inferReturnTypes from SameOperandsAndResultType.

NN_INFER(SoftmaxOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferSoftmaxType(loc, rt(adaptor.getInput()), adaptor.getAxis()),
              results);
}

NN_INFER(MaxPool2DOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferPool2DType(loc, "max_pool2d", rt(adaptor.getInput()),
                              adaptor.getWindow(), adaptor.getStrides(),
                              adaptor.getPadding(), adaptor.getPad()),
              results);
}

NN_INFER(AvgPool2DOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferPool2DType(loc, "avg_pool2d", rt(adaptor.getInput()),
                              adaptor.getWindow(), adaptor.getStrides(),
                              adaptor.getPadding(), adaptor.getPad()),
              results);
}

NN_INFER(LRNOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferLRNType(loc, rt(adaptor.getInput()),
                           adaptor.getDepthRadius(),
                           adaptor.getBias().convertToDouble(),
                           adaptor.getAlpha().convertToDouble(),
                           adaptor.getBeta().convertToDouble()),
              results);
}

NN_INFER(MatmulOp) {
  if (!allRanked({adaptor.getLhs(), adaptor.getRhs()}))
    return failure();
  return push(inferMatmulType(loc, rt(adaptor.getLhs()), rt(adaptor.getRhs()),
                              adaptor.getTransposeLhs(),
                              adaptor.getTransposeRhs()),
              results);
}

NN_INFER(FlattenOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferFlattenType(loc, rt(adaptor.getInput())), results);
}

NN_INFER(ReshapeOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferReshapeType(loc, rt(adaptor.getInput()), adaptor.getShape()),
              results);
}

NN_INFER(AddOp) {
  if (!allRanked({adaptor.getLhs(), adaptor.getRhs()}))
    return failure();
  return push(inferAddType(loc, rt(adaptor.getLhs()), rt(adaptor.getRhs())),
              results);
}

NN_INFER(ConcatOp) {
  if (!allRanked(adaptor.getInputs()))
    return failure();
  SmallVector<RankedTensorType> types;
  for (Value v : adaptor.getInputs())
    types.push_back(rt(v));
  return push(inferConcatType(loc, types, adaptor.getAxis()), results);
}

NN_INFER(BatchNormOp) {
  if (!allRanked({adaptor.getInput(), adaptor.getScale(), adaptor.getOffset(),
                  adaptor.getMean(), adaptor.getVariance()}))
    return failure();
  RankedTensorType vectors[] = {rt(adaptor.getScale()), rt(adaptor.getOffset()),
                                rt(adaptor.getMean()),
                                rt(adaptor.getVariance())};
  return push(inferBatchNormType(loc, rt(adaptor.getInput()), vectors,
                                 adaptor.getEpsilon().convertToDouble()),
              results);
}

NN_INFER(DropoutOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferDropoutType(loc, rt(adaptor.getInput()),
                               adaptor.getRate().convertToDouble()),
              results);
}

NN_INFER(MeanOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferMeanType(loc, rt(adaptor.getInput()), adaptor.getAxes()),
              results);
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

NN_INFER(L2LossOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferL2LossType(loc, rt(adaptor.getInput())), results);
}

NN_INFER(SparseSoftmaxCrossEntropyOp) {
  if (!allRanked({adaptor.getLogits(), adaptor.getLabels()}))
    return failure();
  return push(inferClassLossType(loc, "sparse_softmax_cross_entropy",
                                 rt(adaptor.getLogits()),
                                 rt(adaptor.getLabels())),
              results);
}

NN_INFER(CategoricalCrossEntropyOp) {
  if (!allRanked({adaptor.getProbs(), adaptor.getLabels()}))
    return failure();
  double eps = adaptor.getEpsilon().convertToDouble();
  if (!(eps > 0 && eps < 0.5))
    return emitOptionalError(
        loc, "categorical_cross_entropy: epsilon must be in (0, 0.5), got ",
        formatNumber(eps));
  return push(inferClassLossType(loc, "categorical_cross_entropy",
                                 rt(adaptor.getProbs()),
                                 rt(adaptor.getLabels())),
              results);
}

NN_INFER(WeightDecayOp) {
  if (!allRanked(adaptor.getInput()))
    return failure();
  return push(inferWeightDecayType(loc, rt(adaptor.getInput()),
                                   adaptor.getScale().convertToDouble()),
              results);
}

#undef NN_INFER

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

OpFoldResult FlattenOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) reads x directly.
  if (auto inner = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

OpFoldResult DropoutOp::fold(FoldAdaptor) {
  if (getRate().isZero())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Result names
//===----------------------------------------------------------------------===//

/// Names the result after the layer in the op's NameLoc, if any.
static void nameAfterLayer(Operation *op, OpAsmSetValueNameFn setNameFn) {
  Location loc = op->getLoc();
  // Inside a block instance: the layer's own location is the callee.
  while (auto site = dyn_cast<CallSiteLoc>(loc))
    loc = site.getCallee();
  if (auto name = dyn_cast<NameLoc>(loc))
    setNameFn(op->getResult(0), name.getName().getValue());
}

void GetParamOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getName());
}

#define NN_NAME_RESULTS(OP)                                                    \
  void OP::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {                  \
    nameAfterLayer(*this, setNameFn);                                          \
  }
NN_NAME_RESULTS(Conv2DOp)
NN_NAME_RESULTS(BiasAddOp)
NN_NAME_RESULTS(ReluOp)
NN_NAME_RESULTS(SigmoidOp)
NN_NAME_RESULTS(TanhOp)
NN_NAME_RESULTS(SoftmaxOp)
NN_NAME_RESULTS(MaxPool2DOp)
NN_NAME_RESULTS(AvgPool2DOp)
NN_NAME_RESULTS(LRNOp)
NN_NAME_RESULTS(MatmulOp)
NN_NAME_RESULTS(FlattenOp)
NN_NAME_RESULTS(ReshapeOp)
NN_NAME_RESULTS(AddOp)
NN_NAME_RESULTS(ConcatOp)
NN_NAME_RESULTS(BatchNormOp)
NN_NAME_RESULTS(DropoutOp)
NN_NAME_RESULTS(MeanOp)
NN_NAME_RESULTS(L2LossOp)
NN_NAME_RESULTS(SparseSoftmaxCrossEntropyOp)
NN_NAME_RESULTS(CategoricalCrossEntropyOp)
NN_NAME_RESULTS(WeightDecayOp)
#undef NN_NAME_RESULTS

#define GET_OP_CLASSES
#include "nn/IR/NNOps.cpp.inc"
