//===- Registration.cpp - dialects and passes nnc uses --------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Registration.h"
#include "nn/IR/NNDialect.h"
#include "nnc/Driver/Pipelines.h"

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Codegen/CUDA/Passes.h"
#include "nnc/Conversion/Passes.h"
#include "nnc/Transforms/CallBufferization.h"
#include "nnc/Transforms/GenericBufferization.h"
#include "nnc/Transforms/Passes.h"
#include "nnc/Transforms/StaticSlices.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/AllInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Transforms/Passes.h"

void nnc::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::nn::NNDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::tensor::TensorDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::LLVM::LLVMDialect, mlir::omp::OpenMPDialect,
                  mlir::gpu::GPUDialect, mlir::NVVM::NVVMDialect,
                  // The CPU pipeline's intermediate stages, so that nnc-opt
                  // reads what --mlir-print-ir-* writes.
                  mlir::vector::VectorDialect, mlir::affine::AffineDialect,
                  mlir::cf::ControlFlowDialect, mlir::ub::UBDialect,
                  mlir::index::IndexDialect>();
  // First: the first model of an interface registered for an op is the
  // one it keeps, and these replace upstream's.
  registerStaticSliceModels(registry);
  registerGenericBufferizationModel(registry);
  // Interface models of the upstream dialects: bufferization of the ops the
  // CPU pipeline produces, and the extensions (conversion to LLVM, ...).
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  // After upstream's func.call model, one of whose answers it replaces.
  registerCallAliasingQuery(registry);
  mlir::linalg::registerAllDialectInterfaceImplementations(registry);
  // memref.alloc as an allocation: a returned buffer becomes the out-param
  // itself instead of a copy.
  mlir::memref::registerAllocationOpInterfaceExternalModels(registry);
  mlir::scf::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerAllExtensions(registry);
  // The CUDA target's kernels: #nvvm.target serialises them to PTX/cubin.
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

void nnc::registerAllPasses() {
  mlir::registerAllPasses();
  registerNNCConversionPasses();
  registerNNCTransformsPasses();
  cpu::registerNNCCodegenCPUPasses();
  cuda::registerNNCCodegenCUDAPasses();
  registerPipelines();
}
