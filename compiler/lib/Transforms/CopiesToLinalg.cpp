//===- CopiesToLinalg.cpp - the nn-copies-to-linalg pass ------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace nnc {
#define GEN_PASS_DEF_NNCOPIESTOLINALG
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct NNCopiesToLinalgPass
    : nnc::impl::NNCopiesToLinalgBase<NNCopiesToLinalgPass> {
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
