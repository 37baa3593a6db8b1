//===- FuseElementwise.cpp - the nnc-fuse-elementwise pass ----------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"
#include "nnc/Utils/GreedyConfig.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nnc {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {

/// Whether the consumer of `operand` reads each element of it once: its
/// indexing map for the operand is a permutation of all its loops. A map
/// that leaves loops out repeats every element over those loops.
bool readOnce(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!consumer)
    return true; // Reshapes and other ops read each element once.
  return consumer.getMatchingIndexingMap(operand).isPermutation();
}

/// Fuse a producer with one use when its elements are computed once still.
bool fusable(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  return producer && producer->hasOneUse() && readOnce(operand);
}

struct FuseElementwisePass
    : nnc::impl::FuseElementwisePassBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, fusable);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, fusable);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    // Not the linalg dialect's canonicalisations (tensor casts, ops on
    // empty tensors, static sizes inferred from the other operands): nn
    // models have none of those to fold, and the pass spent a third of its
    // time asking (Inception-v3: 1.27 G instructions, 0.89 G without; every
    // model's linalg is the same). The canonicaliser that follows has them.
    // No region simplification: the functions are one block, and it ran
    // dead-code analysis over every op and linalg body after each
    // iteration, for nothing (every model's linalg is the same without it;
    // Inception-v3's pass, on one thread: 0.26 -> 0.21 s).
    // Nor folding: the canonicaliser that follows folds, and the driver
    // asked every op it visited, again at each iteration. Without it only
    // the order of a few constants differs at the linalg stage; every
    // model's LLVM dialect and CUDA gpu stage are the same, and
    // Inception-v3's linalg stage took 2.79 G instructions, 3.02 G with.
    GreedyRewriteConfig config = nnc::withoutRegionSimplification();
    config.enableFolding(false);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
