//===- SymbolUtils.h - symbols used from the rest of a module ---*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_UTILS_SYMBOLUTILS_H
#define NNC_UTILS_SYMBOLUTILS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace nnc {

/// Calls `use` once for each symbol of `whole` that the ops of `part` refer
/// to (by their root references) and that `part` does not define, in the
/// order of first use. `use` may add ops to `part`; they are not visited.
void forEachForeignSymbol(mlir::ModuleOp part, mlir::SymbolTable &whole,
                          llvm::function_ref<void(mlir::Operation *)> use);

} // namespace nnc

#endif // NNC_UTILS_SYMBOLUTILS_H
