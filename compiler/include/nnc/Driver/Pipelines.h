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

/// What the code runs on.
enum class Target { CPU, CUDA };

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

/// What the CPU code generator sizes its register tiles and cache blocks
/// from (nn-cpu-contractions); the driver fills it in for the target CPU.
struct CPUTuning {
  int64_t vectorBits = 256;
  int64_t vectorRegisters = 16;
  int64_t l1Bytes = 32 * 1024;
  int64_t l2Bytes = 512 * 1024;
};

/// How the CUDA target compiles.
struct CUDAOptions {
  std::string precision = "fp32"; ///< fp32, tf32 or bf16
  std::string arch = "sm_90";     ///< the GPU the cubin is for
  std::string toolkit;            ///< the CUDA toolkit (ptxas, libdevice)
};

struct PipelineOptions {
  Target target = Target::CPU;
  /// Static loss scaling of the training functions (1: none).
  double lossScale = 1.0;
  CPUTuning cpu;
  CUDAOptions cuda;
};

/// The passes that bring a freshly parsed module to `stage`.
void buildPipelineUpTo(mlir::OpPassManager &pm, Stage stage,
                       const PipelineOptions &options = {});

/// nn-level clean-up: canonicalisation (the ops' folders) and CSE.
void buildNNCleanupPipeline(mlir::OpPassManager &pm);

/// The training functions derived in nn (nn-generate-training), then
/// clean-up (dead gradients go).
void buildNNTrainingPipeline(mlir::OpPassManager &pm, double lossScale = 1.0);

/// nn to linalg on tensors (after recording the layer table), elementwise
/// chains fused, then clean-up.
void buildNNToLinalgPipeline(mlir::OpPassManager &pm);

/// The CUDA target's first lowering: library-backed ops as calls into
/// libnnrt's CUDA part (convert-nn-to-cuda), the rest as linalg on tensors,
/// elementwise chains fused (each chain becomes one kernel).
void buildNNToCUDAPipeline(mlir::OpPassManager &pm,
                           const CUDAOptions &options = {});

/// Tensors to buffers with the compiled calling convention: parameters,
/// then inputs, then outputs (out-parameters), all owned by the caller;
/// intermediate buffers are freed inside. Both targets.
void buildBufferizePipeline(mlir::OpPassManager &pm);

/// Bufferized host code to kernels: the model description, device buffers,
/// one kernel per linalg op (outlined), the work chained on one stream.
void buildCUDAKernelsPipeline(mlir::OpPassManager &pm);

/// The kernels to NVVM and a binary embedded in the module: PTX text
/// (`ptx`), or a fatbin with the cubin for `arch` and the PTX.
void buildCUDABinaryPipeline(mlir::OpPassManager &pm,
                             const CUDAOptions &options, bool ptxOnly);

/// The CUDA target's host code to the LLVM dialect.
void buildCUDAHostPipeline(mlir::OpPassManager &pm);

/// The bufferized module to the LLVM dialect: the model description
/// (nn-export-model-interface), contractions as tiled vector code
/// (nn-cpu-contractions), parallel loops as OpenMP, then LLVM.
void buildCPULLVMPipeline(mlir::OpPassManager &pm,
                          const CPUTuning &tuning = {});

/// Registers the pipelines above under names nnc-opt accepts.
void registerPipelines();

} // namespace nnc

#endif // NNC_DRIVER_PIPELINES_H
