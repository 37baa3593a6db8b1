//===- Passes.h - nnc transformation passes ---------------------*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_PASSES_H
#define NNC_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace nnc {
#define GEN_PASS_DECL
#include "nnc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

#endif // NNC_TRANSFORMS_PASSES_H
