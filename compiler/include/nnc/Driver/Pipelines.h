//===- Pipelines.h - nnc's named pass pipelines -----------------*- C++ -*-===//
//
// Part of nnc. The targets, the stages of compilation as one ordered list,
// the target-independent pipelines (clean-up, training, bufferization),
// and the pipeline that takes a freshly parsed module to any stage of
// either target (each target's own pipelines are in
// Codegen/<target>/Pipeline.h). nnc and nnc-opt share these, so what a test
// runs is what users run.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_PIPELINES_H
#define NNC_DRIVER_PIPELINES_H

#include "nnc/Codegen/CPU/Tuning.h"
#include "nnc/Codegen/CUDA/Pipeline.h"
#include "nnc/Transforms/FusedUpdates.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace nnc {

/// What the code runs on.
enum class Target { CPU, CUDA };

/// Every target with its --target name and a one-line description.
struct TargetInfo {
  Target target;
  llvm::StringRef name;
  llvm::StringRef help;
};
llvm::ArrayRef<TargetInfo> getTargets();
/// The --target name of `target` ("cpu" or "cuda").
llvm::StringRef getTargetName(Target target);

/// Stages in pipeline order: stopping after stage X is `stage <= X`. Some
/// belong to one target only (getStages says which).
enum class Stage {
  NN,         ///< the verified nn dialect, as parsed and canonicalised
  NNTrain,    ///< plus the training functions (gradients, updates)
  Linalg,     ///< cpu: layers and losses as linalg on tensors; cuda
              ///< (cuda-calls): library calls, the rest as linalg
  Bufferized, ///< on buffers: parameters, inputs, outputs passed by the caller
  GPU,        ///< cuda: host functions launching outlined GPU kernels
  PTX,        ///< cuda: the kernels' PTX
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

/// Every stage with its --emit name, a one-line description and the
/// targets it belongs to.
struct StageInfo {
  Stage stage;
  llvm::StringRef name;
  llvm::StringRef help;
  bool cpu = true, cuda = true;
};
llvm::ArrayRef<StageInfo> getStages();
/// The stage `name` names, for any target.
const StageInfo *findStage(llvm::StringRef name);

struct PipelineOptions {
  Target target = Target::CPU;
  /// Static loss scaling of the training functions (1: none).
  double lossScale = 1.0;
  /// Also derive train_step's halves, @gradients and @apply_update.
  bool dataParallel = true;
  /// Whether train_step fuses the updates into its own copy of the
  /// training pass (nn-generate-training).
  FusedUpdates fusedUpdates = FusedUpdates::Auto;
  cpu::CPUTuning cpu;
  cuda::CUDAOptions cuda;
};

/// The passes that bring a freshly parsed module to `stage`.
void buildPipelineUpTo(mlir::OpPassManager &pm, Stage stage,
                       const PipelineOptions &options = {});

/// nn-level clean-up: canonicalisation (the ops' folders) and CSE.
void buildNNCleanupPipeline(mlir::OpPassManager &pm);

/// The training functions derived in nn (nn-generate-training), then
/// clean-up (dead gradients go).
void buildNNTrainingPipeline(mlir::OpPassManager &pm, double lossScale = 1.0,
                             bool dataParallel = true,
                             FusedUpdates fusedUpdates = FusedUpdates::Auto);

/// Tensors to buffers with the compiled calling convention: parameters,
/// then inputs, then outputs (out-parameters), all owned by the caller;
/// intermediate buffers are freed inside. Both targets.
void buildBufferizePipeline(mlir::OpPassManager &pm);

/// Registers the pipelines above, and each target's, under names nnc-opt
/// accepts.
void registerPipelines();

} // namespace nnc

#endif // NNC_DRIVER_PIPELINES_H
