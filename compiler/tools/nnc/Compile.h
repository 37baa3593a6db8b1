//===- Compile.h - the steps of one nnc run ---------------------*- C++ -*-===//
//
// Part of nnc. From the input file to the written result: the module is
// read, stamped with how it is built, taken through the pipeline to the
// chosen stage, and written (or linked into the bench program).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TOOLS_NNC_COMPILE_H
#define NNC_TOOLS_NNC_COMPILE_H

#include "Options.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace nnc {

/// Reads the input into `sourceMgr` and builds its module: a .nn model with
/// the --set overrides, or .mlir as it is. Null after reporting an error.
mlir::OwningOpRef<mlir::ModuleOp> loadModule(const DriverOptions &options,
                                             llvm::SourceMgr &sourceMgr,
                                             mlir::MLIRContext &context);

/// What the bench program reports about how it was built, for the model
/// description (nn-export-model-interface): compiler, LLVM, target and CPU,
/// and for CUDA the precision and GPU. A module that has it keeps it.
void recordBuild(mlir::ModuleOp module, const DriverOptions &options);

/// Runs the pipeline up to options.stage, with MLIR's pass manager flags
/// (--mlir-timing, --mlir-print-ir-after-all, ...).
mlir::LogicalResult runPipeline(mlir::ModuleOp module,
                                const DriverOptions &options);

/// Writes the module as its stage (IR, PTX, LLVM IR, assembly, an object
/// file) to options.output, or links the bench program there (exe);
/// `argv0` locates the runtime libraries.
mlir::LogicalResult writeResult(mlir::ModuleOp module,
                                const DriverOptions &options,
                                const char *argv0);

} // namespace nnc

#endif // NNC_TOOLS_NNC_COMPILE_H
