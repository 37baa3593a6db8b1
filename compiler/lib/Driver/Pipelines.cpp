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

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace nnc;

llvm::ArrayRef<StageInfo> nnc::getStages() {
  static const StageInfo stages[] = {
      {Stage::NN, "nn", "the verified nn dialect (forward and loss)"},
      {Stage::Linalg, "linalg", "layers and losses as linalg on tensors"},
      {Stage::Bufferized, "bufferized",
       "on buffers, with parameters, inputs and outputs passed in"},
  };
  return stages;
}

std::optional<Stage> nnc::parseStage(llvm::StringRef name) {
  for (const StageInfo &info : getStages())
    if (info.name == name)
      return info.stage;
  return std::nullopt;
}

void nnc::buildNNCleanupPipeline(mlir::OpPassManager &pm) {
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildNNToLinalgPipeline(mlir::OpPassManager &pm) {
  pm.addPass(createConvertNNToLinalg());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void nnc::buildCPUBufferizePipeline(mlir::OpPassManager &pm) {
  pm.addPass(createNNParamsToArguments());
  mlir::bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(mlir::bufferization::createOneShotBufferizePass(options));
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

void nnc::buildPipelineUpTo(mlir::OpPassManager &pm, Stage stage) {
  buildNNCleanupPipeline(pm);
  if (stage >= Stage::Linalg)
    buildNNToLinalgPipeline(pm);
  if (stage >= Stage::Bufferized)
    buildCPUBufferizePipeline(pm);
}

void nnc::registerPipelines() {
  mlir::PassPipelineRegistration<>("nn-cleanup", "Canonicalise and CSE nn IR",
                                   buildNNCleanupPipeline);
  mlir::PassPipelineRegistration<>("nn-to-linalg-pipeline",
                                   "Lower nn to linalg on tensors and clean up",
                                   buildNNToLinalgPipeline);
  mlir::PassPipelineRegistration<>(
      "nn-cpu-bufferize-pipeline",
      "Bufferize with the compiled calling convention",
      buildCPUBufferizePipeline);
}
