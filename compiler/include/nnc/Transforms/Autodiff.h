//===- Autodiff.h - reverse-mode differentiation of nn functions -*- C++
//-*-===//
//
// Part of nnc. Differentiates a scalar value of a single-block function with
// respect to the parameters it reads, through DifferentiableOpInterface: the
// differentiation knows no op by name.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_AUTODIFF_H
#define NNC_TRANSFORMS_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"

namespace nnc {

/// Builds, before the terminator of `func`'s only block, the gradient of
/// `loss` (a rank-0 tensor computed in that block) with respect to every
/// parameter read through nn.get_param. Returns the gradients by parameter
/// name (parameters that do not affect the loss are absent), or failure
/// after a diagnostic at the op that has no gradient. With a `lossScale`
/// other than 1 the backward pass runs on the loss times that scale (the
/// gradients come out scaled).
mlir::FailureOr<llvm::StringMap<mlir::Value>>
buildParameterGradients(mlir::func::FuncOp func, mlir::Value loss,
                        double lossScale = 1.0);

/// Replaces every func.call in `func` by the callee's body (single-block
/// callees, recursively). Returns the values that replaced the results of
/// calls to `tracked`, in call order.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
inlineCalls(mlir::func::FuncOp func, llvm::StringRef tracked);

} // namespace nnc

#endif // NNC_TRANSFORMS_AUTODIFF_H
