//===- Utils.cpp - builders shared by the nn to linalg patterns -----------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

using namespace mlir;
using namespace nnc::conversion;

namespace nnc::linalg_utils {

Value mul(OpBuilder &b, Location l, Value x, Value y) {
  return arith::MulFOp::create(b, l, x, y);
}
Value sub(OpBuilder &b, Location l, Value x, Value y) {
  return arith::SubFOp::create(b, l, x, y);
}
Value add(OpBuilder &b, Location l, Value x, Value y) {
  return arith::AddFOp::create(b, l, x, y);
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
              ArrayRef<utils::IteratorType> iterators, Body body,
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
                  ValueRange inputs, Body body) {
  unsigned rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              identity(b.getContext(), rank));
  return generic(b, loc, resultType, inputs, maps, parallel(rank), body);
}

Value foldInputs(
    OpBuilder &b, Location loc, RankedTensorType type, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  return elementwise(b, loc, type, inputs,
                     [&](OpBuilder &nb, Location l, ValueRange a) {
                       Value acc = a[0];
                       for (size_t k = 1; k < inputs.size(); ++k)
                         acc = combine(nb, l, acc, a[k]);
                       return acc;
                     });
}

Value pointwise(OpBuilder &b, Location loc, RankedTensorType type,
                ValueRange inputs, Body body) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = type.getRank();
  SmallVector<AffineMap> maps;
  for (Value v : inputs)
    maps.push_back(cast<ShapedType>(v.getType()).getRank() == 0
                       ? AffineMap::get(rank, 0, {}, ctx)
                       : identity(ctx, rank));
  maps.push_back(identity(ctx, rank));
  return generic(b, loc, type, inputs, maps, parallel(rank), body);
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

/// The maps of a per-channel sum over tensors of `rank`: loop 0 is the
/// channel (the last axis), loops 1.. the other axes in order.
static AffineMap channelLoopsToTensor(MLIRContext *ctx, unsigned rank) {
  SmallVector<AffineExpr> dims;
  for (unsigned i = 1; i < rank; ++i)
    dims.push_back(getAffineDimExpr(i, ctx));
  dims.push_back(getAffineDimExpr(0, ctx));
  return AffineMap::get(rank, 0, dims, ctx);
}

/// A reduction over `inputs` with one zero-filled output of `type` per
/// term, all indexed by `outMap`: output i accumulates terms[i] of the
/// inputs.
static SmallVector<Value> sums(OpBuilder &b, Location loc,
                               RankedTensorType type, ValueRange inputs,
                               ArrayRef<AffineMap> inputMaps, AffineMap outMap,
                               ArrayRef<utils::IteratorType> iterators,
                               ArrayRef<Body> terms) {
  SmallVector<Value> outs;
  SmallVector<AffineMap> maps(inputMaps);
  for (size_t i = 0; i < terms.size(); ++i) {
    outs.push_back(filled(b, loc, type, 0.0));
    maps.push_back(outMap);
  }
  auto op = linalg::GenericOp::create(
      b, loc, TypeRange(outs), inputs, outs, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        ValueRange in = args.take_front(inputs.size());
        SmallVector<Value> results;
        for (auto [term, acc] :
             llvm::zip_equal(terms, args.drop_front(inputs.size())))
          results.push_back(add(nb, l, acc, term(nb, l, in)));
        linalg::YieldOp::create(nb, l, results);
      });
  return op.getResults();
}

SmallVector<Value> channelSumsInOneNest(OpBuilder &b, Location loc,
                                        ValueRange tensors, ValueRange vectors,
                                        ArrayRef<Body> terms) {
  auto type = cast<RankedTensorType>(tensors[0].getType());
  unsigned rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(0, ctx), ctx);
  SmallVector<Value> inputs(tensors);
  inputs.append(vectors.begin(), vectors.end());
  SmallVector<AffineMap> indexing(tensors.size(),
                                  channelLoopsToTensor(ctx, rank));
  indexing.append(vectors.size(), channel);
  auto result =
      RankedTensorType::get({type.getShape().back()}, type.getElementType());
  return sums(b, loc, result, inputs, indexing, channel, parallel(1, rank - 1),
              terms);
}

SmallVector<Value> rowSums(OpBuilder &b, Location loc, ValueRange tensors,
                           ValueRange rowTensors, ValueRange vectors,
                           ArrayRef<Body> terms) {
  auto type = cast<RankedTensorType>(tensors[0].getType());
  unsigned rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  unsigned row = rank - 2;
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + row);
  AffineMap perRow = dropAxisMap(ctx, rank, row);
  SmallVector<Value> inputs(tensors);
  inputs.append(rowTensors.begin(), rowTensors.end());
  inputs.append(vectors.begin(), vectors.end());
  SmallVector<AffineMap> indexing(tensors.size(), identity(ctx, rank));
  indexing.append(rowTensors.size(), perRow);
  indexing.append(
      vectors.size(),
      AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx), ctx));
  SmallVector<utils::IteratorType> iterators = parallel(rank);
  iterators[row] = utils::IteratorType::reduction;
  return sums(b, loc, RankedTensorType::get(shape, type.getElementType()),
              inputs, indexing, perRow, iterators, terms);
}

SmallVector<Value> channelSums(OpBuilder &b, Location loc, ValueRange tensors,
                               ValueRange vectors, ArrayRef<Body> terms) {
  auto type = cast<RankedTensorType>(tensors[0].getType());
  if (type.getRank() < 3)
    return channelSumsInOneNest(b, loc, tensors, vectors, terms);
  // Rows first: partial sums along the axis before the channel (a row of
  // an image), then the sum of the partials. Each float32 sum then runs
  // over a row or over the rows, not over every element: a batch
  // normalisation of 2 x 112 x 112 values adds 112 and 224 terms instead
  // of 25088 in one accumulator, and its rounding error shrinks with them.
  SmallVector<Value> partials = rowSums(b, loc, tensors, {}, vectors, terms);
  auto whole = [](OpBuilder &, Location, ValueRange a) { return a[0]; };
  SmallVector<Value> results;
  for (Value partial : partials)
    results.push_back(
        channelSumsInOneNest(b, loc, partial, {}, Body(whole)).front());
  return results;
}

Value channelSum(OpBuilder &b, Location loc, ValueRange tensors,
                 ValueRange vectors, Body term) {
  return channelSums(b, loc, tensors, vectors, term).front();
}

} // namespace nnc::linalg_utils
