//===- OptimizerUpdates.h - the optimizer's updates in nn -------*- C++ -*-===//
//
// Part of nnc. The optimizer's state (the global step, momentum and Adam's
// moments, as non-trainable parameters) and its updates of the trainable
// parameters, in the functions nn-generate-training derives.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_OPTIMIZERUPDATES_H
#define NNC_TRANSFORMS_OPTIMIZERUPDATES_H

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace nnc {

/// The global step, an i64 counter declared as state on first use, read
/// at `b`.
mlir::Value readStep(mlir::OpBuilder &b, mlir::ModuleOp module,
                     mlir::Location loc);

/// Each trainable parameter updated in place (nn.assign_param) from its
/// gradient by `opt`, at the rate of `step` (read by readStep), which then
/// counts up. The optimizer's state is declared as it is needed.
void applyUpdates(mlir::OpBuilder &b, mlir::ModuleOp module,
                  llvm::MutableArrayRef<mlir::nn::ParameterOp> trainable,
                  llvm::ArrayRef<mlir::Value> grads, mlir::Value step,
                  mlir::nn::OptimizerOp opt);

} // namespace nnc

#endif // NNC_TRANSFORMS_OPTIMIZERUPDATES_H
