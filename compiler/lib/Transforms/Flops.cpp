//===- Flops.cpp - floating-point operations of nn functions --------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Flops.h"

#include "nn/IR/NNDialect.h"

using namespace mlir;

namespace {
/// Elements of a static shape (0 when a dimension is dynamic).
int64_t elements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}

/// The FLOPs of one product or convolution; 0 for other ops.
int64_t flopsOf(Operation *op) {
  auto dim = [](Value v, unsigned i) {
    return cast<ShapedType>(v.getType()).getDimSize(i);
  };
  // A filter's window: Kh·Kw·Ci of HWIO.
  auto window = [&](Value filter) {
    return dim(filter, 0) * dim(filter, 1) * dim(filter, 2);
  };
  if (auto m = dyn_cast<nn::MatmulOp>(op))
    return 2 * elements(m.getOutput().getType()) *
           dim(m.getLhs(), m.getTransposeLhs() ? 0 : 1);
  if (auto c = dyn_cast<nn::Conv2DOp>(op))
    return 2 * elements(c.getOutput().getType()) * window(c.getFilter());
  if (auto c = dyn_cast<nn::Conv2DBackpropInputOp>(op))
    return 2 * elements(c.getOutputGrad().getType()) * window(c.getFilter());
  if (auto c = dyn_cast<nn::Conv2DBackpropFilterOp>(op))
    return 2 * elements(c.getOutputGrad().getType()) *
           window(c.getFilterGrad());
  return 0;
}
} // namespace

std::optional<int64_t> nnc::countFlops(func::FuncOp func, ModuleOp module,
                                       FlopCounts &known) {
  if (auto it = known.find(func); it != known.end())
    return it->second;
  known[func] = std::nullopt; // a recursive call counts as unknown
  std::optional<int64_t> flops = 0;
  func.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      std::optional<int64_t> inner = callee && !callee.isExternal()
                                         ? countFlops(callee, module, known)
                                         : std::nullopt;
      flops = flops && inner ? std::optional(*flops + *inner) : std::nullopt;
      return;
    }
    if (!isa<nn::MatmulOp, nn::Conv2DOp, nn::Conv2DBackpropInputOp,
             nn::Conv2DBackpropFilterOp>(op))
      return;
    bool isStatic = llvm::all_of(op->getOperandTypes(), [](Type t) {
      return cast<ShapedType>(t).hasStaticShape();
    });
    flops =
        flops && isStatic ? std::optional(*flops + flopsOf(op)) : std::nullopt;
  });
  return known[func] = flops;
}
