//===- CopiesToLinalg.cpp - the nnc-cpu-copies-to-linalg pass -------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_COPIESTOLINALGPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
struct CopiesToLinalgPass
    : nnc::cpu::impl::CopiesToLinalgPassBase<CopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto type = dyn_cast<MemRefType>(copy.getSource().getType());
      if (type && type.hasStaticShape() && type.getRank() > 0)
        copies.push_back(copy);
    });
    OpBuilder b(&getContext());
    for (memref::CopyOp copy : copies) {
      b.setInsertionPoint(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy->erase();
    }
  }
};
} // namespace
