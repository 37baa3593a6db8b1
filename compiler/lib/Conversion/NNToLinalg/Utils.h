//===- Utils.h - helpers shared by the nn to linalg patterns ----*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_LIB_CONVERSION_NNTOLINALG_UTILS_H
#define NNC_LIB_CONVERSION_NNTOLINALG_UTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "nn/IR/NNDialect.h"

namespace nnc::linalg_utils {

/// A float constant of type `type`.
mlir::Value floatConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type,
                       double value);

/// base^exponent for a constant exponent. Multiples of 1/4 up to 4 in
/// magnitude (LRN's beta = 0.75 and its gradient's -1.75) are products of
/// sqrt, which vectorise and round well; other exponents use math.powf.
mlir::Value powConst(mlir::OpBuilder &b, mlir::Location loc, mlir::Value base,
                     double exponent);

/// A tensor of `type` filled with `value`.
mlir::Value filled(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::RankedTensorType type, double value);

/// The identity map of `rank` dimensions and `n` parallel iterators.
mlir::AffineMap identity(mlir::MLIRContext *ctx, unsigned rank);
llvm::SmallVector<mlir::utils::IteratorType> parallel(unsigned n,
                                                      unsigned reductions = 0);

/// A linalg.generic over `inputs` writing a fresh tensor of `resultType`
/// (initialised with `init` when given, else left empty).
mlir::Value
generic(mlir::OpBuilder &b, mlir::Location loc,
        mlir::RankedTensorType resultType, mlir::ValueRange inputs,
        llvm::ArrayRef<mlir::AffineMap> maps,
        llvm::ArrayRef<mlir::utils::IteratorType> iterators,
        llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                       mlir::ValueRange)>
            body,
        std::optional<double> init = std::nullopt);

/// An elementwise linalg.generic over same-shaped `inputs`.
mlir::Value
elementwise(mlir::OpBuilder &b, mlir::Location loc,
            mlir::RankedTensorType resultType, mlir::ValueRange inputs,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::ValueRange)>
                body);

/// Pads every axis of `x` by `low[i]` before and `high[i]` after with
/// `value`.
mlir::Value padTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      llvm::ArrayRef<int64_t> low, llvm::ArrayRef<int64_t> high,
                      double value);

/// Pads the H and W axes of an NHWC tensor by [top, bottom, left, right]
/// with `value`; returns `x` unchanged when every pad is 0.
mlir::Value padNHWC(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                    llvm::ArrayRef<int64_t> pads, double value);

/// The map from `rank` loop dimensions to all of them but `axis`: how a
/// tensor reduced along `axis` is read or written.
mlir::AffineMap dropAxisMap(mlir::MLIRContext *ctx, unsigned rank,
                            int64_t axis);

/// Reduces `x` along `axis` with `combine(acc, element)` starting from
/// `init`; the result has that axis removed.
mlir::Value
reduceAlong(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x, int64_t axis,
            double init,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::Value, mlir::Value)>
                combine);

/// Sums a tensor to a rank-0 tensor after applying `term` to each element.
mlir::Value sumAll(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                   llvm::function_ref<mlir::Value(mlir::OpBuilder &,
                                                  mlir::Location, mlir::Value)>
                       term);

/// [top, bottom, left, right] padding (TensorFlow's rules) of a windowed
/// NHWC op on `input`.
llvm::SmallVector<int64_t, 4>
explicitPads(mlir::RankedTensorType input, llvm::ArrayRef<int64_t> window,
             llvm::ArrayRef<int64_t> strides, llvm::ArrayRef<int64_t> dilations,
             mlir::nn::Padding padding,
             std::optional<llvm::ArrayRef<int64_t>> pad);

/// A two-element i64 attribute (linalg's strides and dilations).
mlir::DenseIntElementsAttr pairAttr(mlir::OpBuilder &b,
                                    llvm::ArrayRef<int64_t> values);

/// Number of real (unpadded) positions of an axis in the window of output
/// index `o`: min(o*s - before + k, size) - max(o*s - before, 0).
mlir::Value realCount(mlir::OpBuilder &b, mlir::Location loc, mlir::Value o,
                      int64_t stride, int64_t before, int64_t window,
                      int64_t size);

/// What window offset (kh, kw) of a strided NHWC window reads at every
/// output position: x[n, oh*s0 + kh, ow*s1 + kw, c] for the `outShape`
/// [N, OH, OW, C] positions (a strided view of padded `x`).
mlir::Value windowSlice(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                        int64_t kh, int64_t kw, llvm::ArrayRef<int64_t> strides,
                        llvm::ArrayRef<int64_t> outShape);

/// An elementwise op over every window offset's slice of padded `x`:
/// `combine(acc, slice_k)` folded from slice 0, in row-major window order.
mlir::Value
foldWindow(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
           llvm::ArrayRef<int64_t> window, llvm::ArrayRef<int64_t> strides,
           mlir::RankedTensorType outType,
           llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                          mlir::Value, mlir::Value)>
               combine);

/// s[n,h,w,c] = sum of x[n,h,w,c-r .. c+r] (zeros beyond the channels).
mlir::Value channelWindowSum(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value x, int64_t r);

} // namespace nnc::linalg_utils

#endif // NNC_LIB_CONVERSION_NNTOLINALG_UTILS_H
