//===- SymbolUtils.h - symbols used from the rest of a module ---*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_UTILS_SYMBOLUTILS_H
#define NNC_UTILS_SYMBOLUTILS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include <vector>

namespace nnc {

/// For each of `parts`, the symbols of `whole` that its ops refer to (by
/// their root references) and that it does not define, in the order of
/// first use (SymbolTable::getSymbolUses's). The parts are scanned on the
/// context's threads: the scan visits every op (each distinct attribute is
/// looked into once), and the lookups in `whole` only read.
std::vector<llvm::SmallVector<mlir::Operation *>>
foreignSymbols(llvm::ArrayRef<mlir::ModuleOp> parts, mlir::SymbolTable &whole);

} // namespace nnc

#endif // NNC_UTILS_SYMBOLUTILS_H
