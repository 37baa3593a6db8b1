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

/// The vector registers and caches of the target CPU: the host's when
/// `options` names no CPU (caches read from sysfs), else what LLVM knows of
/// the named CPU and features (caches at common sizes).
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
