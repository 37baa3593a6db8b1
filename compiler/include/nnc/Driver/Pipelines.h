//===- Pipelines.h - nnc's named pass pipelines -----------------*- C++ -*-===//
//
// Part of nnc. The stages of compilation as one ordered list, and the pass
// pipeline that takes a module from one stage to the next. nnc and nnc-opt
// share these, so what a test runs is what users run.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_PIPELINES_H
#define NNC_DRIVER_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace nnc {

/// Stages in pipeline order: stopping after stage X is `stage <= X`.
enum class Stage {
  NN,         ///< the verified nn dialect, as parsed and canonicalised
  NNTrain,    ///< plus the training functions (gradients, updates)
  Linalg,     ///< layers and losses as linalg on tensors
  Bufferized, ///< on buffers: parameters, inputs, outputs passed by the caller
  LLVMMLIR,   ///< the LLVM dialect (loops, OpenMP), with the model description
  LLVMIR,     ///< LLVM IR, optimised for the target CPU
  Asm,        ///< target assembly
  Obj,        ///< an object file
  Exe,        ///< the bench program: the object linked with the runtime
};

/// The last stage that is an MLIR module; later ones are written by LLVM.
constexpr Stage kLastMLIRStage = Stage::LLVMMLIR;

/// What nnc emits when no --emit is given.
constexpr Stage kDefaultStage = Stage::NN;

/// Every stage with its --emit name and a one-line description.
struct StageInfo {
  Stage stage;
  llvm::StringRef name;
  llvm::StringRef help;
};
llvm::ArrayRef<StageInfo> getStages();
std::optional<Stage> parseStage(llvm::StringRef name);

/// What the CPU code generator sizes its register tiles and cache blocks
/// from (nn-cpu-contractions); the driver fills it in for the target CPU.
struct CPUTuning {
  int64_t vectorBits = 256;
  int64_t vectorRegisters = 16;
  int64_t l1Bytes = 32 * 1024;
  int64_t l2Bytes = 512 * 1024;
};

/// The passes that bring a freshly parsed module to `stage`.
void buildPipelineUpTo(mlir::OpPassManager &pm, Stage stage,
                       const CPUTuning &tuning = {});

/// nn-level clean-up: canonicalisation (the ops' folders) and CSE.
void buildNNCleanupPipeline(mlir::OpPassManager &pm);

/// The training functions derived in nn (nn-generate-training), then
/// clean-up (dead gradients go).
void buildNNTrainingPipeline(mlir::OpPassManager &pm);

/// nn to linalg on tensors (after recording the layer table), elementwise
/// chains fused, then clean-up.
void buildNNToLinalgPipeline(mlir::OpPassManager &pm);

/// Tensors to buffers with the compiled calling convention: parameters,
/// then inputs, then outputs (out-parameters), all owned by the caller;
/// intermediate buffers are freed inside.
void buildCPUBufferizePipeline(mlir::OpPassManager &pm);

/// The bufferized module to the LLVM dialect: the model description
/// (nn-export-model-interface), contractions as tiled vector code
/// (nn-cpu-contractions), parallel loops as OpenMP, then LLVM.
void buildCPULLVMPipeline(mlir::OpPassManager &pm,
                          const CPUTuning &tuning = {});

/// Registers the pipelines above under names nnc-opt accepts.
void registerPipelines();

} // namespace nnc

#endif // NNC_DRIVER_PIPELINES_H
