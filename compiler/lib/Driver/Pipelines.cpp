//===- Pipelines.cpp - nnc's named pass pipelines -------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Pipelines.h"

#include "nnc/Codegen/CPU/Pipeline.h"
#include "nnc/Codegen/CUDA/Pipeline.h"
#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"

using namespace nnc;

llvm::ArrayRef<TargetInfo> nnc::getTargets() {
  static const TargetInfo targets[] = {
      {Target::CPU, "cpu", "the host CPU: vectorised loops, OpenMP threads"},
      {Target::CUDA, "cuda",
       "an NVIDIA GPU: cuDNN and cuBLASLt calls, generated kernels"},
  };
  return targets;
}

llvm::StringRef nnc::getTargetName(Target target) {
  for (const TargetInfo &info : getTargets())
    if (info.target == target)
      return info.name;
  llvm_unreachable("every target is in getTargets()");
}

llvm::ArrayRef<StageInfo> nnc::getStages() {
  static const StageInfo stages[] = {
      {Stage::NN, "nn", "the verified nn dialect (forward and loss)"},
      {Stage::NNTrain, "nn-train",
       "plus the training functions: forward_backward, eval, train_step, "
       "gradients, apply_update"},
      {Stage::Linalg, "linalg", "layers and losses as linalg on tensors", true,
       false},
      {Stage::Linalg, "cuda-calls",
       "cuDNN and cuBLASLt calls, the rest as linalg on tensors", false, true},
      {Stage::Bufferized, "bufferized",
       "on buffers, with parameters, inputs and outputs passed in"},
      {Stage::GPU, "gpu", "host functions launching outlined GPU kernels",
       false, true},
      {Stage::PTX, "ptx", "the GPU kernels' PTX", false, true},
      {Stage::LLVMMLIR, "llvm-mlir",
       "the LLVM dialect (host code) with the model description"},
      {Stage::LLVMIR, "llvm-ir", "LLVM IR, optimised for the host CPU"},
      {Stage::Asm, "asm", "assembly for the host CPU"},
      {Stage::Obj, "obj", "an object file"},
      {Stage::Exe, "exe",
       "the bench program: the object linked with the runtime (the default "
       "with -o)"},
  };
  return stages;
}

const StageInfo *nnc::findStage(llvm::StringRef name) {
  for (const StageInfo &info : getStages())
    if (info.name == name)
      return &info;
  return nullptr;
}

void nnc::buildNNCleanupPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createCanonicalizerWithoutRegionSimplification());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildNNTrainingPipeline(mlir::OpPassManager &pm, double lossScale,
                                  bool dataParallel,
                                  FusedUpdates fusedUpdates) {
  GenerateTrainingPassOptions training;
  training.lossScale = lossScale;
  training.dataParallel = dataParallel;
  training.fusedUpdates = fusedUpdates;
  pm.addPass(createGenerateTrainingPass(training));
  pm.addPass(createCanonicalizerWithoutRegionSimplification());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildBufferizePipeline(mlir::OpPassManager &pm) {
  pm.addPass(createParamsToArgumentsPass());
  // Every op that starts from a filled tensor fills its own buffer.
  pm.addNestedPass<mlir::func::FuncOp>(createDuplicateSharedFillsPass());
  // Concatenated inputs are computed in place.
  pm.addNestedPass<mlir::func::FuncOp>(createConcatIntoSlicesPass());
  // The rest runs on each group of functions that call one another (the
  // training step, the training pass and its callers, the forward pass,
  // ...) in a module of its own, the groups in parallel: the one-shot
  // analyses below are module passes.
  pm.addPass(createNestCallComponentsPass());
  mlir::OpPassManager &parts = pm.nest<mlir::ModuleOp>();
  // Parameter updates are computed into the parameter's own buffer,
  // padded tensors' interiors in place.
  parts.addNestedPass<mlir::func::FuncOp>(createEmptyIntoDestinationsPass());
  mlir::bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  parts.addPass(mlir::bufferization::createOneShotBufferizePass(options));
  parts.addPass(createInPlaceUpdatesPass());
  parts.addPass(createDistinctResultsPass());
  // Entry points are public: outputs become caller-owned buffers, marked
  // {bufferize.result}.
  mlir::bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.modifyPublicFunctions = true;
  outParams.hoistStaticAllocs = true;
  outParams.addResultAttribute = true;
  parts.addPass(
      mlir::bufferization::createBufferResultsToOutParamsPass(outParams));
  parts.addNestedPass<mlir::func::FuncOp>(createCallResultsInPlacePass());
  parts.addPass(createDeallocateBuffersPass());
  // Identical views become one, which makes a copy between them a copy of
  // a view onto itself, which the canonicaliser then drops. Function by
  // function, on the pass manager's threads: no pattern of nnc's IR acts on
  // a function as a whole. A second CSE after it found nothing (every
  // model's bufferized IR, both targets, is the same without it; on
  // Inception-v3's training pass it took 0.012 s, on one thread).
  mlir::OpPassManager &functions = parts.nest<mlir::func::FuncOp>();
  functions.addPass(mlir::createCSEPass());
  functions.addPass(createCanonicalizerWithoutRegionSimplification());
  pm.addPass(createFlattenCallComponentsPass());
}

void nnc::buildPipelineUpTo(mlir::OpPassManager &pm, Stage stage,
                            const PipelineOptions &options) {
  bool cuda = options.target == Target::CUDA;
  pm.addPass(createCheckModelPass());
  buildNNCleanupPipeline(pm);
  if (stage >= Stage::NNTrain)
    // A GPU does more FLOPs per byte it moves than auto's rule assumes
    // (a CPU's): the CUDA target keeps train_step's fused updates.
    buildNNTrainingPipeline(pm, options.lossScale, options.dataParallel,
                            cuda && options.fusedUpdates == FusedUpdates::Auto
                                ? FusedUpdates::Always
                                : options.fusedUpdates);
  if (stage >= Stage::Linalg) {
    if (cuda)
      cuda::buildCallsPipeline(pm, options.cuda);
    else
      cpu::buildLinalgPipeline(pm);
  }
  if (stage >= Stage::Bufferized)
    buildBufferizePipeline(pm);
  if (!cuda) {
    if (stage >= Stage::LLVMMLIR)
      cpu::buildLLVMPipeline(pm, options.cpu);
    return;
  }
  if (stage >= Stage::GPU)
    cuda::buildKernelsPipeline(pm);
  if (stage >= Stage::PTX)
    cuda::buildBinaryPipeline(pm, options.cuda, stage == Stage::PTX);
  if (stage >= Stage::LLVMMLIR)
    cuda::buildHostPipeline(pm);
}

void nnc::registerPipelines() {
  mlir::PassPipelineRegistration<>("nn-cleanup", "Canonicalise and CSE nn IR",
                                   buildNNCleanupPipeline);
  mlir::PassPipelineRegistration<>(
      "nn-training-pipeline",
      "Derive the training functions in nn and clean up",
      [](mlir::OpPassManager &pm) { buildNNTrainingPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "nnc-bufferize-pipeline",
      "Bufferize with the compiled calling convention", buildBufferizePipeline);
  cpu::registerPipelines();
  cuda::registerPipelines();
}
