//===- Options.h - nnc's command line ---------------------------*- C++ -*-===//
//
// Part of nnc. The flags of the nnc driver, parsed and checked into one
// typed description of what a run does.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TOOLS_NNC_OPTIONS_H
#define NNC_TOOLS_NNC_OPTIONS_H

#include "nnc/Driver/Emit.h"
#include "nnc/Driver/Pipelines.h"
#include "nnc/Parser/ModelGen.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace nnc {

/// What one nnc run does.
struct DriverOptions {
  /// The model (.nn, or .mlir) and where the result goes; "-" is stdin or
  /// stdout.
  std::string input, output;
  /// Where the pipeline stops: --emit, else exe with -o, else nn.
  Stage stage = kDefaultStage;
  /// --help-list-stages: print the stages and do nothing else.
  bool listStages = false;
  bool time = false; ///< --time: each step's wall time on stderr
  /// --verify-each: verify the IR after every MLIR pass, not only the
  /// pipeline's result.
  bool verifyEach = false;
  /// --set and --batch.
  ModelOptions model;
  /// --cpu and --mattr.
  CodegenOptions codegen;
  /// --target, --precision, --gpu-arch and --loss-scale (the CPU's tuning
  /// is filled in when the pipeline is built).
  PipelineOptions pipeline;

  bool isCUDA() const { return pipeline.target == Target::CUDA; }
};

/// Parses the command line, MLIR's flags included, and checks it. A
/// problem is reported ("nnc: error: ...", or cl's "nnc: for the --X
/// option: ..." for an unknown flag or value, which exits with status 1).
mlir::FailureOr<DriverOptions> parseCommandLine(int argc, char **argv);

/// The --help-list-stages text: each stage in order, with its targets.
void printStages(llvm::raw_ostream &os);

} // namespace nnc

#endif // NNC_TOOLS_NNC_OPTIONS_H
