//===- RecordLayers.cpp - the nn-record-layers pass -----------------------===//
//
// Part of nnc. Keeps the model's layer table (name, op, shape) across the
// lowering, for the runtime's layer-shape printout, and each entry point's
// floating-point operations (`nnc.flops`), for its throughput figures.
//
//===----------------------------------------------------------------------===//

#include "Flops.h"
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

/// Records the FLOPs of every public function with a body as `nnc.flops`;
/// a function whose count is not known gets none.
void recordFlops(ModuleOp module) {
  nnc::FlopCounts known;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    if (std::optional<int64_t> flops = nnc::countFlops(func, module, known))
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
