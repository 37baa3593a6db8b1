//===- nnc.cpp - the nnc compiler driver ----------------------------------===//
//
// Part of nnc. Reads a .nn model (or .mlir), runs the pipeline up to the
// --emit stage and writes the result. MLIR's own flags (--mlir-timing,
// --mlir-print-ir-after-all, --mlir-print-debuginfo, ...) work as usual.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"
#include "Files.h"
#include "Options.h"
#include "StageTimes.h"

#include "nnc/Driver/Emit.h"
#include "nnc/Driver/Error.h"
#include "nnc/Driver/Registration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"

#include <cstdlib>
#include <new>

/// Ends the run with "nnc: error: `message`" and exit code 1.
[[noreturn]] static void exitWithError(const char *message) {
  (void)nnc::reportError(message);
  std::_Exit(1);
}

/// LLVM's fatal errors and failed allocations end the run with one line
/// of ours and exit code 1, not a stack dump.
static void installErrorHandlers() {
  llvm::install_fatal_error_handler(
      [](void *, const char *reason, bool) { exitWithError(reason); });
  llvm::install_bad_alloc_error_handler(
      [](void *, const char *, bool) { exitWithError("out of memory"); });
  std::set_new_handler([] { exitWithError("out of memory"); });
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  installErrorHandlers();
  // Before the command line: --mlir-print-ir-after=PASS and the like look
  // the pass up by its argument.
  nnc::registerAllPasses();
  mlir::FailureOr<nnc::DriverOptions> options =
      nnc::parseCommandLine(argc, argv);
  if (failed(options))
    return 1;
  if (options->listStages) {
    nnc::printStages(llvm::outs());
    return 0;
  }
  if (failed(nnc::checkOutput(options->input, options->output,
                              options->stage == nnc::Stage::Exe)) ||
      (!options->codegen.cpu.empty() &&
       failed(nnc::checkTargetCPU(options->codegen))))
    return 1;

  mlir::DialectRegistry registry;
  nnc::registerAllDialects(registry);
  nnc::registerLLVMTranslations(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point into the input, through the pipeline.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  nnc::StageTimes &times = nnc::stageTimes();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    nnc::StageTimes::Scope scope(times, "read");
    module = nnc::loadModule(*options, sourceMgr, context);
  }
  if (!module)
    return 1;
  if (options->stage == nnc::Stage::Exe &&
      !module->lookupSymbol<mlir::func::FuncOp>("forward")) {
    mlir::emitError(module->getLoc(),
                    "the module defines no @forward function: the bench "
                    "program runs @forward (and the training functions "
                    "derived from @loss)");
    return 1;
  }
  if (options->stage >= nnc::Stage::LLVMMLIR)
    nnc::recordBuild(*module, *options);
  {
    nnc::StageTimes::Scope scope(times, "MLIR passes");
    if (failed(nnc::runPipeline(*module, *options)))
      return 1;
  }
  if (failed(nnc::writeResult(*module, *options, argv[0])))
    return 1;
  if (options->time)
    times.print(llvm::errs());
  return 0;
}
