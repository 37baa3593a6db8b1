//===- ContractionStores.cpp - a contraction's stores and epilogue --------===//
//
// Part of nnc. What a planned contraction's register tile does with its
// accumulators once a K block ends: C's partial sums stored or added to,
// or, after the last block, the fused epilogue's result stored to D (row
// by row in a loop when it reads many operands), with the epilogue's
// operands prefetched ahead of the tile's K loop.
//
//===----------------------------------------------------------------------===//

#include "ContractionEmitter.h"

using namespace mlir;
using namespace nnc::cpu;
using namespace nnc::cpu::emit;

/// The value of C at the end of this K block: acc, or acc plus the
/// partial sums stored by earlier blocks (or C's initial value).
Value Emitter::combine(Phase phase, Value acc, Value cAddr, Value laneMask) {
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
void Emitter::store(Phase phase, Value value, Value row, Value col, Value cAddr,
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
    Value at = address(access, row, col);
    if (!vector || access.coef[c.nDim] == 0) {
      Value s = memref::LoadOp::create(b, loc, flat, at);
      return vector ? vector::BroadcastOp::create(b, loc, vec, s).getResult()
                    : s;
    }
    return loadVec(flat, at, laneMask);
  };
  for (unsigned i = 0; i < numInputs; ++i)
    operands[i] = i == epi->cInput ? value : read(epi->inputs[i], epiFlat[i]);
  if (!body.getArgument(numInputs).use_empty())
    operands[numInputs] = read(epi->dest, dFlat);
  Value result = emitEpilogueBody(b, loc, *epi, operands);
  Value dAddr = address(epi->dest, row, col);
  if (vector)
    storeVec(result, dFlat, dAddr, laneMask);
  else
    memref::StoreOp::create(b, loc, result, dFlat, dAddr);
}

/// Prefetches what the epilogue of the tile at `rows`, columns from `col`
/// (`nv` vectors wide) reads and writes, ahead of its K loop. Its operands
/// are as large as C and rarely in cache: read row by row at C's strides,
/// they outrun the hardware's prefetchers, and a short K loop cannot hide
/// the misses.
void Emitter::prefetchEpilogue(ArrayRef<Value> rows, Value ir, Value mEnd,
                               Value col, int64_t nv) {
  auto prefetch = [&](const LinearAccess &access, Value flat, bool write,
                      Value row) {
    Value first = address(access, row, col);
    for (int64_t at = 0; at < nv * p.lanes; at += kLineFloats)
      memref::PrefetchOp::create(b, loc, flat, add(first, idx(at)), write,
                                 /*localityHint=*/3, /*isDataCache=*/true);
  };
  // An operand that does not vary along M (a bias) is one row.
  SmallVector<std::tuple<const LinearAccess *, Value, bool>> byRow;
  auto operand = [&](const LinearAccess &access, Value flat, bool write) {
    if (access.coef[c.nDim] != 1)
      return;
    if (llvm::all_of(c.mDims, [&](unsigned d) { return access.coef[d] == 0; }))
      prefetch(access, flat, write, rows.front());
    else
      byRow.push_back({&access, flat, write});
  };
  for (unsigned i = 0; i < epi->inputs.size(); ++i)
    if (i != epi->cInput)
      operand(epi->inputs[i], epiFlat[i], /*write=*/false);
  operand(epi->dest, dFlat, /*write=*/true);
  if (accTile)
    return forTileRows(ir, mEnd, [&](Value row, Value) {
      for (auto [access, flat, write] : byRow)
        prefetch(*access, flat, write, row);
    });
  for (auto [access, flat, write] : byRow)
    for (Value row : rows)
      prefetch(*access, flat, write, row);
}

/// Epilogues that read this many operands besides C, or more, run row by
/// row in a loop: unrolled, each row's code was the epilogue's whole, and
/// Inception-v3's twelve-operand epilogues (a convolution's input gradient
/// plus the nine windows of an average pool's and two more) made its
/// largest kernels, 7,000 lines of LLVM dialect each. The loop costs the
/// tile a store and a load of each accumulator, in L1, beside the
/// operands' loads from memory.
constexpr unsigned kEpilogueByRowsReads = 3;

bool Emitter::epilogueByRows() const {
  if (!epi || p.kind == GemmPlan::Kind::Dot || p.mr == 1)
    return false;
  unsigned numInputs = epi->inputs.size();
  bool readsDest =
      !epi->op.getRegion().front().getArgument(numInputs).use_empty();
  return numInputs - 1 + readsDest >= kEpilogueByRowsReads;
}

void Emitter::forTileRows(Value ir, Value mEnd,
                          function_ref<void(Value, Value)> fn) {
  Value count = idx(p.mr);
  if (c.m() % p.mr != 0 || p.mc % p.mr != 0)
    count = minI(arith::SubIOp::create(b, loc, mEnd, ir), count);
  auto loop = scf::ForOp::create(b, loc, idx(0), count, idx(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value r = loop.getInductionVar();
  fn(add(ir, r), r);
}

/// Emits `fn(phase)` once per phase the K block `blockIndex` may be in.
void Emitter::byPhase(Value blockIndex, int64_t numBlocks,
                      function_ref<void(Phase)> fn) {
  if (numBlocks == 1)
    return fn(Phase::Only);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      blockIndex, idx(0));
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     blockIndex, idx(numBlocks - 1));
  bool middleIsFirst = !c.zeroInit; // both add to what C holds
  auto ifLast = [&] {
    ifElse(
        last, [&] { fn(Phase::Last); }, [&] { fn(Phase::Middle); });
  };
  if (middleIsFirst && !epi)
    return fn(Phase::Middle);
  if (middleIsFirst)
    return ifLast();
  ifElse(
      first, [&] { fn(Phase::First); }, ifLast);
}
