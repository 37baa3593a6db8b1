//===- Files.h - nnc's input and output files -------------------*- C++ -*-===//
//
// Part of nnc. The input is read with a size limit, and the output path is
// checked before any work, so that a long compile never ends in a lost
// result or a destroyed source file.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TOOLS_NNC_FILES_H
#define NNC_TOOLS_NNC_FILES_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace nnc {

/// The largest input nnc reads: models are text of a few kilobytes, a
/// .mlir dump of ResNet-50's training program a few megabytes.
constexpr uint64_t kMaxInputBytes = 64ull << 20;

/// The contents of `path` ("-" is standard input, refused on a terminal),
/// or null after reporting why not: missing, a directory, or more than
/// kMaxInputBytes (a device such as /dev/zero included).
std::unique_ptr<llvm::MemoryBuffer> readInput(llvm::StringRef path);

/// Whether `output` ("-" is standard output) can be written without harm:
/// not the input file itself, not a directory, in an existing writable
/// directory; a `program` (the linked executable) only to a regular file.
mlir::LogicalResult checkOutput(llvm::StringRef input, llvm::StringRef output,
                                bool program);

} // namespace nnc

#endif // NNC_TOOLS_NNC_FILES_H
