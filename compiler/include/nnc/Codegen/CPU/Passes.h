//===- Passes.h - CPU code generation passes --------------------*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_PASSES_H
#define NNC_CODEGEN_CPU_PASSES_H

#include "nnc/Codegen/CPU/Tuning.h"

#include "mlir/Pass/Pass.h"

namespace nnc::cpu {
/// Marks the loop over a contraction's blocks of C (nnc-cpu-contractions);
/// nnc-cpu-outline-kernels gives its kernel the LLVM function attribute
/// kContractionFnAttr, which the LLVM optimisation pipeline reads.
constexpr llvm::StringLiteral kContractionAttr = "nnc.contraction";
constexpr llvm::StringLiteral kContractionFnAttr = "nnc-contraction";
/// The function attribute of the calling convention in which a static
/// buffer is passed as its aligned pointer alone (convert-func-to-llvm's):
/// nnc-cpu-outline-kernels gives it to the kernels and entry points,
/// nnc-cpu-lower-entry-points lowers their calls by it.
constexpr llvm::StringLiteral kBarePtrAttr = "llvm.bareptr";
/// The names of the functions nnc-cpu-outline-kernels creates begin so.
constexpr llvm::StringLiteral kKernelPrefix = "nnc_kernel_";

#define GEN_PASS_DECL
#include "nnc/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

#endif // NNC_CODEGEN_CPU_PASSES_H
