//===- LoopUtils.h - loop rewrites shared by nnc's passes -------*- C++ -*-===//
//
// Part of nnc. Used by the CPU code generation, convert-linalg-to-gpu and
// nnc-nest-function-parts.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_UTILS_LOOPUTILS_H
#define NNC_UTILS_LOOPUTILS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace nnc {

/// Replaces `op` (without reductions) by an scf.for nest over the same
/// iterations, outermost dimension first.
void sequentialize(mlir::RewriterBase &rewriter, mlir::scf::ParallelOp op);

/// Whether `body` (a function's) runs without loops or branches: it is
/// empty (a declaration), or one block none of whose ops holds a region.
bool isStraightLine(mlir::Region &body);

} // namespace nnc

#endif // NNC_UTILS_LOOPUTILS_H
