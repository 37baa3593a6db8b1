//===- LoopOrder.cpp - loop order for the CPU's vector units --------------===//
//
// Part of nnc. The nn-vectorizable-loop-order and
// nn-sequential-inner-parallel-loops passes.
//
//===----------------------------------------------------------------------===//

#include "LoopUtils.h"
#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace nnc {
#define GEN_PASS_DEF_NNVECTORIZABLELOOPORDER
#define GEN_PASS_DEF_NNSEQUENTIALINNERPARALLELLOOPS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// The loop order that puts the output's last dimension innermost, or an
/// empty vector when the op should keep its order.
SmallVector<unsigned> vectorizableOrder(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1)
    return {};
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (out.getNumResults() == 0)
    return {};
  auto last = dyn_cast<AffineDimExpr>(out.getResults().back());
  if (!last)
    return {};
  unsigned inner = last.getPosition();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators[inner] != utils::IteratorType::parallel ||
      llvm::count(iterators, utils::IteratorType::parallel) < 2)
    return {};
  bool reductionAfter = false;
  for (unsigned d = inner + 1; d < iterators.size(); ++d)
    reductionAfter |= iterators[d] == utils::IteratorType::reduction;
  if (!reductionAfter)
    return {};
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (d != inner && iterators[d] == utils::IteratorType::parallel)
      order.push_back(d);
  for (unsigned d = 0; d < iterators.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      order.push_back(d);
  order.push_back(inner);
  return order;
}

struct NNVectorizableLoopOrderPass
    : nnc::impl::NNVectorizableLoopOrderBase<NNVectorizableLoopOrderPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!vectorizableOrder(op).empty())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> g =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(g))
          continue;
        generic = *g;
      }
      SmallVector<unsigned> order = vectorizableOrder(generic);
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order)))
        return signalPassFailure();
    }
  }
};

struct NNSequentialInnerParallelLoopsPass
    : nnc::impl::NNSequentialInnerParallelLoopsBase<
          NNSequentialInnerParallelLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> inner;
    getOperation().walk([&](scf::ParallelOp op) {
      if (op->getParentOfType<scf::ParallelOp>() && op.getNumReductions() == 0)
        inner.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp op : inner)
      nnc::sequentialize(rewriter, op);
  }
};
} // namespace
