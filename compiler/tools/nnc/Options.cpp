//===- Options.cpp - nnc's command line -----------------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "EnumOption.h"

#include "nnc/Driver/CUDA.h"
#include "nnc/Driver/Error.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace nnc;
using llvm::StringRef;
namespace cl = llvm::cl;

namespace {
/// The --emit values: every stage of getStages(), by its name.
EnumValues<const StageInfo *> stageValues() {
  EnumValues<const StageInfo *> values;
  for (const StageInfo &stage : getStages())
    values.entries.push_back({stage.name, &stage, stage.help});
  return values;
}

/// The --target values: every target of getTargets().
EnumValues<Target> targetValues() {
  EnumValues<Target> values;
  for (const TargetInfo &target : getTargets())
    values.entries.push_back({target.name, target.target, target.help});
  return values;
}

cl::OptionCategory nncCategory("nnc options");

cl::opt<std::string>
    inputFile(cl::Positional,
              cl::desc("<model.nn | file.mlir | - (stdin, .nn)>"),
              cl::init("-"), cl::cat(nncCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(nncCategory));
EnumOption<const StageInfo *>
    emitStage("emit",
              cl::desc("Stop after this stage and write it (--help-list-stages "
                       "says which target each belongs to)"),
              cl::init(nullptr), stageValues(), cl::cat(nncCategory));
cl::opt<bool> timeStages(
    "time",
    cl::desc("Print how long each step took (reading, the MLIR passes, LLVM's "
             "code generation, linking) on stderr"),
    cl::cat(nncCategory));
cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every MLIR pass (for debugging the "
             "compiler; by default only the pipeline's result is verified)"),
    cl::cat(nncCategory));
cl::opt<bool> listStages("help-list-stages",
                         cl::desc("List the --emit stages in order"),
                         cl::cat(nncCategory));
EnumOption<Target> codegenTarget("target", cl::desc("Code generation target"),
                                 cl::init(Target::CPU), targetValues(),
                                 cl::cat(nncCategory));
EnumOption<CudaMath>
    precision("precision",
              cl::desc("CUDA: how convolutions and matrix products compute"),
              cl::init(CudaMath::FP32), cudaMathValues(), cl::cat(nncCategory));
cl::opt<double> lossScale(
    "loss-scale",
    cl::desc("Static loss scaling of the training step: the backward pass "
             "runs on the loss times this (a power of two), gradients are "
             "divided by it (default 1024 with --precision=bf16, else 1)"),
    cl::value_desc("S"), cl::init(0.0), cl::cat(nncCategory));
cl::opt<bool> dataParallel(
    "data-parallel",
    cl::desc("Compile train_step's halves too (gradients, apply_update), so "
             "the program trains across processes under mpirun "
             "(docs/distributed.md); --data-parallel=false leaves them out"),
    cl::init(true), cl::cat(nncCategory));
EnumOption<FusedUpdates> fusedUpdates(
    "fused-updates",
    cl::desc("Whether train_step has its own copy of the forward and "
             "backward pass, each gradient's product or convolution applying "
             "the update as it finishes, or calls the one forward_backward "
             "calls and then updates"),
    cl::init(FusedUpdates::Auto), fusedUpdatesValues(), cl::cat(nncCategory));
cl::opt<std::string> gpuArch("gpu-arch",
                             cl::desc("CUDA: the GPU the kernels are built "
                                      "for (default sm_90; PTX is kept for "
                                      "newer GPUs)"),
                             cl::value_desc("sm_NN"), cl::init("sm_90"),
                             cl::cat(nncCategory));
cl::opt<std::string>
    targetCPU("cpu",
              cl::desc("Target CPU for code generation (default: "
                       "the host's)"),
              cl::value_desc("name"), cl::cat(nncCategory));
cl::opt<std::string>
    targetFeatures("mattr",
                   cl::desc("Target features, e.g. +avx2,-avx512f "
                            "(default: the host's)"),
                   cl::value_desc("features"), cl::cat(nncCategory));
cl::list<std::string> sets("set",
                           cl::desc("Override a model constant, e.g. "
                                    "--set n=4096 (repeatable)"),
                           cl::value_desc("name=value"), cl::cat(nncCategory));
cl::opt<int64_t> batch("batch",
                       cl::desc("Override the model's batch size "
                                "(same as --set batch=N)"),
                       cl::init(0), cl::cat(nncCategory));

cl::list<std::string>
    taps("tap",
         cl::desc("@forward also returns the output of every layer these "
                  "full names or glob patterns match (comma-separated, e.g. "
                  "--tap='res2.*,fc6'), named after the layer; train_step "
                  "returns them too"),
         cl::value_desc("patterns"), cl::CommaSeparated, cl::cat(nncCategory));

void printVersion(llvm::raw_ostream &os) {
  os << "nnc " << NNC_VERSION << "\n"
     << "  LLVM/MLIR " << LLVM_VERSION_STRING << "\n"
     << "  targets: cpu" << (NNC_HAVE_CUDA ? ", cuda" : "") << "\n";
}

/// Parses argv into the flags above and MLIR's. --help lists nnc's own
/// flags; the MLIR and LLVM ones stay usable and are listed by
/// --help-hidden.
void parseFlags(int argc, char **argv) {
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(nncCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "nnc: compile .nn neural-network models\n\n"
      "  nnc model.nn                 print the verified nn dialect\n"
      "  nnc model.nn --emit=STAGE    stop after STAGE (--help-list-stages)\n"
      "  nnc model.nn --set n=4096    override a 'let' constant\n\n"
      "MLIR's flags also work: --mlir-print-ir-after-all, --mlir-timing,\n"
      "--mlir-print-ir-after=PASS (one pass's IR, e.g. nnc-cpu-contractions),\n"
      "--mlir-print-debuginfo, ... (--help-hidden lists them).\n");
}

/// --target and the flags that go with it.
mlir::LogicalResult readTarget(PipelineOptions &pipeline) {
  bool cuda = codegenTarget == Target::CUDA;
  if (cuda && !NNC_HAVE_CUDA)
    return reportError("this nnc was built without the CUDA target (the CUDA "
                       "toolkit or cuDNN was not found at configure time)");
  if (!cuda && precision.getNumOccurrences())
    return reportError("--precision applies to --target=cuda");
  if (lossScale.getNumOccurrences() &&
      !(lossScale > 0 && std::isfinite(lossScale.getValue())))
    return reportError("--loss-scale must be a positive number");
  StringRef arch = gpuArch, number = arch.drop_front(3);
  if (!arch.starts_with("sm_") || number.empty() ||
      !llvm::all_of(number, llvm::isDigit))
    return reportError("--gpu-arch expects sm_NN (e.g. sm_90), got '" + arch +
                       "'");
  pipeline.target = codegenTarget;
  pipeline.cuda.precision = precision;
  pipeline.cuda.arch = gpuArch;
  pipeline.cuda.toolkit = findCUDAToolkit();
  pipeline.dataParallel = dataParallel;
  pipeline.fusedUpdates = fusedUpdates;
  pipeline.lossScale =
      lossScale.getNumOccurrences()
          ? lossScale.getValue()
          : (cuda && precision == CudaMath::BF16 ? 1024.0 : 1.0);
  return mlir::success();
}

/// Where the pipeline stops: --emit (a stage of the chosen target), else
/// the bench program with -o, else the nn dialect.
mlir::FailureOr<Stage> readStage(bool cuda) {
  bool toStdout = outputFile == "-";
  Stage stage = toStdout ? kDefaultStage : Stage::Exe;
  if (const StageInfo *info = emitStage) {
    if (!(cuda ? info->cuda : info->cpu))
      return reportError("--emit=" + info->name + " belongs to --target=" +
                         getTargetName(cuda ? Target::CPU : Target::CUDA) +
                         (cuda ? "; with --target=cuda, --emit=cuda-calls "
                                 "shows the library calls and the linalg ops "
                                 "the kernels come from"
                               : ""));
    stage = info->stage;
  }
  if (stage == Stage::Exe && toStdout)
    return reportError(
        "the exe stage writes a program: give it a name with -o FILE");
  return stage;
}

/// --set and --batch, which change a .nn model's constants.
mlir::LogicalResult readOverrides(ModelOptions &model) {
  for (const std::string &set : sets) {
    auto [name, value] = StringRef(set).split('=');
    double v;
    if (name.empty() || value.empty() || value.trim().getAsDouble(v) ||
        !std::isfinite(v))
      return reportError("--set expects name=number, got '" + set + "'");
    model.overrides[name.str()] = v;
  }
  if (batch.getNumOccurrences()) {
    if (batch < 1)
      return reportError("--batch must be a positive integer");
    model.overrides["batch"] = static_cast<double>(batch);
  }
  if (StringRef(inputFile).ends_with(".mlir") && !model.overrides.empty())
    return reportError("--set and --batch apply to .nn models, not .mlir "
                       "input");
  for (const std::string &tap : taps)
    if (tap.empty())
      return reportError("--tap expects layer names or patterns, got an "
                         "empty one");
  model.taps.assign(taps.begin(), taps.end());
  if (StringRef(inputFile).ends_with(".mlir") && !model.taps.empty())
    return reportError("--tap applies to .nn models, not .mlir input");
  return mlir::success();
}
} // namespace

mlir::FailureOr<DriverOptions> nnc::parseCommandLine(int argc, char **argv) {
  parseFlags(argc, argv);
  DriverOptions options;
  options.listStages = listStages;
  options.time = timeStages;
  options.verifyEach = verifyEach;
  if (options.listStages)
    return options;
  options.input = inputFile;
  options.output = outputFile;
  options.codegen.cpu = targetCPU;
  options.codegen.features = targetFeatures;
  if (failed(readTarget(options.pipeline)))
    return mlir::failure();
  mlir::FailureOr<Stage> stage = readStage(options.isCUDA());
  if (failed(stage) || failed(readOverrides(options.model)))
    return mlir::failure();
  options.stage = *stage;
  return options;
}

void nnc::printStages(llvm::raw_ostream &os) {
  for (const StageInfo &s : getStages())
    os << "  " << llvm::left_justify(s.name, 12)
       << (s.cpu && s.cuda ? ""
           : s.cpu         ? "(cpu) "
                           : "(cuda) ")
       << s.help << "\n";
}
