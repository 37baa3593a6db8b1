//===- Emit.h - LLVM IR, assembly and object files --------------*- C++ -*-===//
//
// Part of nnc. The last stages of the CPU target: the LLVM dialect module is
// translated to LLVM IR, optimised for the target CPU, and written as IR,
// assembly or an object file by LLVM's own TargetMachine.
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

/// The vector registers and caches of the target CPU: the host's when
/// `options` names no CPU (caches read from sysfs), else what LLVM knows of
/// the named CPU and features (caches at common sizes).
cpu::CPUTuning describeCPU(const CodegenOptions &options);

/// Writes `module` (in the LLVM dialect) as `stage`, which must be one of
/// Stage::LLVMIR, Stage::Asm or Stage::Obj. Reports errors to stderr.
mlir::LogicalResult emitLLVM(mlir::ModuleOp module, Stage stage,
                             const CodegenOptions &options,
                             llvm::raw_pwrite_stream &os);

/// Links `object` with the runtime's bench program (libnnrt_main.a and
/// libnnrt.a, found in `runtimeDir`) into the executable `output`, with
/// clang++ -fopenmp (NNC_CXX overrides the compiler). Reports errors, with
/// the linker's output, to stderr.
mlir::LogicalResult linkExecutable(llvm::StringRef object,
                                   llvm::StringRef output,
                                   llvm::StringRef runtimeDir,
                                   Target target = Target::CPU);

/// Writes the PTX of every GPU module of `module` (the ptx stage).
mlir::LogicalResult printPTX(mlir::ModuleOp module, llvm::raw_ostream &os);

/// The CUDA toolkit nnc hands to ptxas and fatbinary: $NNC_CUDA_PATH, else
/// the one found when nnc was configured (empty: PATH is searched).
std::string findCUDAToolkit();

/// Where nnc's runtime libraries are: $NNC_RUNTIME_DIR, else the `lib`
/// directory beside the one holding the nnc executable (`argv0`).
std::string findRuntimeDir(const char *argv0);

/// Registers the translations from the LLVM and OpenMP dialects to LLVM IR.
void registerLLVMTranslations(mlir::DialectRegistry &registry);

} // namespace nnc

#endif // NNC_DRIVER_EMIT_H
