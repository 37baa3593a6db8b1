//===- Gradients.cpp - vector-Jacobian products of the nn ops -------------===//
//
// Part of nnc. DifferentiableOpInterface for every layer and loss: given the
// gradient of the result, the gradients of the operands, built from nn ops.
//
//===----------------------------------------------------------------------===//

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::nn;

namespace {
using Grads = SmallVectorImpl<Value>;
} // namespace

LogicalResult Conv2DOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(Conv2DBackpropInputOp::create(
      b, getLoc(), getInput().getType(), dy, getFilter(), getStrides(),
      getDilations(), getPadding(), getPadAttr()));
  out.push_back(Conv2DBackpropFilterOp::create(
      b, getLoc(), getFilter().getType(), getInput(), dy, getStrides(),
      getDilations(), getPadding(), getPadAttr()));
  return success();
}

LogicalResult BiasAddOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(dy);
  out.push_back(BiasAddGradOp::create(b, getLoc(), getBias().getType(), dy));
  return success();
}

LogicalResult ReluOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(ReluGradOp::create(b, getLoc(), getOutput(), dy));
  return success();
}

LogicalResult SigmoidOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(SigmoidGradOp::create(b, getLoc(), getOutput(), dy));
  return success();
}

LogicalResult TanhOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(TanhGradOp::create(b, getLoc(), getOutput(), dy));
  return success();
}

LogicalResult SoftmaxOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(SoftmaxGradOp::create(b, getLoc(), getOutput(), dy, getAxis()));
  return success();
}

LogicalResult MaxPool2DOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(MaxPool2DGradOp::create(
      b, getLoc(), getInput().getType(), getInput(), dy, getWindow(),
      getStrides(), getPadding(), getPadAttr()));
  return success();
}

LogicalResult AvgPool2DOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(AvgPool2DGradOp::create(b, getLoc(), getInput().getType(), dy,
                                        getWindow(), getStrides(), getPadding(),
                                        getPadAttr()));
  return success();
}

LogicalResult LRNOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(LRNGradOp::create(b, getLoc(), getInput().getType(), getInput(),
                                  dy, getDepthRadiusAttr(), getBiasAttr(),
                                  getAlphaAttr(), getBetaAttr()));
  return success();
}

LogicalResult MatmulOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  // C = op(A) op(B); each case keeps the gradients' layouts those of A and B.
  Value a = getLhs(), w = getRhs();
  bool ta = getTransposeLhs(), tb = getTransposeRhs();
  auto mm = [&](Value l, Value r, bool tl, bool tr) -> Value {
    return MatmulOp::create(b, getLoc(), l, r, tl, tr);
  };
  if (!ta && !tb) { // C = A B
    out.push_back(mm(dy, w, false, true));
    out.push_back(mm(a, dy, true, false));
  } else if (ta && !tb) { // C = A^T B
    out.push_back(mm(w, dy, false, true));
    out.push_back(mm(a, dy, false, false));
  } else if (!ta && tb) { // C = A B^T
    out.push_back(mm(dy, w, false, false));
    out.push_back(mm(dy, a, true, false));
  } else { // C = A^T B^T
    out.push_back(mm(w, dy, true, true));
    out.push_back(mm(dy, a, true, true));
  }
  return success();
}

static Value reshapeTo(OpBuilder &b, Location loc, Value v, Type type) {
  return ReshapeOp::create(
      b, loc, v, b.getDenseI64ArrayAttr(cast<ShapedType>(type).getShape()));
}

LogicalResult FlattenOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(reshapeTo(b, getLoc(), dy, getInput().getType()));
  return success();
}

LogicalResult ReshapeOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(reshapeTo(b, getLoc(), dy, getInput().getType()));
  return success();
}

LogicalResult AddOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(dy);
  out.push_back(dy);
  return success();
}

LogicalResult ConcatOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  int64_t axis = getAxis(), offset = 0;
  if (axis < 0)
    axis += cast<ShapedType>(getType()).getRank();
  for (Value in : getInputs()) {
    out.push_back(SliceOp::create(b, getLoc(), in.getType(), dy, axis, offset));
    offset += cast<ShapedType>(in.getType()).getDimSize(axis);
  }
  return success();
}

LogicalResult MeanOp::buildGradients(OpBuilder &b, Value dy, Grads &out) {
  out.push_back(MeanGradOp::create(b, getLoc(), getInput().getType(), dy,
                                   getAxesAttr()));
  return success();
}

// The inference forms are replaced by their training forms
// (nn-generate-training) before anything is differentiated.
LogicalResult BatchNormOp::buildGradients(OpBuilder &, Value, Grads &) {
  return emitOpError("is differentiated in its training form, "
                     "nn.batch_norm_train");
}

LogicalResult DropoutOp::buildGradients(OpBuilder &, Value, Grads &) {
  return emitOpError("is differentiated in its training form, "
                     "nn.dropout_train");
}

LogicalResult BatchNormTrainOp::buildGradients(OpBuilder &b, Value dy,
                                               Grads &out) {
  Type vector = getScale().getType();
  auto grad = BatchNormGradOp::create(
      b, getLoc(), TypeRange{getInput().getType(), vector, vector}, getInput(),
      getScale(), getMean(), getVariance(), dy, getEpsilonAttr());
  out.push_back(grad.getInputGrad());
  out.push_back(grad.getScaleGrad());
  out.push_back(grad.getOffsetGrad());
  return success();
}

LogicalResult DropoutTrainOp::buildGradients(OpBuilder &b, Value dy,
                                             Grads &out) {
  out.push_back(DropoutTrainOp::create(b, getLoc(), dy.getType(), dy,
                                       getStep(), getRateAttr(),
                                       getSeedAttr()));
  out.push_back(Value()); // the step
  return success();
}

LogicalResult L2LossOp::buildGradients(OpBuilder &b, Value dl, Grads &out) {
  out.push_back(ScaleOp::create(b, getLoc(), getInput().getType(), getInput(),
                                dl, b.getF64FloatAttr(1.0)));
  return success();
}

LogicalResult WeightDecayOp::buildGradients(OpBuilder &b, Value dl,
                                            Grads &out) {
  out.push_back(ScaleOp::create(b, getLoc(), getInput().getType(), getInput(),
                                dl, getScaleAttr()));
  return success();
}

LogicalResult SparseSoftmaxCrossEntropyOp::buildGradients(OpBuilder &b,
                                                          Value dl,
                                                          Grads &out) {
  out.push_back(SparseSoftmaxCrossEntropyGradOp::create(
      b, getLoc(), getLogits().getType(), getLogits(), getLabels(), dl));
  out.push_back(Value()); // labels
  return success();
}

LogicalResult CategoricalCrossEntropyOp::buildGradients(OpBuilder &b, Value dl,
                                                        Grads &out) {
  out.push_back(CategoricalCrossEntropyGradOp::create(
      b, getLoc(), getProbs().getType(), getProbs(), getLabels(), dl,
      getEpsilonAttr()));
  out.push_back(Value()); // labels
  return success();
}
