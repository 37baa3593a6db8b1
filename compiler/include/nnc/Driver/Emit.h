//===- Emit.h - LLVM IR, assembly and object files --------------*- C++ -*-===//
//
// Part of nnc. The last stages of both targets' host code: the LLVM dialect
// module is translated to LLVM IR (the translations registered here),
// optimised for the target CPU, and written as IR, assembly or an object
// file by LLVM's own TargetMachine; and what the CPU target's code
// generation knows of that CPU.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_EMIT_H
#define NNC_DRIVER_EMIT_H

#include "nnc/Driver/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace nnc {

struct CodegenOptions {
  /// Target CPU and features; empty means the host's.
  std::string cpu, features;
  unsigned optLevel = 3;
};

/// Whether LLVM has a target machine for `options` (an unknown --cpu is
/// reported here, before any work).
mlir::LogicalResult checkTargetCPU(const CodegenOptions &options);

/// The vector registers and caches of the target CPU: its vector width and
/// registers from LLVM (the host's when `options` names no CPU), its caches
/// at nominal sizes for that width (32 KiB of L1; 512 KiB of L2 with AVX2,
/// 1 MiB with AVX-512). The contraction planner's blocks fill fixed shares
/// of those; on an Intel Xeon with 48 KiB and 2 MiB, blocks sized from the
/// true caches ran a matrix product of 4096 in 0.66 s instead of 0.50 s.
cpu::CPUTuning describeCPU(const CodegenOptions &options);

/// Writes `module` (in the LLVM dialect) as `stage`, which must be one of
/// Stage::LLVMIR, Stage::Asm or Stage::Obj. Reports errors to stderr.
mlir::LogicalResult emitLLVM(mlir::ModuleOp module, Stage stage,
                             const CodegenOptions &options,
                             llvm::raw_pwrite_stream &os);

/// Compiles `module` (in the LLVM dialect) into object files written to
/// `paths` (at least two, created by the caller): the first holds the
/// optnone functions (the entry points' sequencers), compiled without
/// optimisation; the rest of the LLVM module is split by function into the
/// others, each optimised and compiled on its own thread. Reports errors to
/// stderr.
mlir::LogicalResult emitObjectsInParallel(mlir::ModuleOp module,
                                          const CodegenOptions &options,
                                          llvm::ArrayRef<std::string> paths);

/// Registers the translations to LLVM IR from the dialects the LLVM dialect
/// module holds: LLVM and OpenMP, and the CUDA target's GPU and NVVM.
void registerLLVMTranslations(mlir::DialectRegistry &registry);

} // namespace nnc

#endif // NNC_DRIVER_EMIT_H
