//===- nnc.cpp - the nnc compiler driver ----------------------------------===//
//
// Part of nnc. Reads a .nn model (or .mlir), runs the pipeline up to the
// --emit stage and writes the result. MLIR's own flags (--mlir-timing,
// --mlir-print-ir-after-all, --mlir-print-debuginfo, ...) work as usual.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Emit.h"
#include "nnc/Driver/Pipelines.h"
#include "nnc/Driver/Registration.h"
#include "nnc/Parser/ModelGen.h"

#include "nn/IR/NNDialect.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/TargetParser/Host.h"

#include <cmath>

using namespace llvm;

namespace {
cl::OptionCategory nncCategory("nnc options");

cl::opt<std::string>
    inputFile(cl::Positional,
              cl::desc("<model.nn | file.mlir | - (stdin, .nn)>"),
              cl::init("-"), cl::cat(nncCategory));
cl::opt<std::string> outputFile("o", cl::desc("Output file (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(nncCategory));
cl::opt<std::string> emit("emit",
                          cl::desc("Stop after this stage and write it "
                                   "(see --help-list-stages)"),
                          cl::value_desc("stage"), cl::cat(nncCategory));
cl::opt<bool> listStages("help-list-stages",
                         cl::desc("List the --emit stages in order"),
                         cl::cat(nncCategory));
cl::opt<std::string> target("target", cl::desc("Code generation target"),
                            cl::value_desc("cpu|cuda"), cl::init("cpu"),
                            cl::cat(nncCategory));
cl::opt<nnc::CudaMath> precision(
    "precision", cl::desc("CUDA: how convolutions and matrix products compute"),
    cl::init(nnc::CudaMath::FP32), nnc::cudaMathValues(), cl::cat(nncCategory));
cl::opt<double> lossScale(
    "loss-scale",
    cl::desc("Static loss scaling of the training step: the backward pass "
             "runs on the loss times this (a power of two), gradients are "
             "divided by it (default 1024 with --precision=bf16, else 1)"),
    cl::value_desc("S"), cl::init(0.0), cl::cat(nncCategory));
cl::opt<std::string> gpuArch("gpu-arch",
                             cl::desc("CUDA: the GPU the kernels are built "
                                      "for (default sm_90; PTX is kept for "
                                      "newer GPUs)"),
                             cl::value_desc("sm_NN"), cl::init("sm_90"),
                             cl::cat(nncCategory));
cl::opt<std::string> cpu("cpu",
                         cl::desc("Target CPU for code generation (default: "
                                  "the host's)"),
                         cl::value_desc("name"), cl::cat(nncCategory));
cl::opt<std::string> mattr("mattr",
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

int fail(const Twine &message) {
  WithColor::error(errs(), "nnc") << message << "\n";
  return 1;
}

void printVersion(raw_ostream &os) {
  os << "nnc " << NNC_VERSION << "\n"
     << "  LLVM/MLIR " << LLVM_VERSION_STRING << "\n"
     << "  targets: cpu" << (NNC_HAVE_CUDA ? ", cuda" : "") << "\n";
}
/// Writes the object to a temporary file and links it into the program.
int linkProgram(mlir::ModuleOp module, const nnc::CodegenOptions &codegen,
                const char *argv0, nnc::Target target) {
  SmallString<128> object;
  int fd;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("nnc-model", "o", fd, object))
    return fail("cannot create a temporary object file: " + ec.message());
  FileRemover removeObject(object);
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    if (failed(nnc::emitLLVM(module, nnc::Stage::Obj, codegen, os)))
      return 1;
    if (os.has_error())
      return fail("cannot write '" + object + "': " + os.error().message());
  }
  return failed(nnc::linkExecutable(object, outputFile,
                                    nnc::findRuntimeDir(argv0), target))
             ? 1
             : 0;
}
} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  cl::SetVersionPrinter(printVersion);
  // --help lists nnc's own flags; the MLIR and LLVM ones stay usable and
  // are listed by --help-hidden.
  cl::HideUnrelatedOptions(nncCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "nnc: compile .nn neural-network models\n\n"
      "  nnc model.nn                 print the verified nn dialect\n"
      "  nnc model.nn --emit=STAGE    stop after STAGE (--help-list-stages)\n"
      "  nnc model.nn --set n=4096    override a 'let' constant\n\n"
      "MLIR's flags also work: --mlir-print-ir-after-all, --mlir-timing,\n"
      "--mlir-print-debuginfo, ... (--help-hidden lists them).\n");

  if (listStages) {
    for (const nnc::StageInfo &s : nnc::getStages())
      outs() << "  " << left_justify(s.name, 12)
             << (s.cpu && s.cuda ? ""
                 : s.cpu         ? "(cpu) "
                                 : "(cuda) ")
             << s.help << "\n";
    return 0;
  }

  if (target != "cpu" && target != "cuda")
    return fail("unknown --target '" + target + "'; expected cpu or cuda");
  bool cuda = target == "cuda";
  if (cuda && !NNC_HAVE_CUDA)
    return fail("this nnc was built without the CUDA target (the CUDA "
                "toolkit or cuDNN was not found at configure time)");
  if (!cuda && precision.getNumOccurrences())
    return fail("--precision applies to --target=cuda");
  if (lossScale.getNumOccurrences() &&
      !(lossScale > 0 && std::isfinite(lossScale.getValue())))
    return fail("--loss-scale must be a positive number");
  if (!StringRef(gpuArch).starts_with("sm_") ||
      StringRef(gpuArch).drop_front(3).empty() ||
      !all_of(StringRef(gpuArch).drop_front(3), isDigit))
    return fail("--gpu-arch expects sm_NN (e.g. sm_90), got '" + gpuArch + "'");

  // With -o and no --emit, nnc builds the bench program.
  nnc::Stage stage = outputFile != "-" ? nnc::Stage::Exe : nnc::kDefaultStage;
  if (!emit.empty()) {
    const nnc::StageInfo *info = nnc::findStage(emit);
    if (!info) {
      SmallVector<StringRef> names;
      for (const nnc::StageInfo &s : nnc::getStages())
        if (cuda ? s.cuda : s.cpu)
          names.push_back(s.name);
      return fail("unknown --emit stage '" + emit + "'; stages for --target=" +
                  target + " are: " + join(names, ", "));
    }
    if (!(cuda ? info->cuda : info->cpu))
      return fail("--emit=" + emit +
                  " belongs to --target=" + (cuda ? "cpu" : "cuda") +
                  (cuda ? "; with --target=cuda, --emit=cuda-calls shows "
                          "the library calls and the linalg ops the kernels "
                          "come from"
                        : ""));
    stage = info->stage;
  }
  if (stage == nnc::Stage::Exe && outputFile == "-")
    return fail("the exe stage writes a program: give it a name with -o FILE");

  nnc::ModelOptions options;
  for (const std::string &s : sets) {
    auto [name, value] = StringRef(s).split('=');
    double v;
    if (name.empty() || value.empty() || value.trim().getAsDouble(v) ||
        !std::isfinite(v))
      return fail("--set expects name=number, got '" + s + "'");
    options.overrides[name.str()] = v;
  }
  if (batch.getNumOccurrences()) {
    if (batch < 1)
      return fail("--batch must be a positive integer");
    options.overrides["batch"] = static_cast<double>(batch);
  }

  std::string errorMessage;
  auto file = mlir::openInputFile(inputFile, &errorMessage);
  if (!file)
    return fail(errorMessage);

  nnc::registerAllPasses(); // the pipelines name upstream passes
  mlir::DialectRegistry registry;
  nnc::registerAllDialects(registry);
  nnc::registerLLVMTranslations(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  bool isMLIR = StringRef(inputFile).ends_with(".mlir");
  if (isMLIR && !options.overrides.empty())
    return fail("--set and --batch apply to .nn models, not .mlir input");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      isMLIR ? mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context)
             : nnc::parseModel(sourceMgr, &context, options);
  if (!module)
    return 1;

  // What the bench program reports about how it was built, for the model
  // description (nn-export-model-interface).
  mlir::nn::NNDialect::BuildAttrHelper buildAttr(&context);
  if (stage >= nnc::Stage::LLVMMLIR && !buildAttr.isAttrPresent(*module)) {
    mlir::Builder b(&context);
    std::string cpuName = cpu.empty() ? sys::getHostCPUName().str() : cpu;
    SmallVector<mlir::NamedAttribute> build = {
        b.getNamedAttr("compiler", b.getStringAttr("nnc " NNC_VERSION)),
        b.getNamedAttr("llvm", b.getStringAttr(LLVM_VERSION_STRING)),
        b.getNamedAttr("target", b.getStringAttr(target)),
        b.getNamedAttr("cpu", b.getStringAttr(cpuName))};
    if (cuda) {
      build.push_back(b.getNamedAttr(
          "precision", b.getStringAttr(nnc::cudaMathName(precision))));
      build.push_back(b.getNamedAttr("gpu_arch", b.getStringAttr(gpuArch)));
    }
    buildAttr.setAttr(*module, b.getDictionaryAttr(build));
  }

  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  mlir::DefaultTimingManager tm;
  mlir::applyDefaultTimingManagerCLOptions(tm);
  mlir::TimingScope timing = tm.getRootScope();
  pm.enableTiming(timing);
  nnc::CodegenOptions codegen;
  codegen.cpu = cpu;
  codegen.features = mattr;
  nnc::PipelineOptions pipeline;
  pipeline.target = cuda ? nnc::Target::CUDA : nnc::Target::CPU;
  if (!cuda && stage >= nnc::Stage::LLVMMLIR)
    pipeline.cpu = nnc::describeCPU(codegen);
  pipeline.cuda.precision = precision;
  pipeline.lossScale =
      lossScale.getNumOccurrences()
          ? lossScale.getValue()
          : (cuda && precision == nnc::CudaMath::BF16 ? 1024.0 : 1.0);
  pipeline.cuda.arch = gpuArch;
  pipeline.cuda.toolkit = nnc::findCUDAToolkit();
  nnc::buildPipelineUpTo(pm, stage, pipeline);
  if (failed(pm.run(*module)))
    return 1;

  if (stage == nnc::Stage::Exe)
    return linkProgram(*module, codegen, argv[0], pipeline.target);

  if (stage == nnc::Stage::Obj && outputFile == "-" &&
      sys::Process::StandardOutIsDisplayed())
    return fail("not writing an object file to a terminal; use -o FILE");
  auto output = mlir::openOutputFile(outputFile, &errorMessage);
  if (!output)
    return fail(errorMessage);
  if (stage == nnc::Stage::PTX) {
    if (failed(nnc::printPTX(*module, output->os())))
      return 1;
  } else if (stage <= nnc::kLastMLIRStage) {
    module->print(output->os());
    output->os() << "\n";
  } else {
    if (failed(nnc::emitLLVM(*module, stage, codegen, output->os())))
      return 1;
  }
  output->keep();
  return 0;
}
