//===- Passes.h - nnc conversion passes -------------------------*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_PASSES_H
#define NNC_CONVERSION_PASSES_H

#include "nnc/Conversion/NNToCUDA/CudaMath.h"

#include "mlir/Pass/Pass.h"

namespace nnc {
#define GEN_PASS_DECL
#include "nnc/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnc/Conversion/Passes.h.inc"
} // namespace nnc

#endif // NNC_CONVERSION_PASSES_H
