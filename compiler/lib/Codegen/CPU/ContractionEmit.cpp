//===- ContractionEmit.cpp - tiled loops and micro-kernels ----------------===//
//
// Part of nnc. Emits a planned contraction:
//
//   scf.forall (ib, jb)                      C blocks, spread over threads
//                                            ((jb, ib): columns outer)
//     scf.for K blocks                       (the plan's block loops)
//       scf.for jr                           nr-wide panels of the block
//         scf.for ir                         mr-row tiles of the block
//           micro-kernel over the block's K  accumulators in registers;
//                                            prefetches of what comes next
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

#include "ContractionEmitter.h"
#include "nnc/Codegen/CPU/Passes.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace nnc::cpu;
using namespace nnc::cpu::emit;

bool Emitter::dividesByMultiplying(int64_t d) const {
  return smallIndices && d < (int64_t(1) << 30);
}

Value Emitter::divui(Value n, int64_t d) {
  if (!dividesByMultiplying(d))
    return arith::DivUIOp::create(b, loc, n, idx(d));
  // q = floor(n * ceil(2^s / d) / 2^s) with s = 32 + ceil(log2 d): the
  // multiplier exceeds 2^s / d by e < d, which adds n * e / 2^s < 1 / d
  // to n / d for n < 2^32, so that the floor is the quotient's; the
  // product stays below 2^64 for n < 2^31 (the multiplier is at most
  // 2^33).
  unsigned shift = 32 + llvm::Log2_64_Ceil(uint64_t(d));
  uint64_t multiplier = ((uint64_t(1) << shift) + d - 1) / uint64_t(d);
  return arith::ShRUIOp::create(
      b, loc, arith::MulIOp::create(b, loc, n, idx(int64_t(multiplier))),
      idx(shift));
}

std::pair<Value, Value> Emitter::divRem(Value n, int64_t d) {
  Value q = divui(n, d);
  if (!dividesByMultiplying(d))
    return {q, arith::RemUIOp::create(b, loc, n, idx(d))};
  return {q, arith::SubIOp::create(b, loc, n,
                                   arith::MulIOp::create(b, loc, q, idx(d)))};
}

//===----------------------------------------------------------------------===//
// The micro-kernel's K loops
//===----------------------------------------------------------------------===//

/// Loops over the micro-kernel's K dimensions (kDims[numBlockDims...]),
/// from `level`, carrying the accumulators.
SmallVector<Value> Emitter::innerLoops(unsigned level, Value aK, Value bK,
                                       SmallVector<Value> accs, Step step,
                                       GroupHook group) {
  // A k-major copy of A and B's panels are dense in the kernel's K
  // iterations: one loop over them all, with the innermost strides.
  bool flat = p.packA == GemmPlan::PackA::Panel;
  bool innermost = flat || level + 1 == c.kDims.size();
  unsigned d = innermost ? c.kDims.back() : c.kDims[level];
  int64_t trip = flat ? kernelTrip(c, p) : innerTrip(c, p, level);
  int64_t ca = aCoef[d], cb = bAccess.coef[d];
  if (!innermost) {
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(trip), idx(1), accs);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    SmallVector<Value> inner(loop.getRegionIterArgs());
    inner = innerLoops(level + 1, add(aK, mul(i, ca)), add(bK, mul(i, cb)),
                       inner, step, group);
    scf::YieldOp::create(b, loc, inner);
    return SmallVector<Value>(loop.getResults());
  }
  // The innermost loop, unrolled; the dot kernel steps a vector at a time.
  // The loop carries A's and B's offsets, which step by constants: each
  // unrolled step's addresses are then those offsets plus constants, which
  // fold into the instructions' addressing without loop strength
  // reduction (k * 32 for a packed B would otherwise be recomputed from k,
  // as (k | u) << 7, for every step u).
  int64_t stride = p.kind == GemmPlan::Kind::Dot ? p.lanes : 1;
  int64_t unroll = p.unroll;
  auto body = [&](Value aAt, Value bAt, SmallVector<Value> values,
                  int64_t steps) {
    if (group && steps == unroll)
      group(bAt);
    for (int64_t u = 0; u < steps; ++u)
      values = step(add(aAt, idx(u * stride * ca)),
                    add(bAt, idx(u * stride * cb)), values);
    return values;
  };
  if (unroll * stride == trip)
    return body(aK, bK, accs, unroll);
  int64_t whole = trip - trip % (unroll * stride);
  // The loop's induction variable is A's offset (or B's, where A's does not
  // grow along d), and it carries the other: two induction variables, not
  // a counter beside them, which LLVM's IndVarSimplify (not run on these
  // kernels, compiler/lib/Driver/Optimize.cpp) would have to fold away. A
  // counter remains where neither offset grows.
  int64_t groups = whole / (unroll * stride);
  int64_t groupA = unroll * stride * ca, groupB = unroll * stride * cb;
  bool onA = groupA > 0, counted = !onA && groupB <= 0;
  int64_t ivStep = counted ? unroll * stride : onA ? groupA : groupB;
  Value from = counted ? idx(0) : onA ? aK : bK;
  Value to = add(from, idx(groups * ivStep));
  SmallVector<Value> init(accs);
  if (counted)
    init.append({aK, bK});
  else
    init.push_back(onA ? bK : aK);
  auto loop = scf::ForOp::create(b, loc, from, to, idx(ivStep), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ValueRange carried = loop.getRegionIterArgs();
    Value iv = loop.getInductionVar();
    Value aAt = counted ? carried[accs.size()] : onA ? iv : carried.back();
    Value bAt = counted ? carried[accs.size() + 1] : onA ? carried.back() : iv;
    SmallVector<Value> next = body(
        aAt, bAt, SmallVector<Value>(carried.take_front(accs.size())), unroll);
    if (counted || !onA)
      next.push_back(add(aAt, idx(groupA)));
    if (counted || onA)
      next.push_back(add(bAt, idx(groupB)));
    scf::YieldOp::create(b, loc, next);
  }
  SmallVector<Value> out(loop.getResults().take_front(accs.size()));
  Value aEnd = counted || !onA ? loop.getResult(accs.size())
                               : add(aK, idx(groups * groupA));
  Value bEnd = counted ? loop.getResult(accs.size() + 1)
               : onA   ? loop.getResults().back()
                       : add(bK, idx(groups * groupB));
  // The steps past the last whole unrolled group.
  return body(aEnd, bEnd, out, (trip - whole) / stride);
}

//===----------------------------------------------------------------------===//
// Register tiles
//===----------------------------------------------------------------------===//

/// Rows ir .. ir+mr, clamped to C.
SmallVector<Value> Emitter::tileRows(Value ir) {
  SmallVector<Value> rows;
  if (rowGroup) {
    // Each group's first row is clamped to the last group of C (M is
    // whole lines), so that the rows past C read inside it.
    for (int64_t r = 0; r < p.mr; r += rowGroup) {
      Value first = add(ir, idx(r));
      if (c.m() % p.mr != 0)
        first = minI(first, idx(c.m() - rowGroup));
      for (int64_t i = 0; i < rowGroup; ++i) {
        Value row = i == 0 ? first : add(first, idx(i));
        rowInLine[row] = {first, i};
        rows.push_back(row);
      }
    }
    return rows;
  }
  Value lastRow = idx(c.m() - 1);
  bool exact = c.m() % p.mr == 0;
  for (int64_t r = 0; r < p.mr; ++r) {
    Value row = add(ir, idx(r));
    rows.push_back(exact ? row : minI(row, lastRow));
  }
  return rows;
}

/// Guards a store to row ir + r when the tile may stick out of the block.
void Emitter::guardedRow(Value ir, int64_t r, Value mEnd,
                         function_ref<void()> fn) {
  if (c.m() % p.mr == 0 && p.mc % p.mr == 0)
    return fn();
  Value inside = lt(add(ir, idx(r)), mEnd);
  ifElse(inside, fn);
}

/// Prefetches of `lines` lines, `at(line)` each, spread evenly over the
/// micro-kernel's groups of k steps (called with a group's index): one
/// every few groups, or a few in each. Lines the kernel needs after its K loop,
/// or the next tile or block needs, arrive while the FMAs run instead of after.
///
/// With fewer lines than groups, only every `every`-th group (a power of
/// two) computes an address and prefetches, behind a test of the group's
/// low bits; the others skip the arithmetic. Every group used to compute
/// its own line (`g * lines / groups`, so the same line several times):
/// about 35 scalar instructions in each group of 112 FMAs of the
/// AVX-512 product's kernel, whose loop then issued 4 instructions per
/// cycle at the FMAs' peak. Behind the tests the loop has 192 instructions,
/// not 226, and the products of 1024 to 4096 took 1 to 7% less time
/// (bench/ab_product.sh, docs/bench.md).
std::function<void(Value)>
Emitter::spreadPrefetches(int64_t lines, Value flat, bool write, int locality,
                          std::function<Value(Value)> at) {
  const int64_t groups = microK(c, p) / p.unroll;
  if (lines <= 0 || groups == 0)
    return nullptr;
  if (lines < groups) {
    const int64_t every = llvm::bit_floor(uint64_t(groups / lines));
    return [=](Value g) {
      auto prefetch = [&] {
        Value line = g;
        if (every > 1)
          line = arith::ShRUIOp::create(b, loc, g, idx(llvm::Log2_64(every)));
        line = minI(line, idx(lines - 1));
        memref::PrefetchOp::create(b, loc, flat, at(line), write, locality,
                                   /*isDataCache=*/true);
      };
      if (every == 1)
        return prefetch();
      Value phase = arith::AndIOp::create(b, loc, g, idx(every - 1));
      ifElse(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, phase,
                                   idx(0)),
             prefetch);
    };
  }
  const int64_t perGroup = (lines + groups - 1) / groups;
  return [=](Value g) {
    for (int64_t i = 0; i < perGroup; ++i) {
      Value slot = add(mul(g, perGroup), idx(i));
      Value line = divui(mul(slot, lines), groups * perGroup);
      memref::PrefetchOp::create(b, loc, flat, at(line), write, locality,
                                 /*isDataCache=*/true);
    }
  };
}

std::function<void(Value)> Emitter::nextBlockPrefetches(Value ir, Value bCol,
                                                        Value blockIndex,
                                                        int64_t numBlocks) {
  if (p.nextBLines == 0 || numBlocks < 2)
    return nullptr;
  // The next block's panel lies right after this one's in the packed B;
  // the last block's next is the first (the thread's next C block may
  // share its columns).
  int64_t chunk = microK(c, p) * p.nr;
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     blockIndex, idx(numBlocks - 1));
  Value delta = arith::SelectOp::create(
      b, loc, last, idx(-(numBlocks - 1) * chunk), idx(chunk));
  // Tile t of the C block takes the t-th share of the lines.
  Value tile = remui(divui(ir, p.mr), p.mc / p.mr);
  Value share = add(add(bCol, delta), mul(tile, p.nextBLines * kLineFloats));
  return spreadPrefetches(
      p.nextBLines, bFlat, /*write=*/false, /*locality=*/2,
      [this, share](Value line) { return add(share, mul(line, kLineFloats)); });
}

std::function<void(Value)> Emitter::nextTilePrefetches(Value ir, Value jr,
                                                       Value aK) {
  const int64_t kc = microK(c, p), panels = p.nc / p.nr;
  // Rows copied from A's rows along K, one K loop in the kernel: each
  // row's K block is contiguous.
  bool fromRows =
      p.packA == GemmPlan::PackA::Rows ||
      (p.packA == GemmPlan::PackA::Panel && c.a.coef[c.kDims.back()] == 1);
  // A block's copy is made before its tiles run (blockA).
  if (!fromRows || p.blockA || p.numBlockDims + 1 != c.kDims.size() ||
      panels < 2)
    return nullptr;
  const int64_t rowLines = (kc + kLineFloats - 1) / kLineFloats;
  const int64_t total = p.mr * rowLines;
  // The tile's calls, one per panel of the block, share the lines.
  const int64_t share = (total + panels - 1) / panels;
  Value panel = remui(divui(jr, p.nr), panels);
  Value first = mul(panel, share);
  Value next = add(ir, idx(p.mr));
  return spreadPrefetches(
      share, aFlat, /*write=*/false, /*locality=*/2, [=](Value line) {
        line = minI(add(first, line), idx(total - 1));
        auto [rowInTile, col] = divRem(line, rowLines);
        Value row = minI(add(next, rowInTile), idx(c.m() - 1));
        return add(add(rowAddress(c.a, row), aK), mul(col, kLineFloats));
      });
}

std::function<void(Value)> Emitter::tileCPrefetches(Value ir, Value jr,
                                                    int64_t nv) {
  // C's rows unit-stride along N, in whole lines.
  if (!p.packB || !cFlat || c.c.coef[c.nDim] != 1 ||
      (nv * p.lanes) % kLineFloats != 0)
    return nullptr;
  const int64_t rowLines = nv * p.lanes / kLineFloats;
  return spreadPrefetches(
      p.mr * rowLines, cFlat, /*write=*/true, /*locality=*/3, [=](Value line) {
        auto [rowInTile, lineInRow] = divRem(line, rowLines);
        Value row = minI(add(ir, rowInTile), idx(c.m() - 1));
        Value col = add(jr, mul(lineInRow, kLineFloats));
        return address(c.c, row, col);
      });
}

void Emitter::outerProductTile(Value ir, Value jr, Value width, Value mEnd,
                               Value aK, Value bK, Value blockIndex,
                               int64_t numBlocks) {
  // The last panel of an N that nr does not divide (`width` columns
  // from jr) computes only the vectors that hold columns, masked when
  // they hold some: N = 80 is panels of 32, 32 and 16.
  int64_t rest = c.n() % p.nr;
  int64_t nv = width ? (rest + p.lanes - 1) / p.lanes : p.nr / p.lanes;
  SmallVector<Value> rows = tileRows(ir);
  SmallVector<Value> aRows;
  Value aSource = aTile ? aTile : aFlat;
  for (int64_t r = 0; r < p.mr; ++r)
    aRows.push_back(aTile ? add(aTileStart(), idx(r * aRowStride))
                          : add(rowAddress(c.a, rows[r]), aK));
  SmallVector<Value> masks(nv);
  if (width && rest % p.lanes != 0)
    for (int64_t v = 0; v < nv; ++v)
      masks[v] = mask(width, v);
  SmallVector<Value> accs(p.mr * nv, zeros());
  Value bCol = add(add(idx(bAccess.offset), bK),
                   p.packB ? mul(jr, bPanelScale) : colAddress(c.b, jr));
  // One prefetch per cache line of the k step's row of the panel, the
  // plan's k steps ahead: a packed panel's rows are line-aligned; a row of
  // B in place may not be, and its last element may start one more line.
  SmallVector<int64_t> bPrefetches;
  if (p.prefetchB) {
    int64_t kStride = bAccess.coef[c.kDims.back()];
    int64_t ahead = p.prefetchB * kStride;
    for (int64_t at = 0; at < p.nr; at += kLineFloats)
      bPrefetches.push_back(ahead + at);
    if (!p.packB && (kStride % kLineFloats || bAccess.offset % kLineFloats))
      bPrefetches.push_back(ahead + p.nr - 1);
  }
  std::function<void(Value)> nextBlock =
      nextBlockPrefetches(ir, bCol, blockIndex, numBlocks);
  std::function<void(Value)> nextTile = nextTilePrefetches(ir, jr, aK);
  std::function<void(Value)> tileC =
      width ? nullptr : tileCPrefetches(ir, jr, nv);
  // The innermost loop carries B's offset in the panel, dense in the
  // kernel's K order: the group's index is that offset over a group's.
  const int64_t groupStride = p.unroll * bAccess.coef[c.kDims.back()];
  auto prefetchNext = [&](Value bk) {
    // In the micro-kernel's loop, a division by the constant, not divRem's
    // multiplication: for a packed panel's power of two, LLVM makes it one
    // shift.
    Value g = arith::DivUIOp::create(b, loc, bk, idx(groupStride));
    for (auto *hook : {&nextBlock, &nextTile, &tileC})
      if (*hook)
        (*hook)(g);
  };
  auto step = [&](Value ak, Value bk, ArrayRef<Value> in) {
    SmallVector<Value> out(in);
    SmallVector<Value> bv;
    Value bRow = add(bCol, bk);
    // A packed panel is padded with zeros: no mask needed to read it.
    for (int64_t v = 0; v < nv; ++v)
      bv.push_back(loadVec(bFlat, add(bRow, idx(v * p.lanes)),
                           p.packB ? Value() : masks[v]));
    for (int64_t at : bPrefetches)
      memref::PrefetchOp::create(b, loc, bFlat, add(bRow, idx(at)),
                                 /*isWrite=*/false, /*localityHint=*/3,
                                 /*isDataCache=*/true);
    for (int64_t r = 0; r < p.mr; ++r) {
      Value a = memref::LoadOp::create(b, loc, aSource, add(aRows[r], ak));
      Value splat = vector::BroadcastOp::create(b, loc, vec, a);
      for (int64_t v = 0; v < nv; ++v)
        out[r * nv + v] =
            vector::FMAOp::create(b, loc, vec, splat, bv[v], out[r * nv + v]);
    }
    return out;
  };
  if (epi && numBlocks == 1)
    prefetchEpilogue(rows, ir, mEnd, jr, nv);
  accs = innerLoops(p.numBlockDims, idx(0), idx(0), accs, step,
                    nextBlock || nextTile || tileC ? GroupHook(prefetchNext)
                                                   : nullptr);
  // The tile's row `row`, its vectors' accumulators `acc(v)`.
  auto storeRow = [&](Phase phase, Value row,
                      function_ref<Value(int64_t)> acc) {
    Value cRow = address(c.c, row, jr);
    for (int64_t v = 0; v < nv; ++v) {
      Value value = acc(v);
      Value col = add(jr, idx(v * p.lanes));
      Value cAddr = add(cRow, idx(v * p.lanes));
      value = combine(phase, value, cAddr, masks[v]);
      store(phase, value, row, col, cAddr, masks[v]);
    }
  };
  byPhase(blockIndex, numBlocks, [&](Phase phase) {
    if (accTile && (phase == Phase::Last || phase == Phase::Only)) {
      for (int64_t i = 0; i < p.mr * nv; ++i)
        storeVec(accs[i], accTile, idx(i / nv * p.nr + i % nv * p.lanes),
                 Value());
      return forTileRows(ir, mEnd, [&](Value row, Value r) {
        Value at; // the row's offset in accTile, after C's row address
        storeRow(phase, row, [&](int64_t v) {
          if (!at)
            at = mul(r, p.nr);
          return loadVec(accTile, add(at, idx(v * p.lanes)), Value());
        });
      });
    }
    for (int64_t r = 0; r < p.mr; ++r)
      guardedRow(ir, r, mEnd, [&] {
        storeRow(phase, rows[r], [&](int64_t v) { return accs[r * nv + v]; });
      });
  });
}

void Emitter::dotTile(Value ir, Value jr, Value mEnd, Value nEnd, Value aK,
                      Value bK, Value blockIndex, int64_t numBlocks) {
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
  SmallVector<Value> accs(p.mr * p.nr, zeros());
  auto step = [&](Value ak, Value bk, ArrayRef<Value> in) {
    SmallVector<Value> out(in), av, bv;
    for (Value row : aRows)
      av.push_back(loadVec(aFlat, add(row, ak), Value()));
    for (Value col : bCols)
      bv.push_back(loadVec(bFlat, add(col, bk), Value()));
    for (int64_t r = 0; r < p.mr; ++r)
      for (int64_t j = 0; j < p.nr; ++j)
        out[r * p.nr + j] =
            vector::FMAOp::create(b, loc, vec, av[r], bv[j], out[r * p.nr + j]);
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
          ifElse(lt(add(jr, idx(j)), nEnd), emit);
        }
      });
  });
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

/// The block loops this code runs: nnc::cpu::blockLoops, the outermost cut
/// to a slice's share when K is split.
SmallVector<std::pair<unsigned, int64_t>> Emitter::blockLoops() {
  auto loops = nnc::cpu::blockLoops(c, p);
  // A slice runs its share of the outermost loop.
  if (p.kSplit > 1)
    loops.front().second /= p.kSplit;
  return loops;
}

/// Loops over K blocks; `fn(aK, bK, blockIndex)` emits one block.
void Emitter::forEachBlock(function_ref<void(Value, Value, Value)> fn) {
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

void Emitter::tile(Value ir, Value jr, Value mEnd, Value nEnd, Value aK,
                   Value bK, Value blockIndex, int64_t blocks) {
  int64_t n = c.n();
  if (p.kind == GemmPlan::Kind::Dot)
    return dotTile(ir, jr, mEnd, nEnd, aK, bK, blockIndex, blocks);
  if (n % p.nr == 0)
    return outerProductTile(ir, jr, Value(), mEnd, aK, bK, blockIndex, blocks);
  // The last panel of N is masked.
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                     add(jr, idx(p.nr)), idx(n));
  ifElse(
      full,
      [&] {
        outerProductTile(ir, jr, Value(), mEnd, aK, bK, blockIndex, blocks);
      },
      [&] {
        outerProductTile(ir, jr, arith::SubIOp::create(b, loc, idx(n), jr),
                         mEnd, aK, bK, blockIndex, blocks);
      });
}

/// The C blocks, spread over the threads (with the K slices when K is
/// split: then C is `partial`, one dense copy per slice).
void Emitter::emitBlocks(Value partial) {
  int64_t m = c.m(), n = c.n();
  int64_t mBlocks = (m + p.mc - 1) / p.mc, nBlocks = (n + p.nc - 1) / p.nc;
  SmallVector<OpFoldResult> ubs = {b.getIndexAttr(mBlocks),
                                   b.getIndexAttr(nBlocks)};
  bool colsOuter = p.columnsOuter;
  if (colsOuter)
    std::swap(ubs[0], ubs[1]);
  if (partial)
    ubs.insert(ubs.begin(), b.getIndexAttr(p.kSplit));
  auto blocksLoop = scf::ForallOp::create(
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
        int64_t blocks = numKBlocks(c, p);
        if (p.packA != GemmPlan::PackA::None) {
          int64_t size = p.blockA ? p.mc / p.mr * aTileStride : aTileSize;
          aTile = memref::AllocaOp::create(b, loc, MemRefType::get({size}, f32),
                                           b.getI64IntegerAttr(64));
        }
        if (epilogueByRows())
          accTile = memref::AllocaOp::create(
              b, loc, MemRefType::get({p.mr * p.nr}, f32),
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
          // The tile from ir's place in the block's copy of A.
          auto inCopy = [&](Value ir) {
            aTileOffset =
                mul(divui(arith::SubIOp::create(b, loc, ir, m0), p.mr),
                    aTileStride);
          };
          if (p.blockA) {
            rows([&](Value ir) {
              inCopy(ir);
              packA(ir, aK);
            });
            panels([&](Value jr) {
              rows([&](Value ir) {
                inCopy(ir);
                one(ir, jr);
              });
            });
            aTileOffset = Value();
          } else if (p.packB)
            rows([&](Value ir) {
              if (aTile)
                packA(ir, aK);
              panels([&](Value jr) { one(ir, jr); });
            });
          else
            panels([&](Value jr) { rows([&](Value ir) { one(ir, jr); }); });
        });
        aTile = accTile = Value();
        scf::InParallelOp::create(b, loc);
      });
  // Its micro-kernel is left alone by LLVM's vectorisers and unrollers
  // (nnc-cpu-outline-kernels, compiler/lib/Driver/Optimize.cpp).
  blocksLoop->setAttr(nnc::cpu::kContractionAttr, b.getUnitAttr());
}

void Emitter::emit() {
  aFlat = flatView(c.a);
  bFlat = flatView(c.b);
  // C is neither read nor written when it starts as zeros, the epilogue
  // stores to D and no K block leaves partial sums in it (one block, or
  // the slices' own copies).
  bool cUnused = c.zeroInit && epi && (p.kSplit > 1 || numKBlocks(c, p) == 1);
  if (!cUnused)
    cFlat = flatView(c.c);
  if (epi) {
    dFlat = flatView(epi->dest);
    for (unsigned i = 0; i < epi->inputs.size(); ++i)
      epiFlat.push_back(i == epi->cInput ? Value() : flatView(epi->inputs[i]));
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

void nnc::cpu::emitContraction(OpBuilder &b, const Contraction &c,
                               const GemmPlan &plan, const Epilogue *epilogue) {
  Emitter(b, c, plan, epilogue).emit();
}
