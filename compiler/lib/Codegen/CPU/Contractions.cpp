//===- Contractions.cpp - the nnc-cpu-contractions pass -------------------===//
//
// Part of nnc. Finds the contractions of a function, plans and emits each
// (Contraction.h), fusing C's elementwise consumer where that pays
// (worthFusingEpilogue) and it can, then drops what became dead: the zero
// fill of C, the consumer, and C itself when nothing is left to hold.
//
//===----------------------------------------------------------------------===//

#include "Contraction.h"
#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_CONTRACTIONSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;
using namespace nnc::cpu;

namespace {
/// Erases an allocation that only deallocations still use.
void eraseIfDead(Value buffer) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc || !llvm::all_of(alloc->getUsers(), [](Operation *user) {
        return isa<memref::DeallocOp>(user);
      }))
    return;
  for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
    user->erase();
  alloc->erase();
}

struct ContractionsPass
    : nnc::cpu::impl::ContractionsPassBase<ContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    CPUTuning target;
    target.vectorBits = vectorBits;
    target.vectorRegisters = vectorRegisters;
    target.l1Bytes = l1Bytes;
    target.l2Bytes = l2Bytes;
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (matchContraction(op))
        candidates.push_back(op);
    });
    OpBuilder b(&getContext());
    for (linalg::LinalgOp op : candidates) {
      // Earlier rewrites may have changed what the op can absorb.
      std::optional<Contraction> c = matchContraction(op);
      if (!c)
        continue;
      std::optional<GemmPlan> plan = planContraction(*c, target);
      if (!plan)
        continue;
      std::optional<Epilogue> epilogue;
      if (worthFusingEpilogue(*c, *plan))
        epilogue = matchEpilogue(*c);
      linalg::FillOp fill = c->zeroInit ? findZeroFill(*c) : nullptr;
      b.setInsertionPoint(epilogue ? epilogue->op.getOperation()
                                   : op.getOperation());
      emitContraction(b, *c, *plan, epilogue ? &*epilogue : nullptr);
      if (fill)
        fill->erase();
      Value cBuffer = c->c.buffer;
      op->erase();
      if (epilogue)
        epilogue->op->erase();
      eraseIfDead(cBuffer);
    }
  }
};
} // namespace
