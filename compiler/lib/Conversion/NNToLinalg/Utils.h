//===- Utils.h - builders shared by the nn to linalg patterns ---*- C++ -*-===//
//
// Part of nnc. linalg.generic builders (elementwise, broadcasting rank-0
// operands, reducing along an axis) and scalar arithmetic used by several
// op families of convert-nn-to-linalg. Padding is in
// nnc/Conversion/Utils/Padding.h, shared with convert-nn-to-cuda.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_LIB_CONVERSION_NNTOLINALG_UTILS_H
#define NNC_LIB_CONVERSION_NNTOLINALG_UTILS_H

#include "nnc/Conversion/Utils/Padding.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "nn/IR/NNDialect.h"

namespace nnc::linalg_utils {

using Body = llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                            mlir::ValueRange)>;

/// x * y, x - y, x + y on floats.
mlir::Value mul(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y);
mlir::Value sub(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y);
mlir::Value add(mlir::OpBuilder &b, mlir::Location l, mlir::Value x,
                mlir::Value y);

/// The identity map of `rank` dimensions; `n` parallel iterators followed
/// by `reductions` reduction iterators.
mlir::AffineMap identity(mlir::MLIRContext *ctx, unsigned rank);
llvm::SmallVector<mlir::utils::IteratorType> parallel(unsigned n,
                                                      unsigned reductions = 0);

/// A linalg.generic over `inputs` writing a fresh tensor of `resultType`
/// (initialised with `init` when given, else left empty).
mlir::Value generic(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::RankedTensorType resultType, mlir::ValueRange inputs,
                    llvm::ArrayRef<mlir::AffineMap> maps,
                    llvm::ArrayRef<mlir::utils::IteratorType> iterators,
                    Body body, std::optional<double> init = std::nullopt);

/// An elementwise linalg.generic over same-shaped `inputs`.
mlir::Value elementwise(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::RankedTensorType resultType,
                        mlir::ValueRange inputs, Body body);

/// An elementwise linalg.generic over same-shaped `inputs` that folds them
/// in order: `combine(acc, inputs[k])` from acc = inputs[0].
mlir::Value
foldInputs(mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType type,
           mlir::ValueRange inputs,
           llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                          mlir::Value, mlir::Value)>
               combine);

/// An elementwise linalg.generic whose rank-0 operands are broadcast.
mlir::Value pointwise(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::RankedTensorType type, mlir::ValueRange inputs,
                      Body body);

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

/// The sum over every axis but the last (per channel) of
/// term(tensors..., vectors...), `tensors` full-shaped, `vectors` one entry
/// per channel: bias_add_grad, batch norm's statistics. From rank 3 up,
/// partial sums along the axis before the channel come first (parallel over
/// the others), then their per-channel sum; each nest runs over the channel
/// first (parallel), then the other axes (reductions).
mlir::Value channelSum(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::ValueRange tensors, mlir::ValueRange vectors,
                       Body term);
/// The per-channel sums of `terms` over tensors of any rank, every axis but
/// the channel summed in one nest.
llvm::SmallVector<mlir::Value> channelSumsInOneNest(mlir::OpBuilder &b,
                                                    mlir::Location loc,
                                                    mlir::ValueRange tensors,
                                                    mlir::ValueRange vectors,
                                                    llvm::ArrayRef<Body> terms);
/// The sums along the axis before the channel (each row of an image) of
/// `terms`, one output per term, in one pass, for tensors of rank 3 or
/// more: the terms take the full-shaped `tensors`, then `rowTensors`
/// (shaped as the sums, one entry per row and channel), then the
/// per-channel `vectors`.
llvm::SmallVector<mlir::Value> rowSums(mlir::OpBuilder &b, mlir::Location loc,
                                       mlir::ValueRange tensors,
                                       mlir::ValueRange rowTensors,
                                       mlir::ValueRange vectors,
                                       llvm::ArrayRef<Body> terms);
/// channelSum of each of `terms` in one pass over the tensors: one
/// reduction with an output per term (their partial sums), then each
/// partial's per-channel sum.
llvm::SmallVector<mlir::Value>
channelSums(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange tensors,
            mlir::ValueRange vectors, llvm::ArrayRef<Body> terms);

} // namespace nnc::linalg_utils

#endif // NNC_LIB_CONVERSION_NNTOLINALG_UTILS_H
