//===- MemRefUtils.cpp - memref type queries shared by nnc's passes -------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Utils/MemRefUtils.h"

using namespace mlir;

std::optional<nnc::StaticLayout> nnc::getStaticLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  StaticLayout layout;
  if (!memref || !memref.hasStaticShape() ||
      failed(memref.getStridesAndOffset(layout.strides, layout.offset)) ||
      ShapedType::isDynamic(layout.offset) ||
      llvm::any_of(layout.strides, ShapedType::isDynamic))
    return std::nullopt;
  return layout;
}
