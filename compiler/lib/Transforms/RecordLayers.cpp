//===- RecordLayers.cpp - the nn-record-layers pass -----------------------===//
//
// Part of nnc. Keeps the model's layer table (name, op, shape) across the
// lowering, for the runtime's layer-shape printout, and each entry point's
// floating-point operations (`nnc.flops`), for its throughput figures.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace nnc {
#define GEN_PASS_DEF_RECORDLAYERSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// The NameLoc of a layer's op; inside a block instance it is the callee of
/// the op's call-site location.
NameLoc getLayerLoc(Location loc) {
  while (auto site = dyn_cast<CallSiteLoc>(loc))
    loc = site.getCallee();
  return dyn_cast<NameLoc>(loc);
}

/// Elements of a static shape (0 when a dimension is dynamic).
int64_t elements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}

/// The multiply-adds of a product or convolution, two operations each:
/// matmul 2·M·N·K; conv2d and both its gradients 2·N·Ho·Wo·Co·Kh·Kw·Ci (the
/// convolution's output and filter window). Others count nothing.
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

/// The FLOPs of `func` with those of the functions it calls, or nullopt
/// when a shape is dynamic or a callee has no body; memoised in `known`.
std::optional<int64_t>
flopsOfFunc(func::FuncOp func, ModuleOp module,
            llvm::DenseMap<Operation *, std::optional<int64_t>> &known) {
  if (auto it = known.find(func); it != known.end())
    return it->second;
  known[func] = std::nullopt; // a recursive call counts as unknown
  std::optional<int64_t> flops = 0;
  func.walk([&](Operation *op) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      std::optional<int64_t> inner = callee && !callee.isExternal()
                                         ? flopsOfFunc(callee, module, known)
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

/// Records the FLOPs of every public function with a body as `nnc.flops`;
/// a function whose count is not known gets none.
void recordFlops(ModuleOp module) {
  llvm::DenseMap<Operation *, std::optional<int64_t>> known;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (std::optional<int64_t> flops = flopsOfFunc(func, module, known))
      func->setAttr(
          "nnc.flops",
          IntegerAttr::get(IntegerType::get(module.getContext(), 64), *flops));
  }
}

struct RecordLayersPass : nnc::impl::RecordLayersPassBase<RecordLayersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    recordFlops(module);
    auto forward = module.lookupSymbol<func::FuncOp>("forward");
    if (!forward || forward.isExternal())
      return;

    struct Layer {
      StringAttr name, op;
      ArrayRef<int64_t> shape;
    };
    SmallVector<Layer> layers;
    llvm::DenseMap<StringAttr, unsigned> index;
    forward.walk([&](Operation *op) {
      NameLoc loc = getLayerLoc(op->getLoc());
      // Parameter reads carry their layer's name but are not layers.
      if (!loc || !isa<nn::NNDialect>(op->getDialect()) ||
          isa<nn::GetParamOp>(op) || op->getNumResults() != 1)
        return;
      auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
      if (!type)
        return;
      auto [it, inserted] = index.try_emplace(loc.getName(), layers.size());
      if (inserted) {
        StringRef opName = op->getName().stripDialect();
        layers.push_back(
            {loc.getName(), StringAttr::get(&getContext(), opName), {}});
      }
      layers[it->second].shape = type.getShape();
    });

    Builder b(&getContext());
    SmallVector<Attribute> entries;
    for (const Layer &l : layers)
      entries.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("name", l.name), b.getNamedAttr("op", l.op),
           b.getNamedAttr("shape", b.getDenseI64ArrayAttr(l.shape))}));
    nn::NNDialect::LayersAttrHelper(&getContext())
        .setAttr(module, b.getArrayAttr(entries));
  }
};
} // namespace
