//===- VectorizableLoopOrder.cpp - loop order for the vector units --------===//
//
// Part of nnc. The nnc-cpu-vectorizable-loop-order pass: linalg ops whose
// output's last dimension is followed by reductions are interchanged so that
// dimension runs innermost, where LLVM vectorises it.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_VECTORIZABLELOOPORDERPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

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

struct VectorizableLoopOrderPass
    : nnc::cpu::impl::VectorizableLoopOrderPassBase<VectorizableLoopOrderPass> {
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

} // namespace
