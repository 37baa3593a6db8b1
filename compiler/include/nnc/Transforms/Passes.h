//===- Passes.h - nnc transformation passes ---------------------*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_PASSES_H
#define NNC_TRANSFORMS_PASSES_H

#include "nnc/Transforms/FusedUpdates.h"

#include "mlir/Pass/Pass.h"

namespace nnc {
/// On a model function that takes its buffers as bare pointers
/// (`llvm.bareptr`) instead of MLIR's C interface: the element type of each
/// buffer, from which nnc-packed-entry-points builds its
/// `_mlir_ciface_<entry>` (one descriptor pointer per buffer).
constexpr llvm::StringLiteral kBareCInterfaceAttr = "nnc.bare_c_interface";

/// Upstream's canonicaliser without region simplification
/// (nnc::withoutRegionSimplification, nnc/Utils/GreedyConfig.h), as nnc's
/// pipelines run it on the nn dialect, on linalg, and on the functions
/// before bufferization. `disabled` names patterns it leaves out, by their
/// debug names (upstream's `disable-patterns`).
std::unique_ptr<mlir::Pass> createCanonicalizerWithoutRegionSimplification(
    llvm::ArrayRef<std::string> disabled = {});

#define GEN_PASS_DECL
#include "nnc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

#endif // NNC_TRANSFORMS_PASSES_H
