//===- Padding.h - TensorFlow padding on tensors ----------------*- C++ -*-===//
//
// Part of nnc. Shared by convert-nn-to-linalg and convert-nn-to-cuda: the
// explicit [top, bottom, left, right] padding TensorFlow's rules give a
// windowed NHWC op, and the tensor ops that add such a border (a filled
// tensor with the input inserted) or cut it off again.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_UTILS_PADDING_H
#define NNC_CONVERSION_UTILS_PADDING_H

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace nnc::conversion {

/// A float constant of type `type`.
mlir::Value floatConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                       double value);

/// A tensor of `type` filled with `value` (an integer, for an integer
/// element type).
mlir::Value filled(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::RankedTensorType type, double value);

/// [top, bottom, left, right] padding (TensorFlow's rules) of a windowed
/// NHWC op on `input`.
llvm::SmallVector<int64_t, 4>
explicitPads(mlir::RankedTensorType input, llvm::ArrayRef<int64_t> window,
             llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
             mlir::nn::Padding padding,
             std::optional<llvm::ArrayRef<int64_t>> pad);

/// The padding of a convolution or one of its gradients (`op`) on `input`,
/// for a filter of spatial size `window`.
template <typename Op>
llvm::SmallVector<int64_t, 4> convPads(Op op, mlir::RankedTensorType input,
                                       llvm::ArrayRef<int64_t> window) {
  return explicitPads(input, window, op.getStrides(), op.getDilations(),
                      op.getPadding(), op.getPad());
}

/// The padding of a pooling op or its gradient (`op`) on `input`.
template <typename Op>
llvm::SmallVector<int64_t, 4> poolPads(Op op, mlir::RankedTensorType input) {
  const int64_t ones[2] = {1, 1};
  return explicitPads(input, op.getWindow(), op.getStrides(), ones,
                      op.getPadding(), op.getPad());
}

/// Pads every axis of `x` by `low[i]` before and `high[i]` after with
/// `value`: the border filled, then `x` inserted.
mlir::Value padTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                      double value);

/// Pads the H and W axes of an NHWC tensor by [top, bottom, left, right]
/// with `value`; returns `x` unchanged when every pad is 0.
mlir::Value padNHWC(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                    llvm::ArrayRef<int64_t> pads, double value);

/// The block of `x` of type `type` starting at `offsets` (all 0 when
/// empty), unit strides; `x` itself when it already has that type.
mlir::Value sliceTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                    mlir::RankedTensorType type,
                    llvm::ArrayRef<int64_t> offsets = {});

/// The interior of an NHWC tensor `x` padded by [top, bottom, left, right]
/// `pads`: the tensor of `type` that padNHWC padded.
mlir::Value unpadNHWC(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::RankedTensorType type,
                      llvm::ArrayRef<int64_t> pads);

} // namespace nnc::conversion

#endif // NNC_CONVERSION_UTILS_PADDING_H
