//===- GreedyConfig.h - nnc's greedy-driver configuration -------*- C++ -*-===//
//
// Part of nnc. Used by the canonicaliser nnc's pipelines run, elementwise
// fusion, the CPU vectoriser and view folding, and convert-nn-to-cuda.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_UTILS_GREEDYCONFIG_H
#define NNC_UTILS_GREEDYCONFIG_H

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace nnc {

/// The greedy driver's configuration without region simplification, which
/// after every iteration walks the whole function again to merge blocks and
/// drop dead ones and unused block arguments. nnc's rewrites run where it
/// finds none (every model's IR is the same without it).
inline mlir::GreedyRewriteConfig withoutRegionSimplification() {
  mlir::GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(
      mlir::GreedySimplifyRegionLevel::Disabled);
  return config;
}

} // namespace nnc

#endif // NNC_UTILS_GREEDYCONFIG_H
