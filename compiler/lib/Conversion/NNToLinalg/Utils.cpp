//===- Utils.cpp - helpers shared by the nn to linalg patterns ------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "nn/IR/ShapeFunctions.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

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
  // Whole-tensor sums (losses, weight decay) run over up to millions of
  // terms: they accumulate in f64 and round once.
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  Type elt = type.getElementType(), wide = b.getF64Type();
  auto scalar = RankedTensorType::get({}, elt);
  AffineMap toScalar = AffineMap::get(rank, 0, {}, b.getContext());
  Value sum = generic(
      b, loc, RankedTensorType::get({}, wide), x,
      {identity(b.getContext(), rank), toScalar}, parallel(0, rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value t = term(nb, nloc, args[0]);
        if (t.getType() != wide)
          t = arith::ExtFOp::create(nb, nloc, wide, t);
        return arith::AddFOp::create(nb, nloc, args[1], t);
      },
      /*init=*/0.0);
  if (elt == wide)
    return sum;
  return elementwise(b, loc, scalar, sum,
                     [&](OpBuilder &nb, Location nloc, ValueRange args) {
                       return arith::TruncFOp::create(nb, nloc, elt, args[0]);
                     });
}

} // namespace nnc::linalg_utils

/// [top, bottom, left, right] padding of a windowed op on `input`.
SmallVector<int64_t, 4> nnc::linalg_utils::explicitPads(
    RankedTensorType input, ArrayRef<int64_t> window, ArrayRef<int64_t> strides,
    ArrayRef<int64_t> dilations, nn::Padding padding,
    std::optional<ArrayRef<int64_t>> pad) {
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

DenseIntElementsAttr nnc::linalg_utils::pairAttr(OpBuilder &b,
                                                 ArrayRef<int64_t> values) {
  return DenseIntElementsAttr::get(RankedTensorType::get({2}, b.getI64Type()),
                                   values);
}

/// Number of real (unpadded) positions of an axis in the window of output
/// index `o`: min(o*s - before + k, size) - max(o*s - before, 0).
Value nnc::linalg_utils::realCount(OpBuilder &b, Location loc, Value o,
                                   int64_t stride, int64_t before,
                                   int64_t window, int64_t size) {
  auto cst = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v).getResult();
  };
  Value start = arith::SubIOp::create(
      b, loc, arith::MulIOp::create(b, loc, o, cst(stride)), cst(before));
  Value end = arith::AddIOp::create(b, loc, start, cst(window));
  Value lo = arith::MaxSIOp::create(b, loc, start, cst(0));
  Value hi = arith::MinSIOp::create(b, loc, end, cst(size));
  return arith::SubIOp::create(b, loc, hi, lo);
}

Value nnc::linalg_utils::windowSlice(OpBuilder &b, Location loc, Value x,
                                     int64_t kh, int64_t kw,
                                     ArrayRef<int64_t> strides,
                                     ArrayRef<int64_t> outShape) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> offsets, sizes, steps;
  const int64_t off[4] = {0, kh, kw, 0},
                step[4] = {1, strides[0], strides[1], 1};
  for (int i = 0; i < 4; ++i) {
    offsets.push_back(b.getIndexAttr(off[i]));
    sizes.push_back(b.getIndexAttr(outShape[i]));
    steps.push_back(b.getIndexAttr(step[i]));
  }
  auto sliceType = RankedTensorType::get(outShape, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliceType, x, offsets, sizes,
                                        steps)
      .getResult();
}

Value nnc::linalg_utils::foldWindow(
    OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> window,
    ArrayRef<int64_t> strides, RankedTensorType outType,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  SmallVector<Value> slices;
  for (int64_t kh = 0; kh < window[0]; ++kh)
    for (int64_t kw = 0; kw < window[1]; ++kw)
      slices.push_back(
          windowSlice(b, loc, x, kh, kw, strides, outType.getShape()));
  return elementwise(b, loc, outType, slices,
                     [&](OpBuilder &nb, Location l, ValueRange a) {
                       Value acc = a[0];
                       for (size_t k = 1; k < slices.size(); ++k)
                         acc = combine(nb, l, acc, a[k]);
                       return acc;
                     });
}

Value nnc::linalg_utils::channelWindowSum(OpBuilder &b, Location loc, Value x,
                                          int64_t r) {
  // The sum of 2r+1 channel-shifted views of the zero-padded input: an
  // elementwise op, contiguous along the channels.
  auto type = cast<RankedTensorType>(x.getType());
  Value padded = padTensor(b, loc, x, {0, 0, 0, r}, {0, 0, 0, r}, 0.0);
  SmallVector<Value> shifted;
  for (int64_t k = 0; k <= 2 * r; ++k) {
    SmallVector<OpFoldResult> offsets(4, b.getIndexAttr(0)), sizes, steps;
    offsets[3] = b.getIndexAttr(k);
    for (int64_t d : type.getShape()) {
      sizes.push_back(b.getIndexAttr(d));
      steps.push_back(b.getIndexAttr(1));
    }
    shifted.push_back(tensor::ExtractSliceOp::create(b, loc, type, padded,
                                                     offsets, sizes, steps));
  }
  return elementwise(b, loc, type, shifted,
                     [&](OpBuilder &nb, Location l, ValueRange a) {
                       Value sum = a[0];
                       for (size_t k = 1; k < shifted.size(); ++k)
                         sum = arith::AddFOp::create(nb, l, sum, a[k]);
                       return sum;
                     });
}

Value nnc::linalg_utils::powConst(OpBuilder &b, Location loc, Value base,
                                  double exponent) {
  Type type = base.getType();
  double quarters = exponent * 4;
  if (quarters != std::round(quarters) || std::abs(exponent) > 4)
    return math::PowFOp::create(b, loc, base,
                                floatConst(b, loc, type, exponent));
  int64_t q = static_cast<int64_t>(std::abs(quarters));
  Value result = floatConst(b, loc, type, 1.0);
  auto times = [&](Value v) {
    result = arith::MulFOp::create(b, loc, result, v);
  };
  for (int64_t i = 0; i < q / 4; ++i)
    times(base);
  if (q % 4) {
    Value root = math::SqrtOp::create(b, loc, base); // base^1/2
    if (q % 4 >= 2)
      times(root);
    if (q % 2)
      times(math::SqrtOp::create(b, loc, root)); // base^1/4
  }
  if (exponent < 0)
    result =
        arith::DivFOp::create(b, loc, floatConst(b, loc, type, 1.0), result);
  return result;
}
