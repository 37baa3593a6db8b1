//===- MemRefUtils.h - memref type queries shared by passes ---*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_UTILS_MEMREFUTILS_H
#define NNC_UTILS_MEMREFUTILS_H

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace nnc {

/// The element strides and offset of a memref.
struct StaticLayout {
  llvm::SmallVector<int64_t> strides;
  int64_t offset = 0;
};

/// The layout of `type` when it is a memref whose sizes, strides and offset
/// are all static; nullopt for any other type.
std::optional<StaticLayout> getStaticLayout(mlir::Type type);

} // namespace nnc

#endif // NNC_UTILS_MEMREFUTILS_H
