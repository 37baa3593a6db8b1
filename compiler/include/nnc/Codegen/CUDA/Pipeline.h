//===- Pipeline.h - the CUDA target's pass pipelines ------------*- C++ -*-===//
//
// Part of nnc. The CUDA target from the nn dialect to the LLVM dialect:
// library calls and linalg (the `cuda-calls` stage), then, after the shared
// bufferization, GPU kernels on one stream (`gpu`), their binary (`ptx`)
// and the host code in the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CUDA_PIPELINE_H
#define NNC_CODEGEN_CUDA_PIPELINE_H

#include "nnc/Conversion/NNToCUDA/CudaMath.h"

#include "mlir/Pass/PassManager.h"

#include <string>

namespace nnc::cuda {

/// How the CUDA target compiles.
struct CUDAOptions {
  CudaMath precision = CudaMath::FP32; ///< how the libraries compute
  std::string arch = "sm_90";          ///< the GPU the cubin is for
  std::string toolkit;                 ///< the CUDA toolkit (ptxas, libdevice)
};

/// Library-backed ops as calls into libnnrt's CUDA part
/// (convert-nn-to-cuda), the rest as linalg on tensors, elementwise chains
/// fused (each chain becomes one kernel).
void buildCallsPipeline(mlir::OpPassManager &pm,
                        const CUDAOptions &options = {});

/// Bufferized host code to kernels: the model description, device buffers,
/// one kernel per linalg op (outlined), the work chained on one stream.
void buildKernelsPipeline(mlir::OpPassManager &pm);

/// The kernels to NVVM and a binary embedded in the module: PTX text
/// (`ptxOnly`), or a fatbin with the cubin for `options.arch` and the PTX.
void buildBinaryPipeline(mlir::OpPassManager &pm, const CUDAOptions &options,
                         bool ptxOnly);

/// The host code to the LLVM dialect, with the packed entry points.
void buildHostPipeline(mlir::OpPassManager &pm);

/// Registers nnc-cuda-calls-pipeline, nnc-cuda-kernels-pipeline and
/// nnc-cuda-host-pipeline for nnc-opt.
void registerPipelines();

} // namespace nnc::cuda

#endif // NNC_CODEGEN_CUDA_PIPELINE_H
