//===- ShapeFunctions.cpp - nn result-type rules --------------------------===//
//
// Part of nnc. One function per layer family: check, report, infer.
//
//===----------------------------------------------------------------------===//

#include "nn/IR/ShapeFunctions.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::nn;

namespace {
/// Prints a shape as `[1, 2, 3]`, the way model files write it.
std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  os << "]";
  return s;
}
std::string shapeStr(RankedTensorType t) { return shapeStr(t.getShape()); }

LogicalResult requireStatic(OptLoc loc, StringRef op, StringRef what,
                            RankedTensorType t) {
  if (t.hasStaticShape())
    return success(succeeded(
        checkElementCount(loc, (op + ": " + what).str(), t.getShape())));
  return emitOptionalError(loc, op, ": ", what,
                           " must have a static shape, got ", shapeStr(t));
}

LogicalResult requireRank(OptLoc loc, StringRef op, StringRef what,
                          RankedTensorType t, int64_t rank, StringRef layout) {
  if (failed(requireStatic(loc, op, what, t)))
    return failure();
  if (t.getRank() == rank)
    return success();
  return emitOptionalError(loc, op, ": ", what, " must have rank ", rank, " (",
                           layout, "), got ", shapeStr(t));
}

LogicalResult requireSameElementType(OptLoc loc, StringRef op,
                                     RankedTensorType a, RankedTensorType b,
                                     StringRef bName) {
  if (a.getElementType() == b.getElementType())
    return success();
  return emitOptionalError(loc, op, ": ", bName, " has element type ",
                           b.getElementType(), " but the input has ",
                           a.getElementType());
}

/// Checks a 2-element attribute of positive values (strides, window, ...).
LogicalResult requirePositivePair(OptLoc loc, StringRef op, StringRef what,
                                  ArrayRef<int64_t> values) {
  if (values.size() != 2)
    return emitOptionalError(loc, op, ": ", what,
                             " must have 2 values (height, width), got ",
                             values.size());
  for (int64_t v : values)
    if (v < 1)
      return emitOptionalError(loc, op, ": ", what, " must be positive, got ",
                               shapeStr(values));
  return success();
}

LogicalResult checkPadding(OptLoc loc, StringRef op, Padding padding,
                           std::optional<ArrayRef<int64_t>> pad) {
  if (padding != Padding::Explicit) {
    if (pad)
      return emitOptionalError(loc, op,
                               ": 'pad' is only allowed with EXPLICIT padding");
    return success();
  }
  if (!pad || pad->size() != 4)
    return emitOptionalError(
        loc, op, ": EXPLICIT padding needs 'pad' = [top, bottom, left, right]");
  if (llvm::any_of(*pad, [](int64_t p) { return p < 0; }))
    return emitOptionalError(loc, op, ": padding must be non-negative, got ",
                             shapeStr(*pad));
  return success();
}

/// Output height and width of a windowed op; reports windows that do not fit.
FailureOr<std::pair<int64_t, int64_t>>
windowOutput(OptLoc loc, StringRef op, RankedTensorType input,
             ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
             ArrayRef<int64_t> dilations, Padding padding,
             ArrayRef<int64_t> pad) {
  int64_t out[2];
  static const char *axisName[2] = {"height", "width"};
  for (unsigned axis = 0; axis < 2; ++axis) {
    int64_t size = input.getDimSize(1 + axis);
    out[axis] = computeOutputSize(padding, size, window[axis], strides[axis],
                                  dilations[axis], pad, axis);
    if (out[axis] < 1)
      return emitOptionalError(loc, op, ": window ", window[axis],
                               dilations[axis] > 1 ? " (dilated)" : "",
                               " does not fit the input ", axisName[axis], " ",
                               size, " with ", stringifyPadding(padding),
                               " padding");
  }
  return std::make_pair(out[0], out[1]);
}
} // namespace

FailureOr<int64_t> mlir::nn::checkElementCount(OptLoc loc, StringRef what,
                                               ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    if (d < 0 || llvm::MulOverflow(count, d, count) || count > kMaxElements)
      return emitOptionalError(loc, what, " ", shapeStr(shape),
                               " has more than 2^53 elements");
  return count;
}

AxisPadding mlir::nn::computePadding(Padding padding, int64_t size,
                                     int64_t window, int64_t stride,
                                     int64_t dilation,
                                     ArrayRef<int64_t> explicitPad,
                                     unsigned axis) {
  int64_t effective = (window - 1) * dilation + 1;
  switch (padding) {
  case Padding::Valid:
    return {};
  case Padding::Explicit:
    return {explicitPad[2 * axis], explicitPad[2 * axis + 1]};
  case Padding::Same: {
    int64_t out = (size + stride - 1) / stride;
    int64_t total = std::max<int64_t>((out - 1) * stride + effective - size, 0);
    return {total / 2, total - total / 2};
  }
  }
  llvm_unreachable("unknown padding");
}

int64_t mlir::nn::computeOutputSize(Padding padding, int64_t size,
                                    int64_t window, int64_t stride,
                                    int64_t dilation,
                                    ArrayRef<int64_t> explicitPad,
                                    unsigned axis) {
  if (padding == Padding::Same)
    return (size + stride - 1) / stride;
  AxisPadding p = computePadding(padding, size, window, stride, dilation,
                                 explicitPad, axis);
  int64_t padded = size + p.before + p.after;
  int64_t effective = (window - 1) * dilation + 1;
  if (padded < effective)
    return -1;
  return (padded - effective) / stride + 1;
}

FailureOr<RankedTensorType>
mlir::nn::inferConv2DType(OptLoc loc, RankedTensorType input,
                          RankedTensorType filter, ArrayRef<int64_t> strides,
                          ArrayRef<int64_t> dilations, Padding padding,
                          std::optional<ArrayRef<int64_t>> pad) {
  StringRef op = "conv2d";
  if (failed(requireRank(loc, op, "input", input, 4, "NHWC")) ||
      failed(requireRank(loc, op, "filter", filter, 4, "HWIO")) ||
      failed(requireSameElementType(loc, op, input, filter, "filter")) ||
      failed(requirePositivePair(loc, op, "strides", strides)) ||
      failed(requirePositivePair(loc, op, "dilations", dilations)) ||
      failed(checkPadding(loc, op, padding, pad)))
    return failure();
  if (filter.getDimSize(2) != input.getDimSize(3))
    return emitOptionalError(loc, op, ": filter ", shapeStr(filter),
                             " expects ", filter.getDimSize(2),
                             " input channels but the input ", shapeStr(input),
                             " has ", input.getDimSize(3));
  auto hw =
      windowOutput(loc, op, input, filter.getShape().take_front(2), strides,
                   dilations, padding, pad.value_or(ArrayRef<int64_t>()));
  if (failed(hw))
    return failure();
  return RankedTensorType::get(
      {input.getDimSize(0), hw->first, hw->second, filter.getDimSize(3)},
      input.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferPool2DType(OptLoc loc, StringRef op, RankedTensorType input,
                          ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                          Padding padding,
                          std::optional<ArrayRef<int64_t>> pad) {
  if (failed(requireRank(loc, op, "input", input, 4, "NHWC")) ||
      failed(requirePositivePair(loc, op, "window", window)) ||
      failed(requirePositivePair(loc, op, "strides", strides)) ||
      failed(checkPadding(loc, op, padding, pad)))
    return failure();
  if (pad && ((*pad)[0] >= window[0] || (*pad)[1] >= window[0] ||
              (*pad)[2] >= window[1] || (*pad)[3] >= window[1]))
    return emitOptionalError(loc, op, ": padding ", shapeStr(*pad),
                             " must be smaller than the window ",
                             shapeStr(window));
  int64_t ones[2] = {1, 1};
  auto hw = windowOutput(loc, op, input, window, strides, ones, padding,
                         pad.value_or(ArrayRef<int64_t>()));
  if (failed(hw))
    return failure();
  return RankedTensorType::get(
      {input.getDimSize(0), hw->first, hw->second, input.getDimSize(3)},
      input.getElementType());
}

FailureOr<RankedTensorType> mlir::nn::inferBiasAddType(OptLoc loc,
                                                       RankedTensorType input,
                                                       RankedTensorType bias) {
  StringRef op = "bias_add";
  if (failed(requireStatic(loc, op, "input", input)) ||
      failed(requireRank(loc, op, "bias", bias, 1, "channels")) ||
      failed(requireSameElementType(loc, op, input, bias, "bias")))
    return failure();
  if (input.getRank() < 1 ||
      input.getDimSize(input.getRank() - 1) != bias.getDimSize(0))
    return emitOptionalError(loc, op, ": bias ", shapeStr(bias),
                             " does not match the last axis of the input ",
                             shapeStr(input));
  return input;
}

FailureOr<RankedTensorType>
mlir::nn::inferSoftmaxType(OptLoc loc, RankedTensorType input, int64_t axis) {
  if (failed(requireStatic(loc, "softmax", "input", input)))
    return failure();
  int64_t rank = input.getRank();
  if (rank < 1 || axis < -rank || axis >= rank)
    return emitOptionalError(loc, "softmax: axis ", axis,
                             " is out of range for input ", shapeStr(input));
  return input;
}

FailureOr<RankedTensorType>
mlir::nn::inferLRNType(OptLoc loc, RankedTensorType input, int64_t depthRadius,
                       double bias, double alpha, double beta) {
  StringRef op = "lrn";
  if (failed(requireRank(loc, op, "input", input, 4, "NHWC")))
    return failure();
  if (depthRadius < 0)
    return emitOptionalError(loc, op, ": depth_radius must be >= 0, got ",
                             depthRadius);
  if (!(bias > 0) || !std::isfinite(bias))
    return emitOptionalError(loc, op, ": bias must be positive, got ",
                             formatNumber(bias));
  if (!(alpha >= 0) || !std::isfinite(alpha))
    return emitOptionalError(loc, op, ": alpha must be >= 0, got ",
                             formatNumber(alpha));
  if (!std::isfinite(beta))
    return emitOptionalError(loc, op, ": beta must be finite, got ",
                             formatNumber(beta));
  return input;
}

FailureOr<RankedTensorType> mlir::nn::inferMatmulType(OptLoc loc,
                                                      RankedTensorType lhs,
                                                      RankedTensorType rhs,
                                                      bool transposeLhs,
                                                      bool transposeRhs) {
  StringRef op = "matmul";
  if (failed(requireRank(loc, op, "lhs", lhs, 2, "rows, columns")) ||
      failed(requireRank(loc, op, "rhs", rhs, 2, "rows, columns")) ||
      failed(requireSameElementType(loc, op, lhs, rhs, "rhs")))
    return failure();
  int64_t m = lhs.getDimSize(transposeLhs ? 1 : 0);
  int64_t k = lhs.getDimSize(transposeLhs ? 0 : 1);
  int64_t k2 = rhs.getDimSize(transposeRhs ? 1 : 0);
  int64_t n = rhs.getDimSize(transposeRhs ? 0 : 1);
  if (k != k2)
    return emitOptionalError(loc, op, ": inner dimensions differ: lhs ",
                             shapeStr(lhs), transposeLhs ? " (transposed)" : "",
                             " has ", k, ", rhs ", shapeStr(rhs),
                             transposeRhs ? " (transposed)" : "", " has ", k2);
  int64_t shape[2] = {m, n};
  if (failed(checkElementCount(loc, "matmul: result", shape)))
    return failure();
  return RankedTensorType::get(shape, lhs.getElementType());
}

FailureOr<RankedTensorType> mlir::nn::inferFlattenType(OptLoc loc,
                                                       RankedTensorType input) {
  if (failed(requireStatic(loc, "flatten", "input", input)))
    return failure();
  if (input.getRank() < 1)
    return emitOptionalError(loc, "flatten: input must have a batch axis");
  int64_t rest =
      input.getNumElements() / std::max<int64_t>(input.getDimSize(0), 1);
  if (input.getDimSize(0) == 0)
    rest = 0;
  return RankedTensorType::get({input.getDimSize(0), rest},
                               input.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferReshapeType(OptLoc loc, RankedTensorType input,
                           ArrayRef<int64_t> shape) {
  if (failed(requireStatic(loc, "reshape", "input", input)))
    return failure();
  if (shape.empty())
    return emitOptionalError(loc, "reshape: the shape must not be empty");
  for (int64_t d : shape)
    if (d < 1)
      return emitOptionalError(
          loc, "reshape: dimensions must be positive, got ", shapeStr(shape));
  FailureOr<int64_t> count = checkElementCount(loc, "reshape: shape", shape);
  if (failed(count))
    return failure();
  if (*count != input.getNumElements())
    return emitOptionalError(loc, "reshape: cannot reshape ", shapeStr(input),
                             " (", input.getNumElements(), " elements) to ",
                             shapeStr(shape), " (", *count, " elements)");
  return RankedTensorType::get(shape, input.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferAddType(OptLoc loc, RankedTensorType lhs, RankedTensorType rhs) {
  if (failed(requireStatic(loc, "add", "lhs", lhs)))
    return failure();
  if (lhs != rhs)
    return emitOptionalError(loc,
                             "add: operands must have the same shape and "
                             "element type, got ",
                             lhs, " and ", rhs);
  return lhs;
}

FailureOr<RankedTensorType>
mlir::nn::inferConcatType(OptLoc loc, ArrayRef<RankedTensorType> inputs,
                          int64_t axis) {
  if (inputs.size() < 2)
    return emitOptionalError(loc, "concat: needs at least 2 inputs, got ",
                             inputs.size());
  RankedTensorType first = inputs.front();
  if (failed(requireStatic(loc, "concat", "input", first)))
    return failure();
  int64_t rank = first.getRank();
  if (axis < -rank || axis >= rank)
    return emitOptionalError(loc, "concat: axis ", axis,
                             " is out of range for rank ", rank);
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> shape(first.getShape());
  for (RankedTensorType t : inputs.drop_front()) {
    if (failed(requireStatic(loc, "concat", "input", t)) ||
        failed(requireSameElementType(loc, "concat", first, t, "an input")))
      return failure();
    bool ok = t.getRank() == rank;
    for (int64_t i = 0; ok && i < rank; ++i)
      ok = i == axis || t.getDimSize(i) == first.getDimSize(i);
    if (!ok)
      return emitOptionalError(loc, "concat: input ", shapeStr(t),
                               " does not match ", shapeStr(first),
                               " outside axis ", axis);
    shape[axis] += t.getDimSize(axis);
  }
  return RankedTensorType::get(shape, first.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferBatchNormType(OptLoc loc, RankedTensorType input,
                             ArrayRef<RankedTensorType> channelVectors,
                             double epsilon) {
  StringRef op = "batch_norm";
  if (failed(requireStatic(loc, op, "input", input)))
    return failure();
  if (input.getRank() < 2)
    return emitOptionalError(loc, op, ": input must have rank >= 2, got ",
                             shapeStr(input));
  int64_t channels = input.getDimSize(input.getRank() - 1);
  for (RankedTensorType v : channelVectors) {
    if (failed(requireSameElementType(loc, op, input, v, "a statistic")))
      return failure();
    if (v.getRank() != 1 || v.getDimSize(0) != channels)
      return emitOptionalError(loc, op, ": scale, offset, mean and variance ",
                               "must be [", channels, "], got ", shapeStr(v));
  }
  if (!(epsilon > 0))
    return emitOptionalError(loc, op, ": epsilon must be positive, got ",
                             formatNumber(epsilon));
  return input;
}

FailureOr<RankedTensorType>
mlir::nn::inferMeanType(OptLoc loc, RankedTensorType input,
                        ArrayRef<int64_t> axes) {
  if (failed(requireStatic(loc, "mean", "input", input)))
    return failure();
  if (axes.empty())
    return emitOptionalError(loc, "mean: needs at least one axis");
  SmallVector<bool> reduced(input.getRank(), false);
  for (int64_t axis : axes) {
    if (axis < 0 || axis >= input.getRank())
      return emitOptionalError(loc, "mean: axis ", axis,
                               " is out of range for an input of shape ",
                               shapeStr(input));
    if (reduced[axis])
      return emitOptionalError(loc, "mean: axis ", axis, " is given twice");
    reduced[axis] = true;
  }
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(input.getShape()))
    if (!reduced[i])
      shape.push_back(d);
  return RankedTensorType::get(shape, input.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferDropoutType(OptLoc loc, RankedTensorType input, double rate) {
  if (!(rate >= 0 && rate < 1))
    return emitOptionalError(loc, "dropout: rate must be in [0, 1), got ",
                             formatNumber(rate));
  return input;
}

FailureOr<RankedTensorType> mlir::nn::inferL2LossType(OptLoc loc,
                                                      RankedTensorType input) {
  if (failed(requireStatic(loc, "l2_loss", "input", input)))
    return failure();
  return RankedTensorType::get({}, input.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferClassLossType(OptLoc loc, StringRef op, RankedTensorType scores,
                             RankedTensorType labels) {
  if (failed(requireRank(loc, op, "scores", scores, 2, "batch, classes")) ||
      failed(requireRank(loc, op, "labels", labels, 1, "batch")))
    return failure();
  if (labels.getDimSize(0) != scores.getDimSize(0))
    return emitOptionalError(loc, op, ": ", labels.getDimSize(0),
                             " labels for a batch of ", scores.getDimSize(0));
  return RankedTensorType::get({}, scores.getElementType());
}

FailureOr<RankedTensorType>
mlir::nn::inferWeightDecayType(OptLoc loc, RankedTensorType input,
                               double scale) {
  if (!(scale >= 0) || !std::isfinite(scale))
    return emitOptionalError(loc, "weight_decay: scale must be >= 0, got ",
                             formatNumber(scale));
  return inferL2LossType(loc, input);
}

LogicalResult mlir::nn::verifyInitializer(OptLoc loc, Attribute init,
                                          RankedTensorType type) {
  if (!isInitializerAttr(init))
    return emitOptionalError(loc,
                             "parameter initialiser must be an #nn "
                             "initialiser attribute, got ",
                             init);
  if (!type.hasStaticShape())
    return emitOptionalError(loc, "parameter must have a static shape, got ",
                             shapeStr(type));
  auto positive = [&](double stddev) -> LogicalResult {
    if (stddev > 0 && std::isfinite(stddev))
      return success();
    return emitOptionalError(loc, "initialiser stddev must be positive, got ",
                             formatNumber(stddev));
  };
  if (auto n = dyn_cast<NormalInitAttr>(init))
    return positive(n.getStddev().convertToDouble());
  if (auto n = dyn_cast<TruncatedNormalInitAttr>(init))
    return positive(n.getStddev().convertToDouble());
  if (auto u = dyn_cast<UniformInitAttr>(init))
    if (!(u.getMin() < u.getMax()))
      return emitOptionalError(loc,
                               "uniform initialiser needs min < max, got [",
                               formatNumber(u.getMin().convertToDouble()), ", ",
                               formatNumber(u.getMax().convertToDouble()), ")");
  if (auto v = dyn_cast<VarianceScalingInitAttr>(init)) {
    double scale = v.getScale().convertToDouble();
    if (!(scale > 0 && std::isfinite(scale)))
      return emitOptionalError(loc, "variance_scaling scale must be positive, ",
                               "got ", formatNumber(scale));
    if (!llvm::is_contained({"fan_in", "fan_out", "fan_avg"}, v.getMode()))
      return emitOptionalError(loc, "variance_scaling mode must be fan_in, ",
                               "fan_out or fan_avg, got ", v.getMode());
    if (!llvm::is_contained({"truncated_normal", "untruncated_normal",
                             "uniform"},
                            v.getDistribution()))
      return emitOptionalError(loc, "variance_scaling distribution must be ",
                               "truncated_normal, untruncated_normal or ",
                               "uniform, got ", v.getDistribution());
  }
  if (isa<GlorotUniformInitAttr, GlorotNormalInitAttr, HeNormalInitAttr,
          VarianceScalingInitAttr>(init) &&
      type.getRank() != 2 && type.getRank() != 4)
    return emitOptionalError(loc,
                             "fan-based initialisers need a [in, out] "
                             "matrix or an HWIO filter, got ",
                             shapeStr(type));
  return success();
}

std::string mlir::nn::formatNumber(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  char buffer[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value)
      break;
  }
  return buffer;
}

LogicalResult mlir::nn::verifyOptimizerConfig(OptLoc loc, OptimizerKind kind,
                                              double learningRate,
                                              double momentum, bool nesterov,
                                              double weightDecay, double beta1,
                                              double beta2, double epsilon,
                                              Attribute schedule,
                                              int64_t warmupSteps) {
  auto check = [&](double v, bool ok, StringRef what) -> LogicalResult {
    if (ok && std::isfinite(v))
      return success();
    return emitOptionalError(loc, "optimizer: ", what, ", got ",
                             formatNumber(v));
  };
  if (failed(check(learningRate, learningRate > 0,
                   "learning_rate must be positive")) ||
      failed(check(momentum, momentum >= 0 && momentum < 1,
                   "momentum must be in [0, 1)")) ||
      failed(
          check(weightDecay, weightDecay >= 0, "weight_decay must be >= 0")) ||
      failed(
          check(beta1, beta1 >= 0 && beta1 < 1, "beta1 must be in [0, 1)")) ||
      failed(
          check(beta2, beta2 >= 0 && beta2 < 1, "beta2 must be in [0, 1)")) ||
      failed(check(epsilon, epsilon > 0, "epsilon must be positive")))
    return failure();
  if (nesterov && momentum == 0)
    return emitOptionalError(loc,
                             "optimizer: nesterov needs a non-zero momentum");
  if (kind == OptimizerKind::Adam && (momentum != 0 || nesterov))
    return emitOptionalError(
        loc, "optimizer: momentum and nesterov apply to sgd, not adam");
  if (warmupSteps < 0)
    return emitOptionalError(loc, "optimizer: warmup_steps must be >= 0, got ",
                             warmupSteps);
  if (auto decay = dyn_cast_or_null<ExponentialDecayAttr>(schedule)) {
    double rate = decay.getRate().convertToDouble();
    if (failed(check(rate, rate > 0 && rate <= 1,
                     "schedule rate must be in (0, 1]")))
      return failure();
    if (decay.getSteps() < 1)
      return emitOptionalError(
          loc, "optimizer: schedule steps must be positive, got ",
          decay.getSteps());
  }
  if (auto pieces = dyn_cast_or_null<PiecewiseConstantAttr>(schedule))
    return verifyPiecewiseConstant(loc, pieces.getBoundaries().asArrayRef(),
                                   pieces.getValues().asArrayRef());
  return success();
}

LogicalResult mlir::nn::verifyPiecewiseConstant(OptLoc loc,
                                                ArrayRef<int64_t> boundaries,
                                                ArrayRef<double> values) {
  if (values.size() != boundaries.size() + 1)
    return emitOptionalError(loc, "piecewise_constant: needs one more value "
                                  "than boundaries, got ",
                             values.size(), " values and ", boundaries.size(),
                             " boundaries");
  for (size_t i = 1; i < boundaries.size(); ++i)
    if (boundaries[i] <= boundaries[i - 1])
      return emitOptionalError(loc, "piecewise_constant: boundaries must ",
                               "increase, got ", boundaries[i - 1], " then ",
                               boundaries[i]);
  for (double v : values)
    if (!(v > 0 && std::isfinite(v)))
      return emitOptionalError(loc, "piecewise_constant: values must be ",
                               "positive learning rates, got ",
                               formatNumber(v));
  return success();
}
