//===- Flops.h - floating-point operations of nn functions ------*- C++ -*-===//
//
// Part of nnc. The multiply-adds of an nn function's products and
// convolutions: the throughput figures' count (nn-record-layers) and the
// size of a training step (nn-generate-training).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_FLOPS_H
#define NNC_TRANSFORMS_FLOPS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace nnc {

/// Functions' FLOPs as countFlops found them (nullopt: not known).
using FlopCounts = llvm::DenseMap<mlir::Operation *, std::optional<int64_t>>;

/// The FLOPs of `func` with those of the functions it calls: two per
/// multiply-add of a product or convolution (matmul 2·M·N·K; conv2d and
/// both its gradients 2·N·Ho·Wo·Co·Kh·Kw·Ci), nothing for other ops.
/// Nullopt when a shape is dynamic or a callee has no body; memoised in
/// `known`.
std::optional<int64_t> countFlops(mlir::func::FuncOp func,
                                  mlir::ModuleOp module, FlopCounts &known);

} // namespace nnc

#endif // NNC_TRANSFORMS_FLOPS_H
