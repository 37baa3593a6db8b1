//===- TileMatmul.cpp - the nn-tile-matmul pass ---------------------------===//
//
// Part of nnc. Register-blocked matrix products on the CPU: parallel blocks,
// register tiles, one outer product per k step, the accumulators hoisted out
// of the k loop.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nnc {
#define GEN_PASS_DEF_NNTILEMATMUL
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kKLoop = "nn.k_loop";

/// The largest of `choices` that divides `size`, or 0.
int64_t largestDivisor(int64_t size, ArrayRef<int64_t> choices) {
  for (int64_t c : choices)
    if (size % c == 0)
      return c;
  return 0;
}

FailureOr<Operation *> tile(RewriterBase &rewriter, Operation *op,
                            ArrayRef<int64_t> sizes,
                            scf::SCFTilingOptions::LoopType loops) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setLoopType(loops);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
  if (failed(tiled) || tiled->tiledOps.size() != 1)
    return failure();
  rewriter.eraseOp(op); // on buffers the tiled loops replace it
  return tiled->tiledOps.front();
}

/// Keeps the C tile in registers across the k loop: its transfer_read moves
/// before the loop, the value is carried as an iteration argument, and its
/// transfer_write moves after. (linalg's hoisting stops at subviews.)
void hoistAccumulator(RewriterBase &rewriter, scf::ForOp loop) {
  vector::TransferWriteOp write;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto w = dyn_cast<vector::TransferWriteOp>(op))
      write = write ? vector::TransferWriteOp() : w; // exactly one
  if (!write)
    return;
  // The C tile's subview depends on the outer loops only.
  if (auto view = write.getBase().getDefiningOp<memref::SubViewOp>())
    if (view->getParentOp() == loop &&
        llvm::all_of(view->getOperands(),
                     [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      rewriter.moveOpBefore(view, loop);
  if (!loop.isDefinedOutsideOfLoop(write.getBase()) ||
      !llvm::all_of(write.getIndices(),
                    [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
    return;
  vector::TransferReadOp read;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto r = dyn_cast<vector::TransferReadOp>(op))
      if (r.getBase() == write.getBase() &&
          r.getIndices() == write.getIndices() &&
          r.getVectorType() == write.getVectorType() &&
          loop.isDefinedOutsideOfLoop(r.getPadding()))
        read = r;
  if (!read || !read->isBeforeInBlock(write))
    return;
  rewriter.moveOpBefore(read, loop);
  Value updated = write.getVector();
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, read.getResult(), /*replaceInitOperandUsesInLoop=*/true,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{updated};
      });
  if (failed(grown))
    return;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  rewriter.moveOpAfter(write, newLoop);
  rewriter.modifyOpInPlace(write, [&] {
    write.getValueToStoreMutable().assign(newLoop.getResults().back());
  });
}

struct NNTileMatmulPass : nnc::impl::NNTileMatmulBase<NNTileMatmulPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<linalg::MatmulOp> matmuls;
    func.walk([&](linalg::MatmulOp op) {
      if (op.hasPureBufferSemantics() && op.hasUserDefinedMaps() == false &&
          llvm::all_of(op->getOperandTypes(), [](Type t) {
            return cast<MemRefType>(t).hasStaticShape();
          }))
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool changed = false;
    for (linalg::MatmulOp op : matmuls) {
      auto c = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
      int64_t m = c.getDimSize(0), n = c.getDimSize(1);
      int64_t nr = largestDivisor(n, {32, 16});
      int64_t mr = largestDivisor(m, {4, 2, 1});
      if (!nr)
        continue;
      // Blocks of C for the threads: as many rows as divide M up to 64, the
      // N extent cut in pieces of 256 columns or fewer.
      int64_t mc = largestDivisor(m, {64, 32, 16, 8, 4, 2, 1});
      int64_t nc = largestDivisor(n, {256, 128, 64, 32, 16, 8});
      FailureOr<Operation *> block = tile(
          rewriter, op, {mc, nc, 0}, scf::SCFTilingOptions::LoopType::ForallOp);
      if (failed(block))
        return signalPassFailure();
      FailureOr<Operation *> kernel =
          tile(rewriter, *block, {mr, nr, 1},
               scf::SCFTilingOptions::LoopType::ForOp);
      if (failed(kernel))
        return signalPassFailure();
      if (auto k = (*kernel)->getParentOfType<scf::ForOp>())
        k->setAttr(kKLoop, rewriter.getUnitAttr());
      rewriter.setInsertionPoint(*kernel);
      if (failed(linalg::vectorize(rewriter, *kernel, {}, {}, false, false,
                                   false, /*createNamedContraction=*/true)))
        return signalPassFailure();
      rewriter.eraseOp(*kernel);
      changed = true;
    }
    if (!changed)
      return;
    // vector.contract of an (mr x 1) by (1 x nr) tile: mr outer products.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorContractLoweringPatterns(
        patterns, vector::VectorContractLowering::OuterProduct);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorOuterProductLoweringPatterns(patterns);
    vector::populateVectorMultiReductionLoweringPatterns(
        patterns, vector::VectorMultiReductionLowering::InnerParallel);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                        &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
    SmallVector<scf::ForOp> kLoops;
    func.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(kKLoop))
        kLoops.push_back(loop);
    });
    for (scf::ForOp loop : kLoops) {
      loop->removeAttr(kKLoop);
      hoistAccumulator(rewriter, loop);
    }
  }
};
} // namespace
