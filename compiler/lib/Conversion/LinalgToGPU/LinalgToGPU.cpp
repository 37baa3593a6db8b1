//===- LinalgToGPU.cpp - the convert-linalg-to-gpu pass -------------------===//
//
// Part of nnc. One kernel per linalg op (fusion happened on tensors): one
// thread per iteration of its parallel loops, on a flat grid.
//
//===----------------------------------------------------------------------===//

#include "nnc/Conversion/Passes.h"
#include "nnc/Utils/LoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace nnc {
#define GEN_PASS_DEF_CONVERTLINALGTOGPUPASS
#include "nnc/Conversion/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
constexpr int64_t kBlockSize = 256;

/// A launch of `blocks` x `threads` threads with an empty body; the builder
/// is left inside it.
gpu::LaunchOp launch(RewriterBase &rewriter, Location loc, int64_t blocks,
                     int64_t threads) {
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value one = c(1);
  auto op = gpu::LaunchOp::create(rewriter, loc, c(blocks), one, one,
                                  c(threads), one, one);
  rewriter.setInsertionPointToEnd(&op.getBody().front());
  gpu::TerminatorOp::create(rewriter, loc);
  rewriter.setInsertionPointToStart(&op.getBody().front());
  return op;
}

/// Moves `ops` (a contiguous run) into a one-thread launch.
void runOnOneThread(RewriterBase &rewriter, ArrayRef<Operation *> ops) {
  rewriter.setInsertionPoint(ops.front());
  launch(rewriter, ops.front()->getLoc(), 1, 1);
  Operation *terminator = rewriter.getInsertionBlock()->getTerminator();
  for (Operation *op : ops)
    rewriter.moveOpBefore(op, terminator);
}

/// Replaces `loop` (static bounds) by a launch with one thread per
/// iteration. Nested parallel loops run sequentially in each thread.
LogicalResult mapToLaunch(RewriterBase &rewriter, scf::ParallelOp loop) {
  SmallVector<scf::ParallelOp> inner;
  loop.getBody()->walk([&](scf::ParallelOp p) { inner.push_back(p); });
  for (scf::ParallelOp p : llvm::reverse(inner))
    nnc::sequentialize(rewriter, p);
  SmallVector<int64_t> lbs, trips, steps;
  int64_t total = 1;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (!l || !u || !s || *s <= 0)
      return loop.emitError("a GPU kernel needs static loop bounds");
    lbs.push_back(*l);
    steps.push_back(*s);
    trips.push_back(std::max<int64_t>(0, (*u - *l + *s - 1) / *s));
    total *= trips.back();
  }
  if (total == 0) {
    rewriter.eraseOp(loop);
    return success();
  }
  Location loc = loop.getLoc();
  int64_t threads = std::min(kBlockSize, total);
  int64_t blocks = (total + threads - 1) / threads;
  rewriter.setInsertionPoint(loop);
  gpu::LaunchOp op = launch(rewriter, loc, blocks, threads);
  auto c = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value id = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(rewriter, loc, op.getBlockIds().x, c(threads)),
      op.getThreadIds().x);
  if (total % threads) {
    Value inside = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, id, c(total));
    auto guard = scf::IfOp::create(rewriter, loc, inside);
    rewriter.setInsertionPointToStart(&guard.getThenRegion().front());
  }
  // Innermost dimension fastest: neighbouring threads, neighbouring
  // elements.
  IRMapping map;
  Value rest = id;
  for (unsigned i = trips.size(); i-- > 0;) {
    Value index = rest;
    if (i > 0) {
      index = arith::RemUIOp::create(rewriter, loc, rest, c(trips[i]));
      rest = arith::DivUIOp::create(rewriter, loc, rest, c(trips[i]));
    }
    Value iv = arith::AddIOp::create(
        rewriter, loc, c(lbs[i]),
        arith::MulIOp::create(rewriter, loc, index, c(steps[i])));
    map.map(loop.getInductionVars()[i], iv);
  }
  for (Operation &nested : loop.getBody()->without_terminator())
    rewriter.clone(nested, map);
  rewriter.eraseOp(loop);
  return success();
}

/// `op` with its parallel loops outermost (in their order), generalised if
/// that needs an interchange: one thread per output element, reductions
/// sequential inside.
FailureOr<linalg::LinalgOp> parallelFirst(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < iters.size(); ++d)
    if (iters[d] == utils::IteratorType::parallel)
      order.push_back(d);
  for (unsigned d = 0; d < iters.size(); ++d)
    if (iters[d] != utils::IteratorType::parallel)
      order.push_back(d);
  if (llvm::equal(order, llvm::seq<unsigned>(0, iters.size())))
    return op;
  rewriter.setInsertionPoint(op);
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
    if (failed(g))
      return failure();
    generic = *g;
  }
  FailureOr<linalg::GenericOp> swapped =
      linalg::interchangeGenericOp(rewriter, generic, order);
  if (failed(swapped))
    return failure();
  return cast<linalg::LinalgOp>(swapped->getOperation());
}

struct ConvertLinalgToGPUPass
    : nnc::impl::ConvertLinalgToGPUPassBase<ConvertLinalgToGPUPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op.emitError("expected a bufferized op");
        return signalPassFailure();
      }
      if (op.getNumLoops() == 0)
        runOnOneThread(rewriter, {op});
      FailureOr<linalg::LinalgOp> ordered = parallelFirst(rewriter, op);
      if (failed(ordered)) {
        op.emitError("could not order the loops for a GPU kernel");
        return signalPassFailure();
      }
      op = *ordered;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          linalg::linalgOpToParallelLoops(rewriter, op);
      if (failed(loops)) {
        op.emitError("could not be turned into loops for a GPU kernel");
        return signalPassFailure();
      }
      rewriter.eraseOp(op);
      if (loops->empty() || (*loops)[0]->getParentOfType<gpu::LaunchOp>())
        continue;
      // Only reductions: the nest runs on one thread.
      auto outer = dyn_cast<scf::ParallelOp>((*loops)[0]);
      if (!outer) {
        runOnOneThread(rewriter, {(*loops)[0]});
        continue;
      }
      if (failed(mapToLaunch(rewriter, outer)))
        return signalPassFailure();
    }
  }
};
} // namespace
