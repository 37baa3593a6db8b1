//===- Compile.cpp - the steps of one nnc run -----------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"
#include "Files.h"
#include "StageTimes.h"

#include "nnc/Driver/CUDA.h"
#include "nnc/Driver/Error.h"
#include "nnc/Driver/Link.h"

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/TargetParser/Host.h"

#include <optional>
#include <thread>

using namespace nnc;
using llvm::SmallString;

mlir::OwningOpRef<mlir::ModuleOp> nnc::loadModule(const DriverOptions &options,
                                                  llvm::SourceMgr &sourceMgr,
                                                  mlir::MLIRContext &context) {
  std::unique_ptr<llvm::MemoryBuffer> file = readInput(options.input);
  if (!file)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (llvm::StringRef(options.input).ends_with(".mlir"))
    return mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  return parseModel(sourceMgr, &context, options.model);
}

void nnc::recordBuild(mlir::ModuleOp module, const DriverOptions &options) {
  mlir::nn::NNDialect::BuildAttrHelper buildAttr(module.getContext());
  if (buildAttr.isAttrPresent(module))
    return;
  mlir::Builder b(module.getContext());
  const CodegenOptions &codegen = options.codegen;
  std::string cpu =
      codegen.cpu.empty() ? llvm::sys::getHostCPUName().str() : codegen.cpu;
  llvm::SmallVector<mlir::NamedAttribute> build = {
      b.getNamedAttr("compiler", b.getStringAttr("nnc " NNC_VERSION)),
      b.getNamedAttr("llvm", b.getStringAttr(LLVM_VERSION_STRING)),
      b.getNamedAttr("target",
                     b.getStringAttr(getTargetName(options.pipeline.target))),
      b.getNamedAttr("cpu", b.getStringAttr(cpu))};
  if (options.isCUDA()) {
    const cuda::CUDAOptions &gpu = options.pipeline.cuda;
    build.push_back(b.getNamedAttr(
        "precision", b.getStringAttr(cudaMathName(gpu.precision))));
    build.push_back(b.getNamedAttr("gpu_arch", b.getStringAttr(gpu.arch)));
  }
  buildAttr.setAttr(module, b.getDictionaryAttr(build));
}

mlir::LogicalResult nnc::runPipeline(mlir::ModuleOp module,
                                     const DriverOptions &options) {
  mlir::PassManager pm(module.getContext(), mlir::ModuleOp::getOperationName());
  if (failed(mlir::applyPassManagerCLOptions(pm)))
    return mlir::failure();
  mlir::DefaultTimingManager tm;
  mlir::applyDefaultTimingManagerCLOptions(tm);
  mlir::TimingScope timing = tm.getRootScope();
  pm.enableTiming(timing);
  // Verifying after every pass was a third of ResNet-50's MLIR time (each
  // verification walks the whole module, the training step's thousands of
  // ops on one thread). The passes' own tests verify after each (nnc-opt);
  // here the pipeline's result is verified once.
  pm.enableVerifier(options.verifyEach);
  PipelineOptions pipeline = options.pipeline;
  if (!options.isCUDA() && options.stage >= Stage::LLVMMLIR)
    pipeline.cpu = describeCPU(options.codegen);
  buildPipelineUpTo(pm, options.stage, pipeline);
  if (failed(pm.run(module)))
    return mlir::failure();
  return options.verifyEach ? mlir::success() : mlir::verify(module);
}

/// Writes the objects to temporary files and links them into the program:
/// on the CPU target the sequencers' object and eight per hardware thread,
/// compiled in parallel (parts of equal estimated cost but for the last
/// few, smaller, as many for every thread, and several each, so that a
/// wrong estimate does not leave the other threads idle: with four,
/// ResNet-50's last part ran alone for 1.4 s).
static mlir::LogicalResult linkProgram(mlir::ModuleOp module,
                                       const DriverOptions &options,
                                       const char *argv0) {
  bool cpu = options.pipeline.target == Target::CPU;
  unsigned parts =
      cpu ? 1 + 8 * std::max(1u, std::thread::hardware_concurrency()) : 1;
  std::vector<std::string> objects;
  std::vector<llvm::FileRemover> removers;
  for (unsigned i = 0; i < parts; ++i) {
    SmallString<128> object;
    int fd;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("nnc-model", "o", fd, object))
      return reportError("cannot create a temporary object file: " +
                         ec.message());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
    objects.push_back(object.str().str());
    removers.emplace_back(object);
  }
  std::optional<StageTimes::Scope> emitting(
      std::in_place, stageTimes(),
      "LLVM code generation (" + std::to_string(parts) + " parts)");
  if (parts > 1) {
    if (failed(emitObjectsInParallel(module, options.codegen, objects)))
      return mlir::failure();
  } else {
    std::error_code ec;
    llvm::raw_fd_ostream os(objects.front(), ec);
    if (ec)
      return reportError("cannot write '" + objects.front() +
                         "': " + ec.message());
    if (failed(emitLLVM(module, Stage::Obj, options.codegen, os)))
      return mlir::failure();
    if (os.has_error())
      return reportError("cannot write '" + objects.front() +
                         "': " + os.error().message());
  }
  emitting.reset();
  StageTimes::Scope linking(stageTimes(), "link");
  return linkExecutable(objects, options.output, findRuntimeDir(argv0),
                        options.pipeline.target);
}

/// Writes the module as its stage to `os`.
static mlir::LogicalResult writeStage(mlir::ModuleOp module, Stage stage,
                                      const CodegenOptions &codegen,
                                      llvm::raw_pwrite_stream &os) {
  if (stage == Stage::PTX)
    return printPTX(module, os);
  if (stage > kLastMLIRStage)
    return emitLLVM(module, stage, codegen, os);
  module.print(os);
  os << "\n";
  return mlir::success();
}

mlir::LogicalResult nnc::writeResult(mlir::ModuleOp module,
                                     const DriverOptions &options,
                                     const char *argv0) {
  if (options.stage == Stage::Exe)
    return linkProgram(module, options, argv0);
  if (options.stage == Stage::Obj && options.output == "-" &&
      llvm::sys::Process::StandardOutIsDisplayed())
    return reportError("not writing an object file to a terminal; use -o FILE");
  std::string errorMessage;
  auto output = mlir::openOutputFile(options.output, &errorMessage);
  if (!output)
    return reportError(errorMessage);
  // Object files are written with seeks: into memory first, so that a
  // pipe works as well as a file.
  SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  {
    StageTimes::Scope writing(stageTimes(), options.stage > kLastMLIRStage
                                                ? "LLVM code generation"
                                                : "printing");
    if (failed(writeStage(module, options.stage, options.codegen, os)))
      return mlir::failure();
  }
  output->os() << buffer;
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    output->os().clear_error();
    return reportError("cannot write '" + options.output +
                       "': " + ec.message());
  }
  output->keep();
  return mlir::success();
}
