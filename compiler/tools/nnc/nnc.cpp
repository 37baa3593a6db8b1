//===- nnc.cpp - the nnc compiler driver ----------------------------------===//
//
// Part of nnc. Reads a .nn model (or .mlir), runs the pipeline up to the
// --emit stage and writes the result. MLIR's own flags (--mlir-timing,
// --mlir-print-ir-after-all, --mlir-print-debuginfo, ...) work as usual.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"
#include "Options.h"

#include "nnc/Driver/Emit.h"
#include "nnc/Driver/Registration.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  mlir::FailureOr<nnc::DriverOptions> options =
      nnc::parseCommandLine(argc, argv);
  if (failed(options))
    return 1;
  if (options->listStages) {
    nnc::printStages(llvm::outs());
    return 0;
  }

  nnc::registerAllPasses(); // the pipelines name upstream passes
  mlir::DialectRegistry registry;
  nnc::registerAllDialects(registry);
  nnc::registerLLVMTranslations(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point into the input, through the pipeline.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      nnc::loadModule(*options, sourceMgr, context);
  if (!module)
    return 1;
  if (options->stage >= nnc::Stage::LLVMMLIR)
    nnc::recordBuild(*module, *options);
  if (failed(nnc::runPipeline(*module, *options)) ||
      failed(nnc::writeResult(*module, *options, argv[0])))
    return 1;
  return 0;
}
