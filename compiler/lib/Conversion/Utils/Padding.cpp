//===- Padding.cpp - TensorFlow padding on tensors ------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Conversion/Utils/Padding.h"

#include "nn/IR/ShapeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace nnc::conversion {

Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Type elt = type.getElementType();
  Value v =
      isa<IntegerType>(elt)
          ? arith::ConstantOp::create(
                b, loc, b.getIntegerAttr(elt, static_cast<int64_t>(value)))
                .getResult()
          : floatConst(b, loc, elt, value);
  return linalg::FillOp::create(b, loc, v, empty).getResult(0);
}

SmallVector<int64_t, 4>
explicitPads(RankedTensorType input, ArrayRef<int64_t> window,
             ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
             nn::Padding padding, std::optional<ArrayRef<int64_t>> pad) {
  SmallVector<int64_t, 4> pads;
  for (unsigned axis = 0; axis < 2; ++axis) {
    nn::AxisPadding p = nn::computePadding(
        padding, input.getDimSize(1 + axis), window[axis], strides[axis],
        dilations[axis], pad.value_or(ArrayRef<int64_t>()), axis);
    pads.push_back(p.before);
    pads.push_back(p.after);
  }
  return pads;
}

Value padTensor(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, double value) {
  // The border filled, then x inserted: once bufferized, the op that
  // computes x writes straight into the interior (empty-tensor
  // elimination) instead of x being copied there.
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (unsigned i = 0; i < shape.size(); ++i) {
    offsets.push_back(b.getIndexAttr(low[i]));
    sizes.push_back(b.getIndexAttr(shape[i]));
    strides.push_back(b.getIndexAttr(1));
    shape[i] += low[i] + high[i];
  }
  Value border = filled(
      b, loc, RankedTensorType::get(shape, type.getElementType()), value);
  return tensor::InsertSliceOp::create(b, loc, x, border, offsets, sizes,
                                       strides)
      .getResult();
}

Value padNHWC(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> pads,
              double value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  return padTensor(b, loc, x, {0, pads[0], pads[2], 0},
                   {0, pads[1], pads[3], 0}, value);
}

Value sliceTo(OpBuilder &b, Location loc, Value x, RankedTensorType type,
              ArrayRef<int64_t> offsets) {
  if (x.getType() == type)
    return x;
  SmallVector<OpFoldResult> offs, sizes, strides;
  for (auto [i, d] : llvm::enumerate(type.getShape())) {
    offs.push_back(b.getIndexAttr(offsets.empty() ? 0 : offsets[i]));
    sizes.push_back(b.getIndexAttr(d));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::ExtractSliceOp::create(b, loc, type, x, offs, sizes, strides);
}

Value unpadNHWC(OpBuilder &b, Location loc, Value x, RankedTensorType type,
                ArrayRef<int64_t> pads) {
  return sliceTo(b, loc, x, type, {0, pads[0], pads[2], 0});
}

} // namespace nnc::conversion
