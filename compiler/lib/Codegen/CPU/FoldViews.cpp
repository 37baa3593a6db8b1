//===- FoldViews.cpp - the nnc-cpu-fold-views pass ------------------------===//
//
// Part of nnc. Upstream's fold-memref-alias-ops and expand-strided-metadata
// rewrites, run by the greedy driver without its region simplification.
// Upstream's passes run them with the driver's defaults, which after every
// iteration walk the whole function again to merge blocks and erase dead
// ones; these rewrites create neither. They run on every kernel that holds
// a view, hundreds of them in Inception-v3 (docs/bench.md). One sweep each:
// the driver's worklist revisits what a rewrite creates, and a second sweep
// over the whole kernel found nothing (every model's LLVM dialect is the
// same; Inception-v3's AVX-512 MLIR passes executed 17.21 G instructions
// instead of 17.31 G).
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Utils/GreedyConfig.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_FOLDVIEWSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
struct FoldViewsPass : nnc::cpu::impl::FoldViewsPassBase<FoldViewsPass> {
  using Base::Base;

  void runOnOperation() override {
    GreedyRewriteConfig config = nnc::withoutRegionSimplification();
    config.setMaxIterations(1);
    RewritePatternSet folds(&getContext());
    memref::populateFoldMemRefAliasOpPatterns(folds);
    (void)applyPatternsGreedily(getOperation(), std::move(folds), config);
    if (!expandMetadata)
      return;
    RewritePatternSet expansions(&getContext());
    memref::populateExpandStridedMetadataPatterns(expansions);
    (void)applyPatternsGreedily(getOperation(), std::move(expansions), config);
  }
};
} // namespace
