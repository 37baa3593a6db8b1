//===- Utils.cpp - helpers shared by the nn to linalg patterns ------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;

namespace nnc::linalg_utils {

Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value v = floatConst(b, loc, type.getElementType(), value);
  return linalg::FillOp::create(b, loc, v, empty).getResult(0);
}

AffineMap identity(MLIRContext *ctx, unsigned rank) {
  return AffineMap::getMultiDimIdentityMap(rank, ctx);
}

SmallVector<utils::IteratorType> parallel(unsigned n, unsigned reductions) {
  SmallVector<utils::IteratorType> its(n, utils::IteratorType::parallel);
  its.append(reductions, utils::IteratorType::reduction);
  return its;
}

Value generic(OpBuilder &b, Location loc, RankedTensorType resultType,
              ValueRange inputs, ArrayRef<AffineMap> maps,
              ArrayRef<utils::IteratorType> iterators,
              function_ref<Value(OpBuilder &, Location, ValueRange)> body,
              std::optional<double> init) {
  Value out = init ? filled(b, loc, resultType, *init)
                   : tensor::EmptyOp::create(b, loc, resultType.getShape(),
                                             resultType.getElementType())
                         .getResult();
  auto op = linalg::GenericOp::create(
      b, loc, resultType, inputs, out, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, args));
      });
  return op.getResult(0);
}

Value elementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                  ValueRange inputs,
                  function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  unsigned rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              identity(b.getContext(), rank));
  return generic(b, loc, resultType, inputs, maps, parallel(rank), body);
}

Value padTensor(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, double value) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> lo, hi;
  for (unsigned i = 0; i < shape.size(); ++i) {
    shape[i] += low[i] + high[i];
    lo.push_back(b.getIndexAttr(low[i]));
    hi.push_back(b.getIndexAttr(high[i]));
  }
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  Value padValue = floatConst(b, loc, type.getElementType(), value);
  return tensor::PadOp::create(b, loc, paddedType, x, lo, hi, padValue)
      .getResult();
}

Value padNHWC(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> pads,
              double value) {
  if (llvm::all_of(pads, [](int64_t p) { return p == 0; }))
    return x;
  return padTensor(b, loc, x, {0, pads[0], pads[2], 0},
                   {0, pads[1], pads[3], 0}, value);
}

AffineMap dropAxisMap(MLIRContext *ctx, unsigned rank, int64_t axis) {
  SmallVector<AffineExpr> kept;
  for (unsigned d = 0; d < rank; ++d)
    if (d != axis)
      kept.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, kept, ctx);
}

Value reduceAlong(
    OpBuilder &b, Location loc, Value x, int64_t axis, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  SmallVector<utils::IteratorType> iterators = parallel(rank);
  iterators[axis] = utils::IteratorType::reduction;
  return generic(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x,
      {identity(b.getContext(), rank), dropAxisMap(b.getContext(), rank, axis)},
      iterators,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        return combine(nb, l, a[1], a[0]);
      },
      init);
}

Value sumAll(OpBuilder &b, Location loc, Value x,
             function_ref<Value(OpBuilder &, Location, Value)> term) {
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  auto scalar = RankedTensorType::get({}, type.getElementType());
  AffineMap toScalar = AffineMap::get(rank, 0, {}, b.getContext());
  return generic(
      b, loc, scalar, x, {identity(b.getContext(), rank), toScalar},
      parallel(0, rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return arith::AddFOp::create(nb, nloc, args[1],
                                     term(nb, nloc, args[0]));
      },
      /*init=*/0.0);
}

} // namespace nnc::linalg_utils
