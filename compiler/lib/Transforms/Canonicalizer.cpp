//===- Canonicalizer.cpp - the canonicaliser nnc's pipelines run ----------===//
//
// Part of nnc. Upstream's canonicaliser, configured once for every pipeline
// that runs it on whole functions (Passes.h).
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"
#include "nnc/Utils/GreedyConfig.h"

#include "mlir/Transforms/Passes.h"

std::unique_ptr<mlir::Pass> nnc::createCanonicalizerWithoutRegionSimplification(
    llvm::ArrayRef<std::string> disabled) {
  return mlir::createCanonicalizerPass(withoutRegionSimplification(), disabled);
}
