//===- Error.h - how the driver reports an error ----------------*- C++ -*-===//
//
// Part of nnc. Problems that are not about a source location (flags, files,
// the linker) are one line on stderr: "nnc: error: <message>".
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_ERROR_H
#define NNC_DRIVER_ERROR_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/WithColor.h"

namespace nnc {

/// Writes "nnc: error: `message`" to stderr; returns failure.
inline mlir::LogicalResult reportError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "nnc") << message << "\n";
  return mlir::failure();
}

} // namespace nnc

#endif // NNC_DRIVER_ERROR_H
