//===- Pipeline.h - the CPU target's pass pipelines -------------*- C++ -*-===//
//
// Part of nnc. The CPU target from the nn dialect to the LLVM dialect: nn to
// linalg on tensors (the `linalg` stage), then, after the shared
// bufferization, the contractions, the other loops and the LLVM lowering.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_PIPELINE_H
#define NNC_CODEGEN_CPU_PIPELINE_H

#include "nnc/Codegen/CPU/Tuning.h"

#include "mlir/Pass/PassManager.h"

namespace nnc::cpu {

/// nn to linalg on tensors (after recording the layer table), elementwise
/// chains fused, then clean-up.
void buildLinalgPipeline(mlir::OpPassManager &pm);

/// The bufferized module to the LLVM dialect: the model description
/// (nn-export-model-interface), contractions as tiled vector code
/// (nnc-cpu-contractions), the other loops vectorised, parallel loops as
/// OpenMP, then LLVM and the packed entry points.
void buildLLVMPipeline(mlir::OpPassManager &pm, const CPUTuning &tuning = {});

/// Registers the pipelines above for nnc-opt: nnc-cpu-linalg-pipeline and
/// nnc-cpu-llvm-pipeline.
void registerPipelines();

} // namespace nnc::cpu

#endif // NNC_CODEGEN_CPU_PIPELINE_H
