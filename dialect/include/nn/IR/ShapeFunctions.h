//===- ShapeFunctions.h - nn result-type rules ------------------*- C++ -*-===//
//
// Part of nnc. The shape rules of every nn layer, shared by the ops'
// inferReturnTypes and the model parser. Each function checks its operands
// and attributes, reports a precise error at `loc` (when given) and returns
// the result type.
//
//===----------------------------------------------------------------------===//

#ifndef NN_IR_SHAPEFUNCTIONS_H
#define NN_IR_SHAPEFUNCTIONS_H

#include "nn/IR/NNDialect.h"

#include <optional>

namespace mlir::nn {

using OptLoc = std::optional<Location>;

/// Tensors hold at most 2^53 elements, so counts and sizes stay exact.
constexpr int64_t kMaxElements = int64_t(1) << 53;

/// The number of elements of `shape`, or failure (reported at `loc` for
/// `what`) when it exceeds kMaxElements.
FailureOr<int64_t> checkElementCount(OptLoc loc, StringRef what,
                                     ArrayRef<int64_t> shape);

/// Padding of one spatial axis: elements added before and after.
struct AxisPadding {
  int64_t before = 0, after = 0;
};

/// TensorFlow's padding for one axis of size `size`, window `window`, stride
/// `stride`, dilation `dilation`. SAME puts the smaller half before.
AxisPadding computePadding(Padding padding, int64_t size, int64_t window,
                           int64_t stride, int64_t dilation,
                           ArrayRef<int64_t> explicitPad, unsigned axis);

/// Output size of one spatial axis (TF rules), or -1 when nothing fits.
int64_t computeOutputSize(Padding padding, int64_t size, int64_t window,
                          int64_t stride, int64_t dilation,
                          ArrayRef<int64_t> explicitPad, unsigned axis);

FailureOr<RankedTensorType>
inferConv2DType(OptLoc loc, RankedTensorType input, RankedTensorType filter,
                ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
                Padding padding, std::optional<ArrayRef<int64_t>> pad);
FailureOr<RankedTensorType>
inferPool2DType(OptLoc loc, StringRef opName, RankedTensorType input,
                ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
                Padding padding, std::optional<ArrayRef<int64_t>> pad);
FailureOr<RankedTensorType> inferBiasAddType(OptLoc loc, RankedTensorType input,
                                             RankedTensorType bias);
FailureOr<RankedTensorType> inferSoftmaxType(OptLoc loc, RankedTensorType input,
                                             int64_t axis);
FailureOr<RankedTensorType> inferLRNType(OptLoc loc, RankedTensorType input,
                                         int64_t depthRadius, double bias,
                                         double alpha, double beta);
FailureOr<RankedTensorType> inferMatmulType(OptLoc loc, RankedTensorType lhs,
                                            RankedTensorType rhs,
                                            bool transposeLhs,
                                            bool transposeRhs);
FailureOr<RankedTensorType> inferFlattenType(OptLoc loc,
                                             RankedTensorType input);
FailureOr<RankedTensorType> inferReshapeType(OptLoc loc, RankedTensorType input,
                                             ArrayRef<int64_t> shape);
FailureOr<RankedTensorType> inferAddType(OptLoc loc, RankedTensorType lhs,
                                         RankedTensorType rhs);
FailureOr<RankedTensorType>
inferConcatType(OptLoc loc, ArrayRef<RankedTensorType> inputs, int64_t axis);
FailureOr<RankedTensorType>
inferBatchNormType(OptLoc loc, RankedTensorType input,
                   ArrayRef<RankedTensorType> channelVectors, double epsilon);
FailureOr<RankedTensorType> inferDropoutType(OptLoc loc, RankedTensorType input,
                                             double rate);
/// The mean over distinct, in-range `axes`, which are dropped.
FailureOr<RankedTensorType> inferMeanType(OptLoc loc, RankedTensorType input,
                                          ArrayRef<int64_t> axes);
/// Losses return a rank-0 tensor of the input's element type.
FailureOr<RankedTensorType> inferL2LossType(OptLoc loc, RankedTensorType input);
FailureOr<RankedTensorType> inferClassLossType(OptLoc loc, StringRef opName,
                                               RankedTensorType scores,
                                               RankedTensorType labels);
FailureOr<RankedTensorType>
inferWeightDecayType(OptLoc loc, RankedTensorType input, double scale);

/// The shortest decimal form of `value` that reads back exactly ("0.1",
/// "6.5", "1e-07"), for messages.
std::string formatNumber(double value);

/// Checks the optimizer's hyper-parameters (ranges, combinations).
LogicalResult verifyOptimizerConfig(OptLoc loc, OptimizerKind kind,
                                    double learningRate, double momentum,
                                    bool nesterov, double weightDecay,
                                    double beta1, double beta2, double epsilon,
                                    Attribute schedule, int64_t warmupSteps);

/// Checks a piecewise-constant schedule: increasing boundaries, one more
/// value than boundaries, positive values.
LogicalResult verifyPiecewiseConstant(OptLoc loc, ArrayRef<int64_t> boundaries,
                                      ArrayRef<double> values);

/// Checks that `init` can initialise a tensor of type `type`.
LogicalResult verifyInitializer(OptLoc loc, Attribute init,
                                RankedTensorType type);

} // namespace mlir::nn

#endif // NN_IR_SHAPEFUNCTIONS_H
