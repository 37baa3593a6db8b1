//===- Pipelines.cpp - nnc's named pass pipelines -------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Pipelines.h"

#include "nnc/Conversion/Passes.h"
#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace nnc;

llvm::ArrayRef<StageInfo> nnc::getStages() {
  static const StageInfo stages[] = {
      {Stage::NN, "nn", "the verified nn dialect (forward and loss)"},
      {Stage::NNTrain, "nn-train",
       "plus the training functions: forward_backward, eval, train_step"},
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
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildNNTrainingPipeline(mlir::OpPassManager &pm, double lossScale) {
  NNGenerateTrainingOptions training;
  training.lossScale = lossScale;
  pm.addPass(createNNGenerateTraining(training));
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildNNToLinalgPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createNNRecordLayers());
  pm.addPass(createConvertNNToLinalg());
  // Elementwise chains (bias, activation, the losses' pieces) become one
  // linalg.generic each, so their intermediates are never materialised.
  pm.addPass(mlir::createLinalgElementwiseOpFusionPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildBufferizePipeline(mlir::OpPassManager &pm) {
  pm.addPass(createNNParamsToArguments());
  // Every op that starts from a filled tensor fills its own buffer.
  pm.addNestedPass<mlir::func::FuncOp>(createNNDuplicateSharedFills());
  // Parameter updates are computed into the parameter's own buffer.
  pm.addPass(mlir::bufferization::createEmptyTensorEliminationPass());
  mlir::bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(mlir::bufferization::createOneShotBufferizePass(options));
  pm.addPass(createNNInPlaceUpdates());
  // Entry points are public: outputs become caller-owned buffers, marked
  // {bufferize.result}.
  mlir::bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.modifyPublicFunctions = true;
  outParams.hoistStaticAllocs = true;
  outParams.addResultAttribute = true;
  pm.addPass(
      mlir::bufferization::createBufferResultsToOutParamsPass(outParams));
  mlir::bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildCPULLVMPipeline(mlir::OpPassManager &pm,
                               const CPUTuning &tuning) {
  pm.addPass(createNNExportModelInterface());
  // Matrix products and convolutions: register tiles, cache blocks, threads.
  NNCPUContractionsOptions contractions;
  contractions.vectorBits = tuning.vectorBits;
  contractions.vectorRegisters = tuning.vectorRegisters;
  contractions.l1Bytes = tuning.l1Bytes;
  contractions.l2Bytes = tuning.l2Bytes;
  pm.addNestedPass<mlir::func::FuncOp>(createNNCPUContractions(contractions));
  pm.addNestedPass<mlir::func::FuncOp>(createNNCopiesToLinalg());
  // Everything else: threads over the outer loops, vectors along the
  // innermost dimension.
  NNCPUVectorizeOptions vectorize;
  vectorize.vectorBits = tuning.vectorBits;
  pm.addNestedPass<mlir::func::FuncOp>(createNNCPUVectorize(vectorize));
  if (failed(mlir::parsePassPipeline("scf-forall-to-parallel", pm)))
    llvm::report_fatal_error("nnc: invalid built-in CPU lowering pipeline");
  // Other loops: parallel over the outer parallel dimensions, the output's
  // last dimension innermost for LLVM's vectoriser.
  pm.addNestedPass<mlir::func::FuncOp>(createNNVectorizableLoopOrder());
  pm.addPass(mlir::createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<mlir::func::FuncOp>(createNNSequentialInnerParallelLoops());
  // Upstream passes, in the order the lowering needs: alloca scopes that
  // scf-to-openmp creates are lowered with the memrefs, before scf-to-cf
  // splits their regions.
  // expand-strided-metadata makes affine.apply of the vector code's
  // subviews, hence the second lower-affine.
  static const char *kLowering =
      "canonicalize,convert-vector-to-scf{full-unroll=true},"
      "convert-scf-to-openmp,lower-affine,expand-strided-metadata,"
      "lower-affine,finalize-memref-to-llvm,convert-scf-to-cf,"
      "math-expand-ops,convert-math-to-llvm,convert-math-to-libm,"
      "convert-vector-to-llvm,convert-ub-to-llvm,convert-arith-to-llvm,"
      "convert-index-to-llvm,convert-cf-to-llvm,convert-openmp-to-llvm,"
      "convert-func-to-llvm,reconcile-unrealized-casts";
  if (failed(mlir::parsePassPipeline(kLowering, pm)))
    llvm::report_fatal_error("nnc: invalid built-in CPU lowering pipeline");
  pm.addPass(createNNPackedEntryPoints());
}

void nnc::buildNNToCUDAPipeline(mlir::OpPassManager &pm,
                                const CUDAOptions &options) {
  pm.addPass(createNNRecordLayers());
  ConvertNNToCUDAOptions calls;
  calls.precision = options.precision;
  pm.addPass(createConvertNNToCUDA(calls));
  pm.addPass(createConvertNNToLinalg());
  pm.addPass(mlir::createLinalgElementwiseOpFusionPass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildCUDAKernelsPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createNNExportModelInterface());
  pm.addNestedPass<mlir::func::FuncOp>(createNNGPUSplitReductions());
  pm.addNestedPass<mlir::func::FuncOp>(createNNGPUHostBuffers());
  pm.addNestedPass<mlir::func::FuncOp>(createNNLinalgToGPU());
  if (failed(mlir::parsePassPipeline("gpu-kernel-outlining", pm)))
    llvm::report_fatal_error("nnc: invalid built-in CUDA pipeline");
  pm.addPass(createNNGPUOneModule());
  pm.addNestedPass<mlir::func::FuncOp>(createNNGPUStream());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildCUDABinaryPipeline(mlir::OpPassManager &pm,
                                  const CUDAOptions &options, bool ptxOnly) {
  // PTX 8.0 is what CUDA 12.0 and later assemble, for sm_90.
  std::string pipeline =
      "nvvm-attach-target{chip=" + options.arch +
      " features=+ptx80 O=3},gpu.module(lower-affine,convert-scf-to-cf,"
      "convert-gpu-to-nvvm,canonicalize,"
      "cse,reconcile-unrealized-casts),gpu-module-to-binary{format=" +
      (ptxOnly ? std::string("isa") : std::string("fatbin")) +
      (options.toolkit.empty() ? "" : " toolkit=" + options.toolkit) + "}";
  if (failed(mlir::parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("nnc: invalid built-in CUDA binary pipeline");
}

void nnc::buildCUDAHostPipeline(mlir::OpPassManager &pm) {
  static const char *kLowering =
      "lower-affine,expand-strided-metadata,lower-affine,convert-scf-to-cf,"
      "finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"
      "convert-cf-to-llvm,convert-func-to-llvm,gpu-to-llvm,"
      "reconcile-unrealized-casts";
  if (failed(mlir::parsePassPipeline(kLowering, pm)))
    llvm::report_fatal_error("nnc: invalid built-in CUDA host pipeline");
  pm.addPass(createNNPackedEntryPoints());
}

void nnc::buildPipelineUpTo(mlir::OpPassManager &pm, Stage stage,
                            const PipelineOptions &options) {
  bool cuda = options.target == Target::CUDA;
  buildNNCleanupPipeline(pm);
  if (stage >= Stage::NNTrain)
    buildNNTrainingPipeline(pm, options.lossScale);
  if (stage >= Stage::Linalg) {
    if (cuda)
      buildNNToCUDAPipeline(pm, options.cuda);
    else
      buildNNToLinalgPipeline(pm);
  }
  if (stage >= Stage::Bufferized)
    buildBufferizePipeline(pm);
  if (!cuda) {
    if (stage >= Stage::LLVMMLIR)
      buildCPULLVMPipeline(pm, options.cpu);
    return;
  }
  if (stage >= Stage::GPU)
    buildCUDAKernelsPipeline(pm);
  if (stage >= Stage::PTX)
    buildCUDABinaryPipeline(pm, options.cuda, stage == Stage::PTX);
  if (stage >= Stage::LLVMMLIR)
    buildCUDAHostPipeline(pm);
}

void nnc::registerPipelines() {
  mlir::PassPipelineRegistration<>("nn-cleanup", "Canonicalise and CSE nn IR",
                                   buildNNCleanupPipeline);
  mlir::PassPipelineRegistration<>(
      "nn-training-pipeline",
      "Derive the training functions in nn and clean up",
      [](mlir::OpPassManager &pm) { buildNNTrainingPipeline(pm); });
  mlir::PassPipelineRegistration<>("nn-to-linalg-pipeline",
                                   "Lower nn to linalg on tensors and clean up",
                                   buildNNToLinalgPipeline);
  mlir::PassPipelineRegistration<>(
      "nn-bufferize-pipeline", "Bufferize with the compiled calling convention",
      buildBufferizePipeline);
  mlir::PassPipelineRegistration<>(
      "nn-to-cuda-pipeline",
      "Library calls for cuDNN and cuBLASLt, the rest to linalg, fused",
      [](mlir::OpPassManager &pm) { buildNNToCUDAPipeline(pm); });
  mlir::PassPipelineRegistration<>(
      "nn-cuda-kernels-pipeline",
      "Bufferized host code to outlined GPU kernels on one stream",
      buildCUDAKernelsPipeline);
  mlir::PassPipelineRegistration<>("nn-cuda-host-pipeline",
                                   "CUDA host code to the LLVM dialect",
                                   buildCUDAHostPipeline);
  mlir::PassPipelineRegistration<>(
      "nn-cpu-llvm-pipeline",
      "Bufferized nn model to the LLVM dialect, with its description",
      [](mlir::OpPassManager &pm) { buildCPULLVMPipeline(pm); });
}
