//===- ContractionCopies.cpp - copies of a contraction's operands ---------===//
//
// Part of nnc. The copies a planned contraction makes: B packed into
// nr-wide panels, a register tile's rows of A into a padded buffer of the
// thread's, and the sum of the K slices' copies of C into C.
//
//===----------------------------------------------------------------------===//

#include "ContractionEmitter.h"

using namespace mlir;
using namespace nnc::cpu;
using namespace nnc::cpu::emit;

/// Transposes the square block `rows` (row i, lane j) in place: row j,
/// lane i. Each of the log2(lanes) stages swaps the off-diagonal quarters
/// of every 2b x 2b sub-block with one two-source shuffle per row (a
/// single permute on AVX-512, one or two on AVX2).
static void transposeSquare(OpBuilder &b, Location loc,
                            MutableArrayRef<Value> rows) {
  int64_t lanes = rows.size();
  for (int64_t half = lanes / 2; half >= 1; half /= 2) {
    SmallVector<int64_t> low, high;
    for (int64_t j = 0; j < lanes; ++j) {
      bool upper = j & half;
      low.push_back(upper ? lanes + j - half : j);
      high.push_back(upper ? lanes + j : j + half);
    }
    for (int64_t i = 0; i < lanes; ++i) {
      if (i & half)
        continue;
      Value x = rows[i], y = rows[i + half];
      rows[i] = vector::ShuffleOp::create(b, loc, x, y, low);
      rows[i + half] = vector::ShuffleOp::create(b, loc, x, y, high);
    }
  }
}

/// Copies B into nr-wide panels: [N/nr][K][nr], K in the kernel's
/// order, zeros past N. Returns the buffer.
/// - B with unit stride along N: a vector of each panel row at a time.
/// - B with unit stride along the innermost K dimension (a dense layer's
///   W^T, dY * W^T): a vector's width of the panel's columns at a time (a
///   loop over them, not unrolled: a dense layer's panel is four), and
///   their K in square blocks of `lanes` k's, a vector along k from each
///   column transposed in registers into a vector of the panel row per k;
///   the K iterations that blocks leave over an element at a time.
/// - Any other B an element at a time.
Value Emitter::packB() {
  int64_t k = c.k(), panels = (c.n() + p.nr - 1) / p.nr, n = c.n();
  auto type = MemRefType::get({panels * p.nr * k}, f32);
  Value packed = memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
  bool unitN = c.b.coef[c.nDim] == 1;
  unsigned innerK = c.kDims.back();
  bool blocks = !unitN && c.b.coef[innerK] == 1 && c.sizes[innerK] >= p.lanes &&
                llvm::isPowerOf2_64(p.lanes);
  SmallVector<OpFoldResult> ubs = {b.getIndexAttr(panels)};
  scf::ForallOp::create(
      b, loc, ubs, ValueRange{}, std::nullopt,
      [&](OpBuilder &, Location, ValueRange ivs) {
        auto loop = [&](int64_t from, int64_t to, int64_t step) {
          auto forOp =
              scf::ForOp::create(b, loc, idx(from), idx(to), idx(step));
          b.setInsertionPointToStart(forOp.getBody());
          return forOp.getInductionVar();
        };
        Value n0 = mul(ivs[0], p.nr);
        Value width = arith::SubIOp::create(b, loc, idx(n), n0);
        Value panel = mul(ivs[0], p.nr * k);
        Value zero =
            arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0.0f));
        // Column `col`'s offset in B, clamped to the last column.
        auto colOffset = [&](Value col) {
          return colAddress(c.b, minI(col, idx(n - 1)));
        };
        // With blocks, the columns from n0 + `first`, a vector's width of
        // them each iteration of a loop over the panel: their offsets and,
        // where the panel may run past N, whether they are in B.
        Value first = idx(0);
        SmallVector<Value> blockOffsets, blockInB;
        if (blocks) {
          first = mul(loop(0, p.nr / p.lanes, 1), p.lanes);
          for (int64_t l = 0; l < p.lanes; ++l) {
            Value col = add(add(n0, first), idx(l));
            blockOffsets.push_back(colOffset(col));
            blockInB.push_back(n % p.nr ? lt(col, idx(n)) : Value());
          }
        }
        // The panel row of the K iteration at B offset `src`, linear
        // index `kLin`, an element at a time (with blocks, the row's
        // columns from `first`).
        auto elements = [&](Value src, Value kLin) {
          Value dst = add(panel, mul(kLin, p.nr));
          if (unitN) {
            for (int64_t v = 0; v < p.nr / p.lanes; ++v) {
              Value from = add(add(src, colAddress(c.b, n0)), idx(v * p.lanes));
              Value value = n % p.nr == 0
                                ? loadVec(bFlat, from, Value())
                                : loadVec(bFlat, from, mask(width, v));
              storeVec(value, packed, add(dst, idx(v * p.lanes)), Value());
            }
            return;
          }
          if (blocks)
            dst = add(dst, first);
          for (int64_t l = 0; l < (blocks ? p.lanes : p.nr); ++l) {
            Value col = blocks ? Value() : add(n0, idx(l));
            Value value = memref::LoadOp::create(
                b, loc, bFlat,
                add(src, blocks ? blockOffsets[l] : colOffset(col)));
            Value inB = blocks ? blockInB[l] : lt(col, idx(n));
            if (inB)
              value = arith::SelectOp::create(b, loc, inB, value, zero);
            memref::StoreOp::create(b, loc, value, packed, add(dst, idx(l)));
          }
        };
        // The rows of the panel's columns from `first` for `lanes` K
        // iterations from B offset `src`, linear index `kLin`: one square
        // block.
        auto block = [&](Value src, Value kLin) {
          Value dst = add(add(panel, mul(kLin, p.nr)), first);
          Value zero = zeros();
          SmallVector<Value> rows;
          for (int64_t l = 0; l < p.lanes; ++l) {
            Value row = loadVec(bFlat, add(src, blockOffsets[l]), Value());
            if (blockInB[l])
              row = arith::SelectOp::create(b, loc, blockInB[l], row, zero);
            rows.push_back(row);
          }
          transposeSquare(b, loc, rows);
          for (int64_t j = 0; j < p.lanes; ++j)
            storeVec(rows[j], packed, add(dst, idx(j * p.nr)), Value());
        };
        std::function<void(unsigned, Value, Value)> nest =
            [&](unsigned level, Value src, Value kLin) {
              if (level == c.kDims.size())
                return elements(src, kLin);
              OpBuilder::InsertionGuard guard(b);
              unsigned d = c.kDims[level];
              int64_t size = c.sizes[d];
              Value outer = mul(kLin, size);
              if (!blocks || level + 1 < c.kDims.size()) {
                Value i = loop(0, size, 1);
                return nest(level + 1, add(src, mul(i, c.b.coef[d])),
                            add(outer, i));
              }
              int64_t whole = size / p.lanes * p.lanes;
              {
                OpBuilder::InsertionGuard inner(b);
                Value i = loop(0, whole, p.lanes);
                block(add(src, i), add(outer, i));
              }
              if (whole < size) {
                Value i = loop(whole, size, 1);
                elements(add(src, i), add(outer, i));
              }
            };
        nest(0, idx(c.b.offset), idx(0));
        // The forall's terminator, after the loop over vectors.
        b.setInsertionPointToEnd(ivs[0].getParentBlock());
        scf::InParallelOp::create(b, loc);
      });
  // The kernel's view: K dimension d steps nr times the K iterations
  // inside it.
  bAccess.buffer = packed;
  bAccess.offset = 0;
  bAccess.coef.assign(c.sizes.size(), 0);
  int64_t inner = p.nr;
  for (unsigned i = c.kDims.size(); i-- > 0;) {
    bAccess.coef[c.kDims[i]] = inner;
    inner *= c.sizes[c.kDims[i]];
  }
  bPanelScale = k;
  return packed;
}

/// Copies the tile's rows from ir of A's K block at `aK` into `aTile`.
void Emitter::packA(Value ir, Value aK) {
  auto loop = [&](int64_t trip, int64_t step) {
    auto forOp = scf::ForOp::create(b, loc, idx(0), idx(trip), idx(step));
    b.setInsertionPointToStart(forOp.getBody());
    return forOp.getInductionVar();
  };
  OpBuilder::InsertionGuard guard(b);
  // Row by row, a vector of each row's K at a time; or, k-major, the
  // tile's rows (consecutive in A) as one vector per k, stored whole (the
  // next k's overwrites what lies past the rows).
  bool panel = p.packA == GemmPlan::PackA::Panel;
  if (panel && c.a.coef[c.kDims.back()] == 1)
    return packAPanelFromRows(ir, aK);
  Value src, dst;
  if (panel) {
    src = add(rowAddress(c.a, ir), aK);
    dst = aTileStart();
  } else {
    Value r = loop(p.mr, 1);
    Value row = add(ir, r);
    if (c.m() % p.mr != 0)
      row = minI(row, idx(c.m() - 1));
    src = add(rowAddress(c.a, row), aK);
    dst = arith::MulIOp::create(b, loc, r, idx(aRowStride));
  }
  for (unsigned level = p.numBlockDims; level < c.kDims.size(); ++level) {
    unsigned d = c.kDims[level];
    bool byVector = !panel && level + 1 == c.kDims.size();
    Value i = loop(innerTrip(c, p, level), byVector ? p.lanes : 1);
    src = add(src, mul(i, c.a.coef[d]));
    dst = add(dst, mul(i, aCoef[d]));
  }
  Value rows = panel && p.mr != p.lanes ? mask(idx(p.mr), 0) : Value();
  storeVec(loadVec(aFlat, src, rows), aTile, dst, Value());
}

/// The tile's rows, unit-stride along the innermost K dimension, copied
/// k-major: `lanes` k's at a time, a vector of each row (zeros past the
/// tile's rows) transposed in registers into a vector of the rows per k,
/// stored whole in ascending k (the next k's store overwrites what lies
/// past the rows).
void Emitter::packAPanelFromRows(Value ir, Value aK) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Value> rowAt;
  for (int64_t r = 0; r < p.mr; ++r) {
    Value row = add(ir, idx(r));
    if (c.m() % p.mr != 0)
      row = minI(row, idx(c.m() - 1));
    rowAt.push_back(add(rowAddress(c.a, row), aK));
  }
  Value src = idx(0), dst = aTileStart();
  for (unsigned level = p.numBlockDims; level < c.kDims.size(); ++level) {
    unsigned d = c.kDims[level];
    bool innermost = level + 1 == c.kDims.size();
    auto forOp = scf::ForOp::create(b, loc, idx(0), idx(innerTrip(c, p, level)),
                                    idx(innermost ? p.lanes : 1));
    b.setInsertionPointToStart(forOp.getBody());
    Value i = forOp.getInductionVar();
    src = add(src, mul(i, c.a.coef[d]));
    dst = add(dst, mul(i, aCoef[d]));
  }
  SmallVector<Value> block;
  for (int64_t r = 0; r < p.lanes; ++r)
    block.push_back(r < p.mr ? loadVec(aFlat, add(rowAt[r], src), Value())
                             : zeros());
  transposeSquare(b, loc, block);
  for (int64_t j = 0; j < p.lanes; ++j)
    storeVec(block[j], aTile, add(dst, idx(j * p.mr)), Value());
}

//===----------------------------------------------------------------------===//
// K slices
//===----------------------------------------------------------------------===//

/// Slice `s` of `partial`: a dense copy of C.
Value Emitter::sliceView(Value partial, Value s) {
  // Of a dynamic size: the kernel addresses its elements itself, and
  // kernels whose slices differ in size alone merge.
  int64_t size = c.m() * c.n();
  auto type = MemRefType::get(
      {ShapedType::kDynamic}, f32,
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
  return memref::ReinterpretCastOp::create(
      b, loc, type, partial, OpFoldResult(mul(s, size)),
      ArrayRef<OpFoldResult>{idx(size)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// C (+)= the slices' sums, through the epilogue: a vector of columns at
/// a time, rows spread over the threads.
void Emitter::addSlices(Value partial) {
  int64_t m = c.m(), n = c.n(), size = m * n;
  SmallVector<OpFoldResult> ubs = {b.getIndexAttr(m)};
  scf::ForallOp::create(
      b, loc, ubs, ValueRange{}, std::nullopt,
      [&](OpBuilder &, Location, ValueRange ivs) {
        Value row = ivs[0];
        auto loop = scf::ForOp::create(b, loc, idx(0), idx(n), idx(p.lanes));
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          Value col = loop.getInductionVar();
          Value laneMask;
          if (n % p.lanes)
            laneMask = mask(arith::SubIOp::create(b, loc, idx(n), col), 0);
          Value at = add(mul(row, n), col);
          Value sum = loadVec(partial, at, laneMask);
          for (int64_t s = 1; s < p.kSplit; ++s)
            sum = arith::AddFOp::create(
                b, loc, sum,
                loadVec(partial, add(at, idx(s * size)), laneMask));
          Value cAddr = address(c.c, row, col);
          Value value = combine(Phase::Only, sum, cAddr, laneMask);
          store(Phase::Only, value, row, col, cAddr, laneMask);
        }
        scf::InParallelOp::create(b, loc);
      });
}
