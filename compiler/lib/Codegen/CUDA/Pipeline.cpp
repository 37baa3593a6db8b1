//===- Pipeline.cpp - the CUDA target's pass pipelines --------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CUDA/Pipeline.h"

#include "nnc/Codegen/CUDA/Passes.h"
#include "nnc/Conversion/Passes.h"
#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Parses a fixed pipeline string of upstream passes into `pm`.
static void addUpstream(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("nnc: invalid built-in CUDA pipeline");
}

void nnc::cuda::buildCallsPipeline(OpPassManager &pm,
                                   const CUDAOptions &options) {
  pm.addPass(createRecordLayersPass());
  ConvertNNToCUDAOptions calls;
  calls.precision = options.precision;
  pm.addPass(createConvertNNToCUDA(calls));
  pm.addPass(createConvertNNToLinalg());
  pm.addPass(createFuseElementwisePass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void nnc::cuda::buildKernelsPipeline(OpPassManager &pm) {
  pm.addPass(createExportModelInterfacePass());
  pm.addNestedPass<func::FuncOp>(createSplitReductionsPass());
  pm.addNestedPass<func::FuncOp>(createHostBuffersPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToGPUPass());
  // Constants and index computations move into the launches first, so
  // kernels see them as immediates rather than parameters.
  addUpstream(pm, "gpu-launch-sink-index-computations,gpu-kernel-outlining");
  pm.addPass(createOneModulePass());
  pm.addNestedPass<func::FuncOp>(createStreamPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

void nnc::cuda::buildBinaryPipeline(OpPassManager &pm,
                                    const CUDAOptions &options, bool ptxOnly) {
  // PTX 8.0 is what CUDA 12.0 and later assemble, for sm_90.
  std::string pipeline =
      "nvvm-attach-target{chip=" + options.arch +
      " features=+ptx80 O=3},gpu.module(lower-affine,convert-scf-to-cf,"
      "convert-gpu-to-nvvm,canonicalize,"
      "cse,reconcile-unrealized-casts),gpu-module-to-binary{format=" +
      (ptxOnly ? std::string("isa") : std::string("fatbin")) +
      (options.toolkit.empty() ? "" : " toolkit=" + options.toolkit) + "}";
  addUpstream(pm, pipeline);
}

void nnc::cuda::buildHostPipeline(OpPassManager &pm) {
  addUpstream(pm,
              "lower-affine,expand-strided-metadata,lower-affine,"
              "convert-scf-to-cf,finalize-memref-to-llvm,convert-arith-to-llvm,"
              "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
              "gpu-to-llvm,reconcile-unrealized-casts");
  pm.addPass(createPackedEntryPointsPass());
}

void nnc::cuda::registerPipelines() {
  PassPipelineRegistration<>(
      "nnc-cuda-calls-pipeline",
      "Library calls for cuDNN and cuBLASLt, the rest to linalg, fused",
      [](OpPassManager &pm) { buildCallsPipeline(pm); });
  PassPipelineRegistration<>(
      "nnc-cuda-kernels-pipeline",
      "Bufferized host code to outlined GPU kernels on one stream",
      buildKernelsPipeline);
  PassPipelineRegistration<>("nnc-cuda-host-pipeline",
                             "CUDA host code to the LLVM dialect",
                             buildHostPipeline);
}
