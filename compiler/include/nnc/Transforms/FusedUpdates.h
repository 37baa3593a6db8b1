//===- FusedUpdates.h - train_step's fused updates or a call ----*- C++ -*-===//
//
// Part of nnc. Whether train_step keeps its own copy of the training pass
// with the optimizer's updates fused into the gradients' contractions, one
// enum from the driver's --fused-updates through nn-generate-training's
// option (docs/language.md).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_FUSEDUPDATES_H
#define NNC_TRANSFORMS_FUSEDUPDATES_H

#include "llvm/Support/CommandLine.h"

namespace nnc {

/// Always its own copy, never (a call of the training pass, then the
/// updates), or auto: the copy where the fused updates are worth it.
enum class FusedUpdates { Auto, Always, Never };

/// The flag values naming each choice (--fused-updates,
/// nn-generate-training's fused-updates option).
inline llvm::cl::ValuesClass fusedUpdatesValues() {
  return llvm::cl::values(
      clEnumValN(FusedUpdates::Auto, "auto",
                 "its own copy where the gradients' round trip through "
                 "memory would cost 1% of the step or more (the default)"),
      clEnumValN(FusedUpdates::Always, "always",
                 "its own copy, the updates fused into the gradients' "
                 "products and convolutions"),
      clEnumValN(FusedUpdates::Never, "never",
                 "a call of the training pass, then the updates"));
}

} // namespace nnc

#endif // NNC_TRANSFORMS_FUSEDUPDATES_H
