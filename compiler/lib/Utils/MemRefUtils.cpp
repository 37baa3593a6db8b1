//===- MemRefUtils.cpp - memref type queries shared by nnc's passes -------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Utils/MemRefUtils.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

/// The strides of a row-major `shape` (an identity layout), as
/// MemRefType::getStridesAndOffset gives them: each the product of the
/// sizes inside it, dynamic outside a size of 0. Upstream derives them from
/// the canonical strided layout's affine expression, a few thousand
/// instructions a type; nnc's passes ask about tens of thousands of types
/// (Inception-v3's entry points alone, 53,000 times: 0.33 G instructions
/// on one thread).
static void rowMajorStrides(ArrayRef<int64_t> shape,
                            SmallVectorImpl<int64_t> &strides) {
  strides.resize(shape.size());
  int64_t running = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = running;
    if (ShapedType::isDynamic(running) || shape[d] <= 0)
      running = ShapedType::kDynamic;
    else
      running *= shape[d];
  }
}

std::optional<nnc::StaticLayout> nnc::getStaticLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return std::nullopt;
  StaticLayout layout;
  MemRefLayoutAttrInterface attr = memref.getLayout();
  if (attr.isIdentity())
    rowMajorStrides(memref.getShape(), layout.strides);
  else if (auto strided = dyn_cast<StridedLayoutAttr>(attr)) {
    layout.strides.assign(strided.getStrides().begin(),
                          strided.getStrides().end());
    layout.offset = strided.getOffset();
  } else if (failed(memref.getStridesAndOffset(layout.strides, layout.offset)))
    return std::nullopt;
  if (ShapedType::isDynamic(layout.offset) ||
      llvm::any_of(layout.strides, ShapedType::isDynamic))
    return std::nullopt;
  return layout;
}
