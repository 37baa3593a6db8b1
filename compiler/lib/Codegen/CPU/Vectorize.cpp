//===- Vectorize.cpp - the nnc-cpu-vectorize pass -------------------------===//
//
// Part of nnc. Elementwise ops, reductions and copies on the CPU: threads
// over the outer parallel loops, vectors along the output's innermost
// (contiguous) dimension, accumulators kept in registers.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Utils/GreedyConfig.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace nnc::cpu {
#define GEN_PASS_DEF_VECTORIZEPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
/// The most vectors a reduction's loop step takes (accumulatorVectors).
constexpr int64_t kAccumulatorVectors = 4;

/// The loop of the output's innermost dimension, when it is a parallel loop
/// and every map is a projected permutation.
std::optional<unsigned> vectorLoop(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() == 0 ||
      op.hasDynamicShape() || op.getNumLoops() == 0)
    return std::nullopt;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return std::nullopt;
  // Several outputs (sums of one pass) share their map and element type.
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  Type element = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  for (OpOperand &init : op.getDpsInitsMutable())
    if (op.getMatchingIndexingMap(&init) != out ||
        getElementTypeOrSelf(init.get()) != element)
      return std::nullopt;
  if (out.getNumResults() == 0)
    return std::nullopt;
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  if (!last || op.getIteratorTypesArray()[last.getPosition()] !=
                   utils::IteratorType::parallel)
    return std::nullopt;
  return last.getPosition();
}

/// Whether `map` reads the loop dimensions `group` as consecutive results
/// in their order, or not at all, and no other result involves them, for
/// any affine results. (Not linalg::isDimSequencePreserved, which expects
/// projected permutations: for a flipped filter's `(2 - d0, 2 - d1, d3,
/// d2)` it answered true now and then.)
bool keepsTogether(AffineMap map, ReassociationIndicesRef group) {
  unsigned found = 0;
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    bool member = dim && llvm::is_contained(group, dim.getPosition());
    if (!member) {
      if (found != 0 && found != group.size())
        return false; // the run was cut short
      if (llvm::any_of(group, [&](int64_t d) { return e.isFunctionOfDim(d); }))
        return false;
      continue;
    }
    if (found == group.size() ||
        dim.getPosition() != static_cast<unsigned>(group[found]))
      return false;
    ++found;
  }
  return found == 0 || found == group.size();
}

/// How the dimensions of an operand indexed by `map` regroup when the
/// iteration dimensions `group` become one: the results that iterate over
/// them (contiguous, in order) merge, the others stay alone.
SmallVector<ReassociationIndices> operandGroups(AffineMap map,
                                                ReassociationIndicesRef group) {
  SmallVector<ReassociationIndices> groups;
  for (unsigned r = 0; r < map.getNumResults(); ++r) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(r));
    bool inGroup = dim && llvm::is_contained(group, dim.getPosition());
    if (inGroup && dim.getPosition() != group.front())
      groups.back().push_back(r);
    else
      groups.push_back({static_cast<int64_t>(r)});
  }
  return groups;
}

/// An elementwise op whose innermost dimension is too short for whole
/// vectors (an image's 3 channels, the 68 of LRN's padded window buffer)
/// iterates over its trailing dimensions as one when every operand holds
/// them contiguously: the fill and copy of a padded image then store whole
/// vectors, not one element at a time with a division per index. Returns
/// the op to vectorise (`op` itself when nothing merged).
linalg::LinalgOp collapseTrailing(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t vectorBits) {
  if (!isa<linalg::GenericOp, linalg::CopyOp, linalg::FillOp>(op) ||
      !op.hasPureBufferSemantics() || op.hasDynamicShape() ||
      op.getNumDpsInits() != 1 || op.hasIndexSemantics())
    return op;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  int64_t lanes = vectorBits / std::max(outType.getElementTypeBitWidth(), 8u);
  int64_t n = ranges.size();
  if (n < 2 || iters.back() != utils::IteratorType::parallel)
    return op;
  auto mergeable = [&](const ReassociationIndices &group) {
    if (llvm::any_of(group,
                     [&](int64_t d) {
                       return iters[d] != utils::IteratorType::parallel;
                     }) ||
        !llvm::all_of(maps,
                      [&](AffineMap map) { return keepsTogether(map, group); }))
      return false;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (type &&
          !memref::CollapseShapeOp::isGuaranteedCollapsible(
              type, operandGroups(op.getMatchingIndexingMap(&operand), group)))
        return false;
    }
    return true;
  };
  ReassociationIndices group;
  int64_t size = ranges.back();
  for (int64_t d = n - 2; d >= 0 && size % lanes; --d) {
    ReassociationIndices wider = llvm::to_vector(llvm::seq<int64_t>(d, n));
    if (!mergeable(wider))
      break;
    group = wider;
    size *= ranges[d];
  }
  if (group.empty())
    return op;
  // Every memref operand viewed with the group's dimensions merged; they
  // are the trailing ones, so each map keeps the first for all of them.
  // (Built here rather than by linalg::collapseOpIterationDims, which
  // corrupted the maps of a few ops, now and then, when functions were
  // vectorised on several threads.)
  rewriter.setInsertionPoint(op);
  Location loc = op.getLoc();
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    if (isa<MemRefType>(v.getType()))
      v = memref::CollapseShapeOp::create(
          rewriter, loc, v,
          operandGroups(op.getMatchingIndexingMap(&operand), group));
    operands.push_back(v);
  }
  ValueRange ins = ValueRange(operands).drop_back(),
             outs = ValueRange(operands).take_back();
  Operation *flat;
  if (isa<linalg::FillOp>(op.getOperation())) {
    flat = linalg::FillOp::create(rewriter, loc, ins, outs);
  } else if (isa<linalg::CopyOp>(op.getOperation())) {
    flat = linalg::CopyOp::create(rewriter, loc, ins.front(), outs.front());
  } else {
    MLIRContext *ctx = rewriter.getContext();
    int64_t merged = group.size() - 1;
    SmallVector<AffineExpr> dims;
    for (int64_t d = 0; d < n; ++d)
      dims.push_back(getAffineDimExpr(std::min(d, group.front()), ctx));
    SmallVector<AffineMap> flatMaps;
    for (AffineMap map : maps) {
      SmallVector<AffineExpr> results;
      for (AffineExpr e : map.getResults()) {
        auto dim = dyn_cast<AffineDimExpr>(e);
        if (dim && llvm::is_contained(group, dim.getPosition()) &&
            dim.getPosition() != group.front())
          continue;
        results.push_back(e.replaceDims(dims));
      }
      flatMaps.push_back(AffineMap::get(n - merged, 0, results, ctx));
    }
    SmallVector<utils::IteratorType> flatIters(iters.begin(),
                                               iters.end() - merged);
    auto generic = linalg::GenericOp::create(rewriter, loc, TypeRange{}, ins,
                                             outs, flatMaps, flatIters);
    rewriter.inlineRegionBefore(op->getRegion(0), generic.getRegion(),
                                generic.getRegion().end());
    flat = generic;
  }
  rewriter.eraseOp(op);
  return cast<linalg::LinalgOp>(flat);
}

/// Tiles `op` with `sizes` (0: not tiled) in loops of `type`; the tiled op.
FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *op,
                            ArrayRef<int64_t> sizes,
                            scf::SCFTilingOptions::LoopType type,
                            ArrayRef<int64_t> order = {}) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(type);
  if (!order.empty())
    options.setInterchange(order);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  rewriter.eraseOp(op); // on buffers, the loops replace it
  return tiled->tiledOps.front();
}

/// Keeps a reduction's accumulators in registers: each transfer_write of
/// an output tile in `loop`'s body, with its transfer_read there, indices
/// and base defined outside it, moves out of the loop; the values are
/// carried as iteration arguments. A reduction with several outputs (batch
/// normalisation's two sums over the same pass) has one pair each.
/// Returns the new loop, or null.
scf::ForOp hoistAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  SmallVector<vector::TransferWriteOp> writes;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto w = dyn_cast<vector::TransferWriteOp>(op))
      writes.push_back(w);
  if (writes.empty())
    return nullptr;
  // Constants and the tile's view, made in the loop by tiling and
  // vectorisation, go before it when they depend on nothing in it.
  std::function<bool(Value)> outside = [&](Value v) {
    if (loop.isDefinedOutsideOfLoop(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!def || def->getParentOp() != loop ||
        !(def->hasTrait<OpTrait::ConstantLike>() ||
          isa<memref::SubViewOp>(def)) ||
        !llvm::all_of(def->getOperands(), outside))
      return false;
    rewriter.moveOpBefore(def, loop);
    return true;
  };
  SmallVector<vector::TransferReadOp> reads;
  for (vector::TransferWriteOp write : writes) {
    if (!outside(write.getBase()) || !llvm::all_of(write.getIndices(), outside))
      return nullptr;
    vector::TransferReadOp read;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto r = dyn_cast<vector::TransferReadOp>(op))
        if (r.getBase() == write.getBase() &&
            llvm::equal(r.getIndices(), write.getIndices(),
                        [](Value x, Value y) {
                          return isEqualConstantIntOrValue(x, y);
                        }) &&
            r.getVectorType() == write.getVectorType())
          read = read ? vector::TransferReadOp() : r;
    // Nothing else in the loop may touch the output tile.
    if (!read || !outside(read.getPadding()) || !read->isBeforeInBlock(write) ||
        llvm::any_of(write.getBase().getUsers(), [&](Operation *user) {
          return user != read && user != write && loop->isAncestor(user);
        }))
      return nullptr;
    reads.push_back(read);
  }
  SmallVector<Value> initial, updated;
  for (auto [read, write] : llvm::zip_equal(reads, writes)) {
    rewriter.moveOpBefore(read, loop);
    initial.push_back(read.getResult());
    updated.push_back(write.getVector());
  }
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, initial, /*replaceInitOperandUsesInLoop=*/true,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) { return updated; });
  if (failed(grown))
    return nullptr;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  ValueRange results = newLoop.getResults().take_back(writes.size());
  Operation *after = newLoop;
  for (auto [write, result] : llvm::zip_equal(writes, results)) {
    rewriter.moveOpAfter(write, after);
    after = write;
    rewriter.modifyOpInPlace(
        write, [&] { write.getValueToStoreMutable().assign(result); });
  }
  return newLoop;
}

/// Whether `op` sums a whole tensor into a scalar: an `out + f(in)` body,
/// one static input with the identity layout read with the identity map.
bool isFullSum(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() < 2 ||
      op.getNumParallelLoops() != 0 || op.hasIndexSemantics())
    return false;
  auto in = dyn_cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  auto out = dyn_cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!in || !out || out.getRank() != 0 || !in.hasStaticShape() ||
      !in.getLayout().isIdentity() ||
      !op.getMatchingIndexingMap(op.getDpsInputOperand(0)).isIdentity())
    return false;
  Block &body = op.getRegion().front();
  auto add = dyn_cast<arith::AddFOp>(
      body.getTerminator()->getOperand(0).getDefiningOp());
  Value acc = body.getArgument(1);
  return add && (add.getLhs() == acc || add.getRhs() == acc) && acc.hasOneUse();
}

/// The shape (and reassociation) that views `in` as [P, rows / P, middle
/// dims..., cols / L, L] for P `threads` and L `lanes`; false when it does
/// not divide.
bool fullSumView(MemRefType in, int64_t threads, int64_t lanes,
                 SmallVector<int64_t> &shape,
                 SmallVector<ReassociationIndices> &groups) {
  int64_t rank = in.getRank(), rows = in.getDimSize(0);
  if (rank == 1) {
    // One dimension: it is both the threads' and the lanes' dimension.
    if (rows % (threads * lanes))
      return false;
    shape = {threads, rows / (threads * lanes), lanes};
    groups = {{0, 1, 2}};
    return true;
  }
  shape = {threads, rows / threads};
  groups = {{0, 1}};
  for (int64_t d = 1; d + 1 < rank; ++d) {
    groups.push_back({static_cast<int64_t>(shape.size())});
    shape.push_back(in.getDimSize(d));
  }
  groups.push_back({static_cast<int64_t>(shape.size()),
                    static_cast<int64_t>(shape.size()) + 1});
  shape.push_back(in.getShape().back() / lanes);
  shape.push_back(lanes);
  return true;
}

/// A sum of a whole tensor into a scalar (isFullSum) is split so threads
/// and vectors can share it: partial sums [P, L] of the input viewed as
/// [P, rows / P, cols / L, L] (P threads' rows, L lanes), then the scalar
/// plus the P * L partials. Returns the partial op, or null when the op
/// does not fit.
linalg::GenericOp splitFullSum(RewriterBase &rewriter, linalg::GenericOp op,
                               int64_t vectorBits) {
  if (!isFullSum(op))
    return nullptr;
  auto in = cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
  auto out = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  int64_t rows = in.getDimSize(0), cols = in.getShape().back();
  int64_t lanes = vectorBits / out.getElementTypeBitWidth();
  while (lanes > 1 && cols % lanes)
    lanes /= 2;
  int64_t threads = 16;
  while (threads > 1 && rows % threads)
    --threads;
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> groups;
  if (lanes == 1 || in.getNumElements() < 4096 ||
      !fullSumView(in, threads, lanes, shape, groups))
    return nullptr;

  Location loc = op.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  Value view = memref::ExpandShapeOp::create(
      rewriter, loc, MemRefType::get(shape, in.getElementType()),
      op.getDpsInputOperand(0)->get(), groups);
  Type elt = out.getElementType();
  Value partial = memref::AllocOp::create(
      rewriter, loc, MemRefType::get({threads, lanes}, elt));
  Value zero =
      arith::ConstantOp::create(rewriter, loc, elt, rewriter.getZeroAttr(elt));
  linalg::FillOp::create(rewriter, loc, zero, partial);
  unsigned n = shape.size();
  SmallVector<utils::IteratorType> iters(n, utils::IteratorType::reduction);
  iters.front() = iters.back() = utils::IteratorType::parallel;
  AffineMap partialMap = AffineMap::get(
      n, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(n - 1, ctx)}, ctx);
  auto partials = linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, ValueRange{view}, ValueRange{partial},
      {AffineMap::getMultiDimIdentityMap(n, ctx), partialMap}, iters);
  rewriter.cloneRegionBefore(op.getRegion(), partials.getRegion(),
                             partials.getRegion().end());
  // out + sum of the partials.
  linalg::GenericOp::create(
      rewriter, loc, TypeRange{}, ValueRange{partial},
      ValueRange{op.getDpsInitOperand(0)->get()},
      {AffineMap::getMultiDimIdentityMap(2, ctx), AffineMap::get(2, 0, ctx)},
      {utils::IteratorType::reduction, utils::IteratorType::reduction},
      [](OpBuilder &b, Location l, ValueRange a) {
        linalg::YieldOp::create(
            b, l, arith::AddFOp::create(b, l, a[1], a[0]).getResult());
      });
  memref::DeallocOp::create(rewriter, loc, partial);
  rewriter.eraseOp(op);
  return partials;
}

/// How many vectors of the vector loop `v` (`vectors` in all) each
/// iteration of reduction `op`'s innermost loop takes: up to
/// kAccumulatorVectors, where every operand that varies along `v` is
/// contiguous along it. One vector's accumulator is a chain of adds, one
/// per reduction step, each waiting for the last, and each step reads one
/// vector from a row C elements after the last (a channel sum over an
/// image's columns); four side by side are four chains and a whole
/// 256-byte run of each row. A read that steps along `v` by more than one
/// element (a transposed operand) is a gather of single lanes, four times
/// longer for no gain: one vector.
int64_t accumulatorVectors(linalg::LinalgOp op, unsigned v, int64_t vectors) {
  for (AffineMap map : op.getIndexingMapsArray()) {
    if (!map.isFunctionOfDim(v))
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!last || last.getPosition() != v)
      return 1;
  }
  int64_t n = 1;
  while (n < kAccumulatorVectors && vectors % (n * 2) == 0)
    n *= 2;
  return n;
}

struct VectorizePass : nnc::cpu::impl::VectorizePassBase<VectorizePass> {
  using Base::Base;

  LogicalResult vectorizeOne(RewriterBase &rewriter, linalg::LinalgOp op,
                             unsigned v) {
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
    auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
    unsigned bits = outType.getElementTypeBitWidth();
    // The widest vector that divides the dimension: static tiles, no masks
    // (channel counts are multiples of 8 but for the very first and last
    // layers).
    int64_t lanes = std::max<int64_t>(vectorBits / std::max(bits, 8u), 1);
    while (lanes > 1 && ranges[v] % lanes)
      lanes /= 2;
    if (lanes == 1)
      return failure();
    // Threads take the other parallel loops one iteration at a time; when
    // there are none, blocks of the vector loop.
    SmallVector<int64_t> outer(ranges.size(), 0), inner(ranges.size(), 0);
    bool anyOuter = false;
    for (unsigned d = 0; d < ranges.size(); ++d)
      if (iters[d] == utils::IteratorType::parallel && d != v) {
        outer[d] = 1;
        anyOuter = true;
      }
    if (!anyOuter) {
      int64_t vectors = ranges[v] / lanes;
      int64_t perThread = 1;
      while (vectors % (perThread * 2) == 0 && vectors / (perThread * 2) >= 16)
        perThread *= 2;
      outer[v] = lanes * perThread;
    }
    bool reduces = llvm::is_contained(iters, utils::IteratorType::reduction);
    int64_t width =
        reduces ? lanes * accumulatorVectors(op, v, ranges[v] / lanes) : lanes;
    if (outer[v])
      width = std::gcd(width, outer[v]);
    FailureOr<Operation *> block =
        tile(rewriter, op, outer, scf::SCFTilingOptions::LoopType::ForallOp);
    if (failed(block))
      return failure();
    for (unsigned d = 0; d < ranges.size(); ++d)
      inner[d] =
          d == v ? width : (iters[d] == utils::IteratorType::reduction ? 1 : 0);
    // The vector loop outside the reductions, so each vector's accumulator
    // can stay in registers across them.
    SmallVector<int64_t> order = {static_cast<int64_t>(v)};
    for (unsigned d = 0; d < ranges.size(); ++d)
      if (d != v)
        order.push_back(d);
    FailureOr<Operation *> piece = tile(
        rewriter, *block, inner, scf::SCFTilingOptions::LoopType::ForOp, order);
    if (failed(piece))
      return failure();
    rewriter.setInsertionPoint(*piece);
    FailureOr<linalg::VectorizationResult> result =
        linalg::vectorize(rewriter, *piece);
    if (failed(result))
      return failure();
    Block *body = (*piece)->getBlock();
    if (result->replacements.empty())
      rewriter.eraseOp(*piece);
    else
      rewriter.replaceOp(*piece, result->replacements);
    // Out of the reduction loops, innermost first.
    if (reduces)
      for (auto loop = dyn_cast<scf::ForOp>(body->getParentOp()); loop;
           loop = dyn_cast<scf::ForOp>(loop->getParentOp())) {
        loop = hoistAccumulator(rewriter, loop);
        if (!loop)
          break;
      }
    return success();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> sums;
    getOperation().walk([&](linalg::GenericOp op) { sums.push_back(op); });
    for (linalg::GenericOp op : sums)
      splitFullSum(rewriter, op, vectorBits);
    SmallVector<std::pair<linalg::LinalgOp, unsigned>> ops;
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) { candidates.push_back(op); });
    for (linalg::LinalgOp op : candidates) {
      op = collapseTrailing(rewriter, op, vectorBits);
      if (std::optional<unsigned> v = vectorLoop(op))
        ops.push_back({op, *v});
    }
    // An op that cannot be vectorised stays a (possibly tiled) linalg op.
    for (auto [op, v] : ops)
      (void)vectorizeOne(rewriter, op, v);
    // Nothing vectorised here (a contraction kernel, already in vectors,
    // or a nest of loops): nothing for the patterns below, whose driver
    // would visit and fold every op of it (0.2 s of Inception-v3's compile,
    // most of this pass). The canonicaliser after this pass folds them; in
    // ResNet-50 and Inception-v3 a few more kernels then merge.
    if (ops.empty())
      return;
    // vector<1x1x8xf32> -> vector<8xf32>.
    RewritePatternSet patterns(&getContext());
    vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
    vector::populateVectorTransferDropUnitDimsPatterns(patterns);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorTransferLoweringPatterns(patterns, /*maxRank=*/1);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    // No region simplification: these rewrites leave no block to merge or
    // erase (every model's LLVM dialect is the same without it).
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     nnc::withoutRegionSimplification())))
      return signalPassFailure();
  }
};
} // namespace
