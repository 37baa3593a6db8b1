//===- LoopUtils.cpp - loop rewrites shared by nnc's passes ---------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Utils/LoopUtils.h"

using namespace mlir;

void nnc::sequentialize(RewriterBase &rewriter, scf::ParallelOp op) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<Value> ivs;
  Location loc = op.getLoc();
  for (auto [lb, ub, step] :
       llvm::zip(op.getLowerBound(), op.getUpperBound(), op.getStep())) {
    auto loop = scf::ForOp::create(rewriter, loc, lb, ub, step);
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPoint(loop.getBody()->getTerminator());
  }
  Block *body = op.getBody();
  rewriter.eraseOp(body->getTerminator()); // scf.reduce, no operands
  rewriter.inlineBlockBefore(body, rewriter.getInsertionBlock(),
                             rewriter.getInsertionPoint(), ivs);
  rewriter.eraseOp(op);
}

bool nnc::isStraightLine(mlir::Region &body) {
  return body.empty() || (body.hasOneBlock() &&
                          llvm::all_of(body.front(), [](mlir::Operation &op) {
                            return op.getNumRegions() == 0;
                          }));
}
