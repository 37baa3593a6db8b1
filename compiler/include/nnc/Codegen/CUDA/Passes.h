//===- Passes.h - CUDA code generation passes -------------------*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CUDA_PASSES_H
#define NNC_CODEGEN_CUDA_PASSES_H

#include "mlir/Pass/Pass.h"

namespace nnc::cuda {
#define GEN_PASS_DECL
#include "nnc/Codegen/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnc/Codegen/CUDA/Passes.h.inc"
} // namespace nnc::cuda

#endif // NNC_CODEGEN_CUDA_PASSES_H
