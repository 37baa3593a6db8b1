//===- SequentialInnerParallelLoops.cpp - one parallel level --------------===//
//
// Part of nnc. The nnc-cpu-sequential-inner-parallel-loops pass: only the
// outermost scf.parallel of a nest is spread over threads; the ones inside
// it become scf.for nests.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Utils/LoopUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_SEQUENTIALINNERPARALLELLOOPSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
struct SequentialInnerParallelLoopsPass
    : nnc::cpu::impl::SequentialInnerParallelLoopsPassBase<
          SequentialInnerParallelLoopsPass> {
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
