//===- GradOps.cpp - gradient and training op verifiers -------------------===//
//
// Part of nnc. A gradient op's type is checked against the shape rule of the
// op it differentiates (ShapeFunctions.cpp), so a malformed gradient is
// caught where it is built.
//
//===----------------------------------------------------------------------===//

#include "nn/IR/NNDialect.h"
#include "nn/IR/ShapeFunctions.h"

using namespace mlir;
using namespace mlir::nn;

namespace {
RankedTensorType rt(Value v) { return cast<RankedTensorType>(v.getType()); }

/// `expected` (what the forward rule gives, or failure) must be `actual`.
LogicalResult checkForward(Operation *op, FailureOr<RankedTensorType> expected,
                           Type actual, StringRef what) {
  if (failed(expected))
    return op->emitOpError("does not describe a valid forward op");
  if (*expected != actual)
    return op->emitOpError(what)
           << " has type " << actual << "; the forward op gives " << *expected;
  return success();
}

LogicalResult sameType(Operation *op, Value a, Value b, StringRef what) {
  if (a.getType() != b.getType())
    return op->emitOpError(what)
           << " must have type " << a.getType() << ", got " << b.getType();
  return success();
}

/// logits [N, C] with labels [N].
LogicalResult checkClassification(Operation *op, Value logits, Value labels) {
  if (rt(logits).getRank() != 2 || rt(labels).getRank() != 1 ||
      rt(labels).getDimSize(0) != rt(logits).getDimSize(0))
    return op->emitOpError("expects logits [N, C] and labels [N], got ")
           << logits.getType() << " and " << labels.getType();
  return success();
}
} // namespace

LogicalResult Conv2DBackpropInputOp::verify() {
  auto forward =
      inferConv2DType(std::nullopt, rt(getInputGrad()), rt(getFilter()),
                      getStrides(), getDilations(), getPadding(), getPad());
  return checkForward(*this, forward, getOutputGrad().getType(), "output_grad");
}

LogicalResult Conv2DBackpropFilterOp::verify() {
  auto forward =
      inferConv2DType(std::nullopt, rt(getInput()), rt(getFilterGrad()),
                      getStrides(), getDilations(), getPadding(), getPad());
  return checkForward(*this, forward, getOutputGrad().getType(), "output_grad");
}

LogicalResult BiasAddGradOp::verify() {
  RankedTensorType dy = rt(getOutputGrad());
  auto expected =
      RankedTensorType::get({dy.getShape().back()}, dy.getElementType());
  if (dy.getRank() < 1 || getBiasGrad().getType() != expected)
    return emitOpError("result must be the last axis of output_grad, ")
           << expected;
  return success();
}

LogicalResult MaxPool2DGradOp::verify() {
  if (failed(sameType(*this, getInput(), getInputGrad(), "input_grad")))
    return failure();
  auto forward =
      inferPool2DType(std::nullopt, "max_pool2d", rt(getInput()), getWindow(),
                      getStrides(), getPadding(), getPad());
  return checkForward(*this, forward, getOutputGrad().getType(), "output_grad");
}

LogicalResult AvgPool2DGradOp::verify() {
  auto forward =
      inferPool2DType(std::nullopt, "avg_pool2d", rt(getInputGrad()),
                      getWindow(), getStrides(), getPadding(), getPad());
  return checkForward(*this, forward, getOutputGrad().getType(), "output_grad");
}

LogicalResult LRNGradOp::verify() {
  if (failed(sameType(*this, getInput(), getOutputGrad(), "output_grad")) ||
      failed(sameType(*this, getInput(), getInputGrad(), "input_grad")))
    return failure();
  return checkForward(
      *this,
      inferLRNType(std::nullopt, rt(getInput()), getDepthRadius(),
                   getBias().convertToDouble(), getAlpha().convertToDouble(),
                   getBeta().convertToDouble()),
      getInput().getType(), "input");
}

// SameOperandsAndResultType checks everything the activations need.
LogicalResult ReluGradOp::verify() { return success(); }
LogicalResult SigmoidGradOp::verify() { return success(); }
LogicalResult TanhGradOp::verify() { return success(); }

LogicalResult SoftmaxGradOp::verify() {
  return checkForward(
      *this, inferSoftmaxType(std::nullopt, rt(getOutput()), getAxis()),
      getOutput().getType(), "output");
}

LogicalResult ScaleOp::verify() {
  return sameType(*this, getInput(), getOutput(), "result");
}

LogicalResult SparseSoftmaxCrossEntropyGradOp::verify() {
  if (failed(checkClassification(*this, getLogits(), getLabels())))
    return failure();
  return sameType(*this, getLogits(), getLogitsGrad(), "result");
}

LogicalResult CategoricalCrossEntropyGradOp::verify() {
  if (failed(checkClassification(*this, getProbs(), getLabels())))
    return failure();
  return sameType(*this, getProbs(), getProbsGrad(), "result");
}

/// `v` is one entry per channel (the last axis) of `x`.
LogicalResult checkChannelVector(Operation *op, Value x, Value v,
                                 StringRef what) {
  RankedTensorType t = rt(x);
  auto expected = RankedTensorType::get({t.getShape().back()},
                                        t.getElementType());
  if (v.getType() != expected)
    return op->emitOpError(what)
           << " must be one entry per channel, " << expected << ", got "
           << v.getType();
  return success();
}

LogicalResult BatchNormGradOp::verify() {
  if (failed(sameType(*this, getInput(), getOutputGrad(), "output_grad")) ||
      failed(sameType(*this, getInput(), getInputGrad(), "input_grad")))
    return failure();
  for (Value v : {getScale(), getMean(), getVariance(), getScaleGrad(),
                  getOffsetGrad()})
    if (failed(checkChannelVector(*this, getInput(), v,
                                  "every statistic and vector gradient")))
      return failure();
  return success();
}

LogicalResult MeanGradOp::verify() {
  return checkForward(
      *this, inferMeanType(std::nullopt, rt(getInputGrad()), getAxes()),
      getOutputGrad().getType(), "output_grad");
}

LogicalResult SliceOp::verify() {
  RankedTensorType in = rt(getInput()), out = rt(getOutput());
  int64_t axis = getAxis(), offset = getOffset();
  if (in.getRank() != out.getRank() || axis < 0 || axis >= in.getRank())
    return emitOpError("axis ") << axis << " must be an axis of both "
                                << in << " and " << out;
  for (int64_t i = 0; i < in.getRank(); ++i)
    if (i != axis && in.getDimSize(i) != out.getDimSize(i))
      return emitOpError("result ") << out << " differs from " << in
                                    << " outside axis " << axis;
  if (offset < 0 || offset + out.getDimSize(axis) > in.getDimSize(axis))
    return emitOpError("entries [")
           << offset << ", " << offset + out.getDimSize(axis)
           << ") are not within axis " << axis << " of " << in;
  return success();
}

LogicalResult BatchNormTrainOp::verify() {
  if (failed(sameType(*this, getInput(), getOutput(), "output")))
    return failure();
  RankedTensorType x = rt(getInput());
  RankedTensorType vector =
      RankedTensorType::get({x.getShape().back()}, x.getElementType());
  RankedTensorType vecs[] = {vector, vector, vector, vector};
  if (failed(inferBatchNormType(getLoc(), x, vecs,
                                getEpsilon().convertToDouble())))
    return failure();
  for (Value v : {getScale(), getOffset(), getMean(), getVariance()})
    if (failed(checkChannelVector(*this, getInput(), v,
                                  "scale, offset, mean and variance")))
      return failure();
  return success();
}

LogicalResult DropoutTrainOp::verify() {
  if (failed(sameType(*this, getInput(), getOutput(), "output")))
    return failure();
  return success(succeeded(inferDropoutType(getLoc(), rt(getInput()),
                                            getRate().convertToDouble())));
}

LogicalResult MovingAverageOp::verify() {
  if (failed(sameType(*this, getAverage(), getValue(), "value")) ||
      failed(sameType(*this, getAverage(), getResult(), "result")))
    return failure();
  double decay = getDecay().convertToDouble();
  if (!(decay >= 0 && decay <= 1))
    return emitOpError("decay must be in [0, 1], got ") << decay;
  return success();
}

LogicalResult SGDUpdateOp::verify() {
  if (failed(sameType(*this, getParam(), getGrad(), "grad")) ||
      failed(sameType(*this, getParam(), getNewParam(), "new_param")))
    return failure();
  if (bool(getVelocity()) != bool(getNewVelocity()))
    return emitOpError("has a velocity operand exactly when it has a "
                       "new_velocity result");
  if (getVelocity() &&
      (failed(sameType(*this, getParam(), getVelocity(), "velocity")) ||
       failed(sameType(*this, getParam(), getNewVelocity(), "new_velocity"))))
    return failure();
  if (getNesterov() && !getVelocity())
    return emitOpError("nesterov needs a velocity");
  return success();
}

LogicalResult AdamUpdateOp::verify() {
  for (Value v :
       {getGrad(), getM(), getV(), getNewParam(), getNewM(), getNewV()})
    if (failed(sameType(*this, getParam(), v, "every tensor operand")))
      return failure();
  return success();
}

LogicalResult CorrectCountOp::verify() {
  return checkClassification(*this, getLogits(), getLabels());
}

LogicalResult
AssignParamOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto param =
      symbolTable.lookupNearestSymbolFrom<ParameterOp>(*this, getNameAttr());
  if (!param)
    return emitOpError("'") << getName() << "' is not an nn.parameter";
  if (param.getType() != getValue().getType())
    return emitOpError("value of type ")
           << getValue().getType() << " does not match parameter '" << getName()
           << "' of type " << param.getType();
  return success();
}
