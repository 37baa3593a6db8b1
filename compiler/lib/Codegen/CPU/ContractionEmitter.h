//===- ContractionEmitter.h - emitting one contraction ----------*- C++ -*-===//
//
// Part of nnc. The state and helpers shared by the files that emit a
// planned contraction: the tiles, blocks and K slices
// (ContractionEmit.cpp), the tiles' stores and fused epilogue
// (ContractionStores.cpp), and the copies of the operands, packed B panels
// and A tiles, and the slices' sum (ContractionCopies.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_CONTRACTIONEMITTER_H
#define NNC_CODEGEN_CPU_CONTRACTIONEMITTER_H

#include "Contraction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace nnc::cpu::emit {
using namespace mlir;

/// Which stores a K block makes.
enum class Phase { First, Middle, Last, Only };

/// Emits one contraction at the builder's insertion point.
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
  /// `aRowStride` apart, `aTileSize` elements), set while its tiles are
  /// emitted. With plan.blockA, `aTile` holds the C block's tiles
  /// `aTileStride` elements apart, the current one from `aTileOffset`.
  SmallVector<int64_t> aCoef;
  Value aTile, aTileOffset;
  int64_t aRowStride = 0, aTileSize = 0, aTileStride = 0;
  /// The register tile's accumulators, stored for an epilogue that runs
  /// row by row (epilogueByRows), else null.
  Value accTile;
  /// The K slice this code sums (plan.kSplit > 1), else null.
  Value slice;
  /// Rows per group in one line of every access (lineGroup), or 0; the
  /// rows of such groups (tileRows), each as its group's first row and its
  /// offset from it; and the first rows' frozen parts per buffer, role and
  /// access strides (rowPart).
  int64_t rowGroup = 0;
  DenseMap<Value, std::pair<Value, int64_t>> rowInLine;
  DenseMap<std::tuple<Value, unsigned, ArrayRef<int64_t>, Value>, Value>
      firstRowAddress;
  /// The contribution of the M dimensions at a row, without an offset, per
  /// buffer, role and access strides (rowPart).
  DenseMap<std::tuple<Value, unsigned, ArrayRef<int64_t>, Value>, Value>
      rowParts;
  /// The index of each of `dims` (c.mDims or c.nDims) at a flattened index,
  /// computed once, where the flattened index is defined (indices).
  DenseMap<std::pair<const unsigned *, Value>, SmallVector<Value>> split;
  /// The contraction's constants, each made once, before all of its code
  /// (nnc-cpu-outline-kernels copies them into each kernel that uses them):
  /// made where each was needed, they were a third of the ops of
  /// Inception-v3's contraction kernels until canonicalisation merged them.
  OpBuilder constants;
  DenseMap<int64_t, Value> indexConstants;
  Value zeroVector;
  /// Every index the code divides is below 2^31 (divRem): no buffer,
  /// packed copy or C holds 2^30 elements.
  bool smallIndices = false;

  Emitter(OpBuilder &b, const Contraction &c, const GemmPlan &p,
          const Epilogue *epi)
      : b(b), loc(c.op->getLoc()), c(c), p(p), epi(epi), f32(b.getF32Type()),
        vec(VectorType::get({p.lanes}, b.getF32Type())), bAccess(c.b),
        aCoef(c.a.coef), constants(b.getContext()) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    indexConstants[0] = zero;
    constants.setInsertionPoint(zero.getDefiningOp());
    int64_t largest = std::max(
        {c.a.span, c.b.span, c.c.span, (c.n() + p.nr) * c.k(), c.m() * c.n()});
    if (epi) {
      for (const LinearAccess &input : epi->inputs)
        largest = std::max(largest, input.span);
      largest = std::max(largest, epi->dest.span);
    }
    smallIndices = largest < (int64_t(1) << 30);
    // Tiles start at multiples of mr when the blocks do.
    if (p.mc % p.mr == 0) {
      SmallVector<LinearAccess> epilogueAccesses;
      if (epi) {
        epilogueAccesses.append(epi->inputs);
        epilogueAccesses.push_back(epi->dest);
      }
      rowGroup = lineGroup(c, p.mr, epilogueAccesses);
    }
    if (p.packA == GemmPlan::PackA::None)
      return;
    // The copy holds the micro-kernel's K iterations in its order: each
    // row's padded by a cache line so that consecutive rows fall in
    // different sets, or each k's rows side by side (a vector stored for
    // each, which may run a vector past the last).
    bool panel = p.packA == GemmPlan::PackA::Panel;
    int64_t inner = panel ? p.mr : 1;
    for (unsigned level = c.kDims.size(); level-- > p.numBlockDims;) {
      aCoef[c.kDims[level]] = inner;
      inner *= innerTrip(c, p, level);
    }
    aRowStride = panel ? 1 : inner + kLineFloats;
    aTileSize = panel ? inner + p.lanes : p.mr * aRowStride;
    aTileStride = (aTileSize + kLineFloats - 1) / kLineFloats * kLineFloats;
  }

  /// Where the current tile's copy of A starts in `aTile`.
  Value aTileStart() { return aTileOffset ? aTileOffset : idx(0); }
  Value idx(int64_t v) {
    Value &constant = indexConstants[v];
    if (!constant)
      constant = arith::ConstantIndexOp::create(constants, loc, v);
    return constant;
  }
  /// A vector of zeros.
  Value zeros() {
    if (!zeroVector)
      zeroVector = arith::ConstantOp::create(constants, loc, vec,
                                             DenseElementsAttr::get(vec, 0.0f));
    return zeroVector;
  }
  /// x + y: a constant if both are, else an addition, even of the
  /// constant 0. An offset that is 0 in one kernel and not in another (an
  /// operand padded or not) is then an argument of their merge, which the
  /// canonicaliser folds where it stays 0; left out where it was 0, it kept
  /// Inception-v3's contraction kernels 61, not 51.
  Value add(Value x, Value y) {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (cx && cy)
      return idx(*cx + *cy);
    return arith::AddIOp::create(b, loc, x, y);
  }
  Value mul(Value x, int64_t k) {
    if (k == 1)
      return x;
    return arith::MulIOp::create(b, loc, x, idx(k));
  }
  Value minI(Value x, Value y) { return arith::MinSIOp::create(b, loc, x, y); }

  /// n / d (d > 0, n >= 0), and with divRem n mod d too, the remainder
  /// made after the quotient. With small indices, the quotient is a
  /// multiplication and a shift, the remainder n minus its product with d:
  /// the divisor's constants are then operands that
  /// nnc-cpu-merge-flat-kernels can make arguments, where a division's
  /// divisor must stay a constant, so that kernels that split rows by
  /// different image sizes, or schedule prefetches by different block
  /// sizes, merge. LLVM turns a division by a constant into such a
  /// multiplication and shift anyway.
  Value divui(Value n, int64_t d);
  std::pair<Value, Value> divRem(Value n, int64_t d);
  Value remui(Value n, int64_t d) {
    if (!dividesByMultiplying(d))
      return arith::RemUIOp::create(b, loc, n, idx(d));
    return divRem(n, d).second;
  }
  bool dividesByMultiplying(int64_t d) const;
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

  /// The index of each of `dims` (outer to inner) at their flattened index
  /// `flat` (the last one computed is the outermost). The divisions are
  /// emitted once per flattened index, right after its definition, for
  /// every access that reads it: an epilogue of a dozen operands divided
  /// each row a dozen times, and Inception-v3's contraction kernels held
  /// 17,000 divisions until LLVM's CSE, not 3,000.
  ArrayRef<Value> indices(ArrayRef<unsigned> dims, Value flat) {
    SmallVector<Value> &result = split[{dims.data(), flat}];
    if (!result.empty())
      return result;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(flat);
    result.resize(dims.size());
    Value rest = flat;
    for (unsigned i = dims.size(); i-- > 0;) {
      result[i] = rest;
      if (i > 0)
        std::tie(rest, result[i]) = divRem(rest, c.sizes[dims[i]]);
    }
    return result;
  }

  /// `address` plus the contribution of `dims` (outer to inner) at their
  /// flattened index `flat`, to an access with strides `coef`.
  Value addressOf(ArrayRef<int64_t> coef, ArrayRef<unsigned> dims, Value flat,
                  Value address) {
    ArrayRef<Value> index = indices(dims, flat);
    for (unsigned i = dims.size(); i-- > 0;)
      if (coef[dims[i]])
        address = add(address, mul(index[i], coef[dims[i]]));
    return address;
  }

  /// The last of row `m`'s indices to be computed (`m` itself when M is
  /// one dimension): what is derived from the row goes right after it.
  Value afterIndices(Value m) {
    ArrayRef<Value> index = indices(c.mDims, m);
    // The outermost division's remainder, made after its quotient
    // (divRem), is the last.
    return index.size() > 1 ? index[1] : m;
  }

  /// What accesses share their row parts by: the buffer they view, when
  /// they have one, and their role (A, B, C, the epilogue's output, or
  /// another operand). Not their strides alone: two operands have the same
  /// strides in one kernel (both unpadded) and different ones in another
  /// that is otherwise the same (one of them padded), and the kernels then
  /// differed in their code, not only in their constants, and did not
  /// merge. An epilogue's operands that view one buffer (an average
  /// pool's windows) have one role, and share.
  std::pair<Value, unsigned> sharing(const LinearAccess &access) const {
    unsigned role = &access == &c.a                ? 0
                    : &access == &c.b              ? 1
                    : &access == &c.c              ? 2
                    : epi && &access == &epi->dest ? 3
                                                   : 4;
    return {access.buffer ? bufferRoot(access.buffer) : Value(), role};
  }

  /// The contribution of the M dimensions at flattened row `m` to
  /// `access`, without its offset. It is computed once per row, sharing
  /// key and strides, right after the row's indices, and shared by every
  /// access with that key and those strides: the operands of an epilogue
  /// are mostly views of one buffer (Inception-v3's average-pool gradients
  /// read nine windows of one padded buffer), and each computed its own,
  /// for its loads and again for its prefetches.
  Value rowPart(const LinearAccess &access, Value m) {
    ArrayRef<int64_t> coef = access.coef;
    auto [root, role] = sharing(access);
    Value &part = rowParts[{root, role, coef, m}];
    if (!part) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(afterIndices(m));
      part = addressOf(coef, c.mDims, m, idx(0));
    }
    return part;
  }

  /// offset + the contribution of the M dimensions at flattened row `m`.
  /// Row i of a group in one line (tileRows) is the group's first row's
  /// part, computed once per strides, plus the offset and i times the
  /// innermost M stride. That part is frozen: opaque to LLVM, the group's
  /// loads are one register plus constants, and loop strength reduction
  /// does not search through its chain of divisions for each of them (it
  /// spent a third of AlexNet's code generation doing so).
  Value rowAddress(const LinearAccess &access, Value m) {
    auto it = rowInLine.find(m);
    if (it == rowInLine.end())
      return add(rowPart(access, m), idx(access.offset));
    auto [first, r] = it->second;
    auto [root, role] = sharing(access);
    Value &base = firstRowAddress[{root, role, access.coef, first}];
    if (!base) {
      Value part = rowPart(access, first);
      OpBuilder::InsertionGuard guard(b);
      // After the part, or after the row's indices when the access does
      // not vary along M (its part is the constant 0).
      b.setInsertionPointAfterValue(part == idx(0) ? afterIndices(first)
                                                   : part);
      Value bits = arith::IndexCastOp::create(b, loc, b.getI64Type(), part);
      bits = LLVM::FreezeOp::create(b, loc, bits);
      base = arith::IndexCastOp::create(b, loc, b.getIndexType(), bits);
    }
    return add(base, idx(access.offset + r * access.coef[c.mDims.back()]));
  }

  /// The contribution of the N dimensions at flattened column `n`.
  Value colAddress(const LinearAccess &access, Value n) {
    return addressOf(access.coef, c.nDims, n, idx(0));
  }

  /// The address of row `m`, column `n` of `access`.
  Value address(const LinearAccess &access, Value m, Value n) {
    return add(rowAddress(access, m), colAddress(access, n));
  }

  /// scf.if `cond` running `then`, and `otherwise` when given.
  void ifElse(Value cond, function_ref<void()> then,
              function_ref<void()> otherwise = nullptr) {
    auto region = [&](function_ref<void()> fn) {
      return [&, fn](OpBuilder &, Location) {
        fn();
        scf::YieldOp::create(b, loc);
      };
    };
    if (otherwise)
      scf::IfOp::create(b, loc, cond, region(then), region(otherwise));
    else
      scf::IfOp::create(b, loc, cond, region(then));
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
    return vector::MaskedLoadOp::create(b, loc, vec, flat, address, laneMask,
                                        zeros());
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

  /// Called once per unrolled group of the innermost loop's steps, with
  /// B's offset at its first step.
  using GroupHook = function_ref<void(Value bK)>;

  /// Loops over the micro-kernel's K dimensions (kDims[numBlockDims...]),
  /// from `level`, carrying the accumulators.
  SmallVector<Value> innerLoops(unsigned level, Value aK, Value bK,
                                SmallVector<Value> accs, Step step,
                                GroupHook group = nullptr);

  /// Prefetches of `lines` lines, `at(line)` each, spread evenly over the
  /// micro-kernel's groups of k steps: called with a group's index, or
  /// null. The three below are such, for outerProductTile's GroupHook.
  std::function<void(Value)> spreadPrefetches(int64_t lines, Value flat,
                                              bool write, int locality,
                                              std::function<Value(Value)> at);

  /// The micro-kernel's prefetches of its share of the next K block's
  /// lines of B's panel (GemmPlan::nextBLines), from the tile's first row
  /// `ir`, its panel's offset in the packed B `bCol` (this block's) and
  /// the block's index (spreadPrefetches).
  std::function<void(Value)> nextBlockPrefetches(Value ir, Value bCol,
                                                 Value blockIndex,
                                                 int64_t numBlocks);

  /// The micro-kernel's prefetches of its share of the next register
  /// tile's rows of A in the K block at `aK` (A copied row by row), from
  /// the tile's first row `ir` and its panel's first column `jr`
  /// (spreadPrefetches).
  std::function<void(Value)> nextTilePrefetches(Value ir, Value jr, Value aK);

  /// The micro-kernel's prefetches, for writing, of the lines of C its
  /// tile (rows from `ir`, `nv` vectors from column `jr`) updates after
  /// its K loop (spreadPrefetches).
  std::function<void(Value)> tileCPrefetches(Value ir, Value jr, int64_t nv);

  //===--------------------------------------------------------------------===//
  // Stores
  //===--------------------------------------------------------------------===//

  /// The value of C at the end of this K block: acc, or acc plus the
  /// partial sums stored by earlier blocks (or C's initial value).
  Value combine(Phase phase, Value acc, Value cAddr, Value laneMask);

  /// Stores `value` (C's value at row `row`, columns from `col`) to C, or
  /// its epilogue to D when this is the last block.
  void store(Phase phase, Value value, Value row, Value col, Value cAddr,
             Value laneMask);

  /// Prefetches what the epilogue of the tile at `rows` (from `ir`, up to
  /// `mEnd`), columns from `col` (`nv` vectors wide) reads and writes,
  /// ahead of its K loop.
  void prefetchEpilogue(ArrayRef<Value> rows, Value ir, Value mEnd, Value col,
                        int64_t nv);

  /// Whether the epilogue runs row by row in a loop over the tile's rows,
  /// from the accumulators stored to `accTile`, rather than unrolled.
  bool epilogueByRows() const;

  /// A loop over the rows from `ir` of the tile, up to `mEnd`: `fn(row,
  /// r)` emits row ir + r.
  void forTileRows(Value ir, Value mEnd, function_ref<void(Value, Value)> fn);

  /// Emits `fn(phase)` once per phase the K block `blockIndex` may be in.
  void byPhase(Value blockIndex, int64_t numBlocks,
               function_ref<void(Phase)> fn);

  //===--------------------------------------------------------------------===//
  // Register tiles
  //===--------------------------------------------------------------------===//

  /// Rows ir .. ir+mr, clamped to C. Rows in groups that each lie in one
  /// line of every access (lineGroup) are recorded in rowInLine.
  SmallVector<Value> tileRows(Value ir);

  /// Guards a store to row ir + r when the tile may stick out of the block.
  void guardedRow(Value ir, int64_t r, Value mEnd, function_ref<void()> fn);

  void outerProductTile(Value ir, Value jr, Value width, Value mEnd, Value aK,
                        Value bK, Value blockIndex, int64_t numBlocks);

  void dotTile(Value ir, Value jr, Value mEnd, Value nEnd, Value aK, Value bK,
               Value blockIndex, int64_t numBlocks);

  //===--------------------------------------------------------------------===//
  // Blocks
  //===--------------------------------------------------------------------===//

  /// The block loops this code runs: nnc::cpu::blockLoops, the outermost
  /// cut to a slice's share when K is split.
  SmallVector<std::pair<unsigned, int64_t>> blockLoops();

  /// Loops over K blocks; `fn(aK, bK, blockIndex)` emits one block.
  void forEachBlock(function_ref<void(Value, Value, Value)> fn);

  void tile(Value ir, Value jr, Value mEnd, Value nEnd, Value aK, Value bK,
            Value blockIndex, int64_t blocks);

  /// The C blocks, spread over the threads (with the K slices when K is
  /// split: then C is `partial`, one dense copy per slice).
  void emitBlocks(Value partial);

  void emit();

  //===--------------------------------------------------------------------===//
  // Copies (ContractionCopies.cpp)
  //===--------------------------------------------------------------------===//

  /// Copies B into nr-wide panels: [N/nr][K][nr], K in the kernel's
  /// order, zeros past N. Returns the buffer.
  Value packB();

  /// Copies the tile's rows from ir of A's K block at `aK` into `aTile`.
  void packA(Value ir, Value aK);

  /// packA's k-major copy of rows that run along K in A.
  void packAPanelFromRows(Value ir, Value aK);

  /// Slice `s` of `partial`: a dense copy of C.
  Value sliceView(Value partial, Value s);

  /// C (+)= the slices' sums, through the epilogue: a vector of columns at
  /// a time, rows spread over the threads.
  void addSlices(Value partial);
};

} // namespace nnc::cpu::emit

#endif // NNC_CODEGEN_CPU_CONTRACTIONEMITTER_H
