//===- LLVMCodegen.h - LLVM's optimiser and code generator ------*- C++ -*-===//
//
// Part of nnc. What emitLLVM and the parallel object emission share: the
// target machine for the options, and optimising then writing one LLVM
// module.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_LIB_DRIVER_LLVMCODEGEN_H
#define NNC_LIB_DRIVER_LLVMCODEGEN_H

#include "nnc/Driver/Emit.h"

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

namespace nnc {

/// The target machine for `options` (the host's CPU when none is named),
/// or null after an error on stderr.
std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const CodegenOptions &options);

/// `module` translated to LLVM IR in `context`, with the target machine of
/// `options` whose triple and data layout it carries.
struct TargetModule {
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<llvm::TargetMachine> machine;
};
mlir::FailureOr<TargetModule> translateForTarget(mlir::ModuleOp module,
                                                 llvm::LLVMContext &context,
                                                 const CodegenOptions &options);

/// Runs LLVM's optimisation pipeline for `optLevel` (-O2's for 3) on
/// `module`, with its passes that find nothing to do in nnc's kernels
/// skipped and no loop strength reduction (Optimize.cpp).
llvm::Error optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                           unsigned optLevel);

/// Optimises `module` at `optLevel` (optimizeModule) and writes it as
/// `stage` (LLVM IR, assembly or an object file).
mlir::LogicalResult optimizeAndEmit(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    unsigned optLevel, Stage stage,
                                    llvm::raw_pwrite_stream &os);

} // namespace nnc

#endif // NNC_LIB_DRIVER_LLVMCODEGEN_H
