//===- ContractionEmit.cpp - tiled loops and micro-kernels ----------------===//
//
// Part of nnc. Emits a planned contraction:
//
//   scf.forall (ib, jb)                      C blocks, spread over threads
//                                            ((jb, ib): columns outer)
//     scf.for K blocks                       (the plan's block loops)
//       scf.for jr                           nr-wide panels of the block
//         scf.for ir                         mr-row tiles of the block
//           micro-kernel over the block's K  accumulators in registers
//           C = acc | C += acc | D = f(C + acc, ...)   first/middle/last
//
// Every operand is read through a flat view of its buffer with the
// addresses the analysis derived, so the same code serves matrix products,
// convolutions and filter gradients. Tiles that stick out of C clamp their
// rows (and columns) to the last valid one and guard their stores; the last
// panel of an N that nr does not divide computes only the vectors that hold
// columns, and loads and stores under a mask where they are partly outside.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace nnc::cpu;

namespace {
/// Which stores a K block makes.
enum class Phase { First, Middle, Last, Only };

struct Emitter {
  OpBuilder &b;
  Location loc;
  const Contraction &c;
  const GemmPlan &p;
  const Epilogue *epi;
  Type f32;
  VectorType vec;
  Value aFlat, bFlat, cFlat, dFlat;
  SmallVector<Value> epiFlat; // per epilogue input (null for C)
  /// How the kernel reads B: the operand itself, or its packed copy, where
  /// column jr's panel starts at jr * bPanelScale.
  LinearAccess bAccess;
  int64_t bPanelScale = 1;
  /// How the micro-kernel steps through A along each K dimension: A's own
  /// strides, or, with plan.packA, those of the tile's copy `aTile` (rows
  /// `aRowStride` apart), set while its tiles are emitted.
  SmallVector<int64_t> aCoef;
  Value aTile;
  int64_t aRowStride = 0;
  /// The K slice this code sums (plan.kSplit > 1), else null.
  Value slice;

  Emitter(OpBuilder &b, const Contraction &c, const GemmPlan &p,
          const Epilogue *epi)
      : b(b), loc(c.op->getLoc()), c(c), p(p), epi(epi), f32(b.getF32Type()),
        vec(VectorType::get({p.lanes}, b.getF32Type())), bAccess(c.b),
        aCoef(c.a.coef) {
    if (!p.packA)
      return;
    // The copy holds the micro-kernel's K iterations in its order, padded
    // by a cache line so that consecutive rows fall in different sets.
    int64_t inner = 1;
    for (unsigned level = c.kDims.size(); level-- > p.numBlockDims;) {
      aCoef[c.kDims[level]] = inner;
      inner *= innerTrip(c, p, level);
    }
    aRowStride = inner + 16;
  }

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t k) {
    if (k == 1)
      return x;
    return arith::MulIOp::create(b, loc, x, idx(k));
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }

  /// A 1-D view of the buffer's base, addresses in elements.
  Value flatView(const LinearAccess &access) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, access.buffer);
    auto type = MemRefType::get({access.span}, f32);
    return memref::ReinterpretCastOp::create(b, loc, type, meta.getBaseBuffer(),
                                             0, ArrayRef<int64_t>{access.span},
                                             ArrayRef<int64_t>{1});
  }

  /// `address` plus the contribution of `dims` (outer to inner) at their
  /// flattened index `flat`.
  Value addressOf(const LinearAccess &access, ArrayRef<unsigned> dims,
                  Value flat, Value address) {
    Value rest = flat;
    for (unsigned i = dims.size(); i-- > 0;) {
      unsigned d = dims[i];
      Value index = rest;
      if (i > 0) {
        Value size = idx(c.sizes[d]);
        index = arith::RemUIOp::create(b, loc, rest, size);
        rest = arith::DivUIOp::create(b, loc, rest, size);
      }
      if (access.coef[d])
        address = add(address, mul(index, access.coef[d]));
    }
    return address;
  }

  /// offset + the contribution of the M dimensions at flattened row `m`.
  Value rowAddress(const LinearAccess &access, Value m) {
    return addressOf(access, c.mDims, m, idx(access.offset));
  }

  /// The contribution of the N dimensions at flattened column `n`.
  Value colAddress(const LinearAccess &access, Value n) {
    return addressOf(access, c.nDims, n, idx(0));
  }

  Value mask(Value width, int64_t v) {
    // Lanes [0, width - v*lanes) of vector v.
    Value n = arith::SubIOp::create(b, loc, width, idx(v * p.lanes));
    n = arith::MaxSIOp::create(b, loc, n, idx(0));
    return vector::CreateMaskOp::create(
        b, loc, VectorType::get({p.lanes}, b.getI1Type()), ValueRange{n});
  }

  Value loadVec(Value flat, Value address, Value laneMask) {
    if (!laneMask)
      return vector::LoadOp::create(b, loc, vec, flat, address);
    Value zero = arith::ConstantOp::create(b, loc, vec,
                                           DenseElementsAttr::get(vec, 0.0f));
    return vector::MaskedLoadOp::create(b, loc, vec, flat, address, laneMask,
                                        zero);
  }
  void storeVec(Value value, Value flat, Value address, Value laneMask) {
    if (!laneMask)
      vector::StoreOp::create(b, loc, value, flat, address);
    else
      vector::MaskedStoreOp::create(b, loc, flat, address, laneMask, value);
  }

  //===--------------------------------------------------------------------===//
  // The micro-kernel's K loops
  //===--------------------------------------------------------------------===//

  /// One k step, with A and B offsets (of the K dimensions) `aK`, `bK`.
  using Step = function_ref<SmallVector<Value>(Value aK, Value bK,
                                               ArrayRef<Value> accs)>;

  /// Loops over the micro-kernel's K dimensions (kDims[numBlockDims...]),
  /// from `level`, carrying the accumulators.
  SmallVector<Value> innerLoops(unsigned level, Value aK, Value bK,
                                SmallVector<Value> accs, Step step) {
    unsigned d = c.kDims[level];
    bool innermost = level + 1 == c.kDims.size();
    int64_t trip = innerTrip(c, p, level);
    int64_t ca = aCoef[d], cb = bAccess.coef[d];
    if (!innermost) {
      auto loop = scf::ForOp::create(b, loc, idx(0), idx(trip), idx(1), accs);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value i = loop.getInductionVar();
      SmallVector<Value> inner(loop.getRegionIterArgs());
      inner = innerLoops(level + 1, add(aK, mul(i, ca)), add(bK, mul(i, cb)),
                         inner, step);
      scf::YieldOp::create(b, loc, inner);
      return SmallVector<Value>(loop.getResults());
    }
    // The innermost loop, unrolled; the dot kernel steps a vector at a time.
    int64_t stride = p.kind == GemmPlan::Kind::Dot ? p.lanes : 1;
    int64_t unroll = p.unroll;
    auto body = [&](Value i, SmallVector<Value> values) {
      for (int64_t u = 0; u < unroll; ++u) {
        Value k = add(i, idx(u * stride));
        values = step(add(aK, mul(k, ca)), add(bK, mul(k, cb)), values);
      }
      return values;
    };
    if (unroll * stride == trip)
      return body(idx(0), accs);
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(trip),
                                   idx(unroll * stride), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next = body(
        loop.getInductionVar(), SmallVector<Value>(loop.getRegionIterArgs()));
    scf::YieldOp::create(b, loc, next);
    return SmallVector<Value>(loop.getResults());
  }

  //===--------------------------------------------------------------------===//
  // Stores
  //===--------------------------------------------------------------------===//

  /// The value of C at the end of this K block: acc, or acc plus the
  /// partial sums stored by earlier blocks (or C's initial value).
  Value combine(Phase phase, Value acc, Value cAddr, Value laneMask) {
    bool fresh = (phase == Phase::First || phase == Phase::Only) && c.zeroInit;
    if (fresh)
      return acc;
    Value old = acc.getType() == f32
                    ? memref::LoadOp::create(b, loc, cFlat, cAddr).getResult()
                    : loadVec(cFlat, cAddr, laneMask);
    return arith::AddFOp::create(b, loc, acc, old);
  }

  /// Stores `value` (C's value at row `row`, columns from `col`) to C, or
  /// its epilogue to D when this is the last block.
  void store(Phase phase, Value value, Value row, Value col, Value cAddr,
             Value laneMask) {
    bool vector = value.getType() != f32;
    bool last = phase == Phase::Last || phase == Phase::Only;
    if (!last || !epi) {
      if (vector)
        storeVec(value, cFlat, cAddr, laneMask);
      else
        memref::StoreOp::create(b, loc, value, cFlat, cAddr);
      return;
    }
    unsigned numInputs = epi->inputs.size();
    Block &body = epi->op.getRegion().front();
    SmallVector<Value> operands(numInputs + 1);
    auto read = [&](const LinearAccess &access, Value flat) -> Value {
      Value address = add(rowAddress(access, row), colAddress(access, col));
      if (!vector || access.coef[c.nDim] == 0) {
        Value s = memref::LoadOp::create(b, loc, flat, address);
        return vector ? vector::BroadcastOp::create(b, loc, vec, s).getResult()
                      : s;
      }
      return loadVec(flat, address, laneMask);
    };
    for (unsigned i = 0; i < numInputs; ++i)
      operands[i] = i == epi->cInput ? value : read(epi->inputs[i], epiFlat[i]);
    if (!body.getArgument(numInputs).use_empty())
      operands[numInputs] = read(epi->dest, dFlat);
    Value result = emitEpilogueBody(b, loc, *epi, operands);
    Value dAddr = add(rowAddress(epi->dest, row), colAddress(epi->dest, col));
    if (vector)
      storeVec(result, dFlat, dAddr, laneMask);
    else
      memref::StoreOp::create(b, loc, result, dFlat, dAddr);
  }

  /// Emits `fn(phase)` once per phase the K block `blockIndex` may be in.
  void byPhase(Value blockIndex, int64_t numBlocks,
               function_ref<void(Phase)> fn) {
    if (numBlocks == 1)
      return fn(Phase::Only);
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        blockIndex, idx(0));
    Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       blockIndex, idx(numBlocks - 1));
    bool middleIsFirst = !c.zeroInit; // both add to what C holds
    auto ifLast = [&] {
      scf::IfOp::create(
          b, loc, last,
          [&](OpBuilder &, Location) {
            fn(Phase::Last);
            scf::YieldOp::create(b, loc);
          },
          [&](OpBuilder &, Location) {
            fn(Phase::Middle);
            scf::YieldOp::create(b, loc);
          });
    };
    if (middleIsFirst && !epi)
      return fn(Phase::Middle);
    if (middleIsFirst)
      return ifLast();
    scf::IfOp::create(
        b, loc, first,
        [&](OpBuilder &, Location) {
          fn(Phase::First);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &, Location) {
          ifLast();
          scf::YieldOp::create(b, loc);
        });
  }

  //===--------------------------------------------------------------------===//
  // Register tiles
  //===--------------------------------------------------------------------===//

  /// Rows ir .. ir+mr, clamped to C.
  SmallVector<Value> tileRows(Value ir) {
    SmallVector<Value> rows;
    Value lastRow = idx(c.m() - 1);
    bool exact = c.m() % p.mr == 0;
    for (int64_t r = 0; r < p.mr; ++r) {
      Value row = add(ir, idx(r));
      rows.push_back(exact ? row : minI(row, lastRow));
    }
    return rows;
  }

  /// Guards a store to row ir + r when the tile may stick out of the block.
  void guardedRow(Value ir, int64_t r, Value mEnd, function_ref<void()> fn) {
    if (c.m() % p.mr == 0 && p.mc % p.mr == 0)
      return fn();
    Value inside = lt(add(ir, idx(r)), mEnd);
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
      fn();
      scf::YieldOp::create(b, loc);
    });
  }

  void outerProductTile(Value ir, Value jr, Value width, Value mEnd, Value aK,
                        Value bK, Value blockIndex, int64_t numBlocks) {
    // The last panel of an N that nr does not divide (`width` columns
    // from jr) computes only the vectors that hold columns, masked when
    // they hold some: N = 80 is panels of 32, 32 and 16.
    int64_t rest = c.n() % p.nr;
    int64_t nv = width ? (rest + p.lanes - 1) / p.lanes : p.nr / p.lanes;
    SmallVector<Value> rows = tileRows(ir);
    SmallVector<Value> aRows;
    Value aSource = aTile ? aTile : aFlat;
    for (int64_t r = 0; r < p.mr; ++r)
      aRows.push_back(aTile ? idx(r * aRowStride)
                            : add(rowAddress(c.a, rows[r]), aK));
    SmallVector<Value> masks(nv);
    if (width && rest % p.lanes != 0)
      for (int64_t v = 0; v < nv; ++v)
        masks[v] = mask(width, v);
    Value zero = arith::ConstantOp::create(b, loc, vec,
                                           DenseElementsAttr::get(vec, 0.0f));
    SmallVector<Value> accs(p.mr * nv, zero);
    Value bCol = add(add(idx(bAccess.offset), bK),
                     p.packB ? mul(jr, bPanelScale) : colAddress(c.b, jr));
    auto step = [&](Value ak, Value bk, ArrayRef<Value> in) {
      SmallVector<Value> out(in);
      SmallVector<Value> bv;
      // A packed panel is padded with zeros: no mask needed to read it.
      for (int64_t v = 0; v < nv; ++v)
        bv.push_back(loadVec(bFlat, add(add(bCol, bk), idx(v * p.lanes)),
                             p.packB ? Value() : masks[v]));
      for (int64_t r = 0; r < p.mr; ++r) {
        Value a = memref::LoadOp::create(b, loc, aSource, add(aRows[r], ak));
        Value splat = vector::BroadcastOp::create(b, loc, vec, a);
        for (int64_t v = 0; v < nv; ++v)
          out[r * nv + v] =
              vector::FMAOp::create(b, loc, vec, splat, bv[v], out[r * nv + v]);
      }
      return out;
    };
    accs = innerLoops(p.numBlockDims, idx(0), idx(0), accs, step);
    byPhase(blockIndex, numBlocks, [&](Phase phase) {
      for (int64_t r = 0; r < p.mr; ++r)
        guardedRow(ir, r, mEnd, [&] {
          Value cRow = add(rowAddress(c.c, rows[r]), colAddress(c.c, jr));
          for (int64_t v = 0; v < nv; ++v) {
            Value col = add(jr, idx(v * p.lanes));
            Value cAddr = add(cRow, idx(v * p.lanes));
            Value value = combine(phase, accs[r * nv + v], cAddr, masks[v]);
            store(phase, value, rows[r], col, cAddr, masks[v]);
          }
        });
    });
  }

  void dotTile(Value ir, Value jr, Value mEnd, Value nEnd, Value aK, Value bK,
               Value blockIndex, int64_t numBlocks) {
    SmallVector<Value> rows = tileRows(ir);
    SmallVector<Value> cols;
    bool exactN = c.n() % p.nr == 0;
    for (int64_t j = 0; j < p.nr; ++j) {
      Value col = add(jr, idx(j));
      cols.push_back(exactN ? col : minI(col, idx(c.n() - 1)));
    }
    SmallVector<Value> aRows, bCols;
    for (Value row : rows)
      aRows.push_back(add(rowAddress(c.a, row), aK));
    for (Value col : cols)
      bCols.push_back(add(add(idx(c.b.offset), bK), colAddress(c.b, col)));
    Value zero = arith::ConstantOp::create(b, loc, vec,
                                           DenseElementsAttr::get(vec, 0.0f));
    SmallVector<Value> accs(p.mr * p.nr, zero);
    auto step = [&](Value ak, Value bk, ArrayRef<Value> in) {
      SmallVector<Value> out(in), av, bv;
      for (Value row : aRows)
        av.push_back(loadVec(aFlat, add(row, ak), Value()));
      for (Value col : bCols)
        bv.push_back(loadVec(bFlat, add(col, bk), Value()));
      for (int64_t r = 0; r < p.mr; ++r)
        for (int64_t j = 0; j < p.nr; ++j)
          out[r * p.nr + j] = vector::FMAOp::create(b, loc, vec, av[r], bv[j],
                                                    out[r * p.nr + j]);
      return out;
    };
    accs = innerLoops(p.numBlockDims, idx(0), idx(0), accs, step);
    SmallVector<Value> sums;
    for (Value acc : accs)
      sums.push_back(
          vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, acc));
    byPhase(blockIndex, numBlocks, [&](Phase phase) {
      for (int64_t r = 0; r < p.mr; ++r)
        guardedRow(ir, r, mEnd, [&] {
          Value cRow = rowAddress(c.c, rows[r]);
          for (int64_t j = 0; j < p.nr; ++j) {
            auto emit = [&] {
              Value cAddr = add(cRow, colAddress(c.c, cols[j]));
              Value value = combine(phase, sums[r * p.nr + j], cAddr, Value());
              store(phase, value, rows[r], cols[j], cAddr, Value());
            };
            if (exactN && p.nc % p.nr == 0) {
              emit();
              continue;
            }
            scf::IfOp::create(b, loc, lt(add(jr, idx(j)), nEnd),
                              [&](OpBuilder &, Location) {
                                emit();
                                scf::YieldOp::create(b, loc);
                              });
          }
        });
    });
  }

  //===--------------------------------------------------------------------===//
  // Blocks
  //===--------------------------------------------------------------------===//

  /// The block loops' trip counts: block dims, then the chunk loop.
  SmallVector<std::pair<unsigned, int64_t>> blockLoops() {
    SmallVector<std::pair<unsigned, int64_t>> loops;
    for (unsigned i = 0; i < p.numBlockDims; ++i)
      loops.push_back({c.kDims[i], c.sizes[c.kDims[i]]});
    if (p.chunk) {
      unsigned d = c.kDims[p.numBlockDims];
      loops.push_back({d, c.sizes[d] / p.chunk});
    }
    // A slice runs its share of the outermost loop.
    if (p.kSplit > 1)
      loops.front().second /= p.kSplit;
    return loops;
  }

  /// Loops over K blocks; `fn(aK, bK, blockIndex)` emits one block.
  void forEachBlock(function_ref<void(Value, Value, Value)> fn) {
    auto loops = blockLoops();
    std::function<void(unsigned, Value, Value, Value)> nest =
        [&](unsigned level, Value aK, Value bK, Value index) {
          if (level == loops.size())
            return fn(aK, bK, index);
          auto [d, trip] = loops[level];
          int64_t scale = p.chunk && level + 1 == loops.size() ? p.chunk : 1;
          auto loop = scf::ForOp::create(b, loc, idx(0), idx(trip), idx(1));
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          Value i = loop.getInductionVar();
          Value at = level == 0 && slice ? add(i, mul(slice, trip)) : i;
          nest(level + 1, add(aK, mul(at, c.a.coef[d] * scale)),
               add(bK, mul(at, bAccess.coef[d] * scale)),
               add(mul(index, trip), i));
        };
    nest(0, idx(0), idx(0), idx(0));
  }

  int64_t numBlocks() {
    int64_t n = 1;
    for (auto [d, trip] : blockLoops())
      n *= trip;
    return n;
  }

  /// Copies B into nr-wide panels: [N/nr][K][nr], K in the kernel's
  /// order, zeros past N. Returns the buffer.
  Value packB() {
    int64_t k = c.k(), panels = (c.n() + p.nr - 1) / p.nr, n = c.n();
    auto type = MemRefType::get({panels * p.nr * k}, f32);
    Value packed =
        memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
    bool unitN = c.b.coef[c.nDim] == 1;
    SmallVector<OpFoldResult> ubs = {b.getIndexAttr(panels)};
    scf::ForallOp::create(
        b, loc, ubs, ValueRange{}, std::nullopt,
        [&](OpBuilder &, Location, ValueRange ivs) {
          Value n0 = mul(ivs[0], p.nr);
          Value width = arith::SubIOp::create(b, loc, idx(n), n0);
          Value panel = mul(ivs[0], p.nr * k);
          std::function<void(unsigned, Value, Value)> nest = [&](unsigned level,
                                                                 Value src,
                                                                 Value kLin) {
            if (level < c.kDims.size()) {
              unsigned d = c.kDims[level];
              auto loop =
                  scf::ForOp::create(b, loc, idx(0), idx(c.sizes[d]), idx(1));
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(loop.getBody());
              Value i = loop.getInductionVar();
              return nest(level + 1, add(src, mul(i, c.b.coef[d])),
                          add(mul(kLin, c.sizes[d]), i));
            }
            Value dst = add(panel, mul(kLin, p.nr));
            if (unitN) {
              for (int64_t v = 0; v < p.nr / p.lanes; ++v) {
                Value from =
                    add(add(src, colAddress(c.b, n0)), idx(v * p.lanes));
                Value value = n % p.nr == 0
                                  ? loadVec(bFlat, from, Value())
                                  : loadVec(bFlat, from, mask(width, v));
                storeVec(value, packed, add(dst, idx(v * p.lanes)), Value());
              }
              return;
            }
            Value zero =
                arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(0.0f));
            for (int64_t l = 0; l < p.nr; ++l) {
              Value col = add(n0, idx(l));
              Value clamped = minI(col, idx(n - 1));
              Value value = memref::LoadOp::create(
                  b, loc, bFlat, add(src, colAddress(c.b, clamped)));
              value =
                  arith::SelectOp::create(b, loc, lt(col, idx(n)), value, zero);
              memref::StoreOp::create(b, loc, value, packed, add(dst, idx(l)));
            }
          };
          nest(0, idx(c.b.offset), idx(0));
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
  void packA(Value ir, Value aK) {
    auto loop = [&](int64_t trip, int64_t step) {
      auto forOp = scf::ForOp::create(b, loc, idx(0), idx(trip), idx(step));
      b.setInsertionPointToStart(forOp.getBody());
      return forOp.getInductionVar();
    };
    OpBuilder::InsertionGuard guard(b);
    Value r = loop(p.mr, 1);
    Value row = add(ir, r);
    if (c.m() % p.mr != 0)
      row = minI(row, idx(c.m() - 1));
    Value src = add(rowAddress(c.a, row), aK);
    Value dst = arith::MulIOp::create(b, loc, r, idx(aRowStride));
    for (unsigned level = p.numBlockDims; level < c.kDims.size(); ++level) {
      unsigned d = c.kDims[level];
      bool innermost = level + 1 == c.kDims.size();
      Value i = loop(innerTrip(c, p, level), innermost ? p.lanes : 1);
      src = add(src, mul(i, c.a.coef[d]));
      dst = add(dst, mul(i, aCoef[d]));
    }
    storeVec(loadVec(aFlat, src, Value()), aTile, dst, Value());
  }

  void tile(Value ir, Value jr, Value mEnd, Value nEnd, Value aK, Value bK,
            Value blockIndex, int64_t blocks) {
    int64_t n = c.n();
    if (p.kind == GemmPlan::Kind::Dot)
      return dotTile(ir, jr, mEnd, nEnd, aK, bK, blockIndex, blocks);
    if (n % p.nr == 0)
      return outerProductTile(ir, jr, Value(), mEnd, aK, bK, blockIndex,
                              blocks);
    // The last panel of N is masked.
    Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                       add(jr, idx(p.nr)), idx(n));
    scf::IfOp::create(
        b, loc, full,
        [&](OpBuilder &, Location) {
          outerProductTile(ir, jr, Value(), mEnd, aK, bK, blockIndex, blocks);
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &, Location) {
          outerProductTile(ir, jr, arith::SubIOp::create(b, loc, idx(n), jr),
                           mEnd, aK, bK, blockIndex, blocks);
          scf::YieldOp::create(b, loc);
        });
  }

  /// The C blocks, spread over the threads (with the K slices when K is
  /// split: then C is `partial`, one dense copy per slice).
  void emitBlocks(Value partial) {
    int64_t m = c.m(), n = c.n();
    int64_t mBlocks = (m + p.mc - 1) / p.mc, nBlocks = (n + p.nc - 1) / p.nc;
    SmallVector<OpFoldResult> ubs = {b.getIndexAttr(mBlocks),
                                     b.getIndexAttr(nBlocks)};
    bool colsOuter = p.columnsOuter;
    if (colsOuter)
      std::swap(ubs[0], ubs[1]);
    if (partial)
      ubs.insert(ubs.begin(), b.getIndexAttr(p.kSplit));
    scf::ForallOp::create(
        b, loc, ubs, ValueRange{}, std::nullopt,
        [&](OpBuilder &, Location, ValueRange all) {
          ValueRange ivs = all;
          if (partial) {
            slice = all[0];
            ivs = all.drop_front();
            cFlat = sliceView(partial, slice);
          }
          Value ib = ivs[colsOuter ? 1 : 0], jb = ivs[colsOuter ? 0 : 1];
          Value m0 = mul(ib, p.mc), n0 = mul(jb, p.nc);
          Value mEnd = minI(add(m0, idx(p.mc)), idx(m));
          Value nEnd = minI(add(n0, idx(p.nc)), idx(n));
          int64_t blocks = numBlocks();
          if (p.packA)
            aTile = memref::AllocaOp::create(
                b, loc, MemRefType::get({p.mr * aRowStride}, f32),
                b.getI64IntegerAttr(64));
          forEachBlock([&](Value aK, Value bK, Value blockIndex) {
            auto loop = [&](Value lo, Value hi, int64_t step,
                            function_ref<void(Value)> body) {
              auto forOp = scf::ForOp::create(b, loc, lo, hi, idx(step));
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPointToStart(forOp.getBody());
              body(forOp.getInductionVar());
            };
            auto rows = [&](function_ref<void(Value)> body) {
              loop(m0, mEnd, p.mr, body);
            };
            auto panels = [&](function_ref<void(Value)> body) {
              loop(n0, nEnd, p.nr, body);
            };
            auto one = [&](Value ir, Value jr) {
              tile(ir, jr, mEnd, nEnd, aK, bK, blockIndex, blocks);
            };
            if (p.packB)
              rows([&](Value ir) {
                if (aTile)
                  packA(ir, aK);
                panels([&](Value jr) { one(ir, jr); });
              });
            else
              panels([&](Value jr) { rows([&](Value ir) { one(ir, jr); }); });
          });
          aTile = Value();
          scf::InParallelOp::create(b, loc);
        });
  }

  //===--------------------------------------------------------------------===//
  // K slices
  //===--------------------------------------------------------------------===//

  /// Slice `s` of `partial`: a dense copy of C.
  Value sliceView(Value partial, Value s) {
    int64_t size = c.m() * c.n();
    auto type = MemRefType::get(
        {size}, f32,
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}));
    return memref::ReinterpretCastOp::create(
        b, loc, type, partial, OpFoldResult(mul(s, size)),
        ArrayRef<OpFoldResult>{b.getIndexAttr(size)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }

  /// C (+)= the slices' sums, through the epilogue: a vector of columns at
  /// a time, rows spread over the threads.
  void addSlices(Value partial) {
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
            Value cAddr = add(rowAddress(c.c, row), colAddress(c.c, col));
            Value value = combine(Phase::Only, sum, cAddr, laneMask);
            store(Phase::Only, value, row, col, cAddr, laneMask);
          }
          scf::InParallelOp::create(b, loc);
        });
  }

  void emit() {
    aFlat = flatView(c.a);
    bFlat = flatView(c.b);
    // C is neither read nor written when it starts as zeros, the epilogue
    // stores to D and no K block leaves partial sums in it (one block, or
    // the slices' own copies).
    bool cUnused = c.zeroInit && epi && (p.kSplit > 1 || numBlocks() == 1);
    if (!cUnused)
      cFlat = flatView(c.c);
    if (epi) {
      dFlat = flatView(epi->dest);
      for (unsigned i = 0; i < epi->inputs.size(); ++i)
        epiFlat.push_back(i == epi->cInput ? Value()
                                           : flatView(epi->inputs[i]));
    }
    Value packed;
    if (p.packB) {
      packed = packB();
      bFlat = packed;
    }
    if (p.kSplit == 1) {
      emitBlocks(Value());
    } else {
      // The slices sum into dense copies of C (their first stores
      // overwrite, no epilogue), then one pass adds them into C.
      Contraction sliced = c;
      sliced.c = denseAccess(c);
      sliced.zeroInit = true;
      auto type = MemRefType::get({p.kSplit * sliced.c.span}, f32);
      Value partial =
          memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(64));
      Emitter slices(b, sliced, p, nullptr);
      slices.aFlat = aFlat;
      slices.bFlat = bFlat;
      slices.bAccess = bAccess;
      slices.bPanelScale = bPanelScale;
      slices.emitBlocks(partial);
      addSlices(partial);
      memref::DeallocOp::create(b, loc, partial);
    }
    if (packed)
      memref::DeallocOp::create(b, loc, packed);
  }
};
} // namespace

void nnc::cpu::emitContraction(OpBuilder &b, const Contraction &c,
                               const GemmPlan &plan, const Epilogue *epilogue) {
  Emitter(b, c, plan, epilogue).emit();
}
