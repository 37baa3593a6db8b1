//===- RuntimeCall.h - calls into libnnrt's CUDA part -----------*- C++ -*-===//
//
// Part of nnc. A library-backed op becomes, on tensors,
//
//   %xb = bufferization.to_buffer %x read_only
//   %yb = memref.alloc()                       (one per output)
//   func.call @nnrt_cuda_<op>(%xb..., %yb..., scalars..., %layer)
//   %y  = bufferization.to_tensor %yb restrict writable
//
// so one-shot bufferization places the call among the generated code's
// buffers. Declarations take memrefs of dynamic shape (one C interface per
// call, whatever the shapes) and `llvm.emit_c_interface`, so the runtime
// receives a pointer to each memref descriptor (docs/cuda-runtime.md).
// Calls on bf16 storage go to `nnrt_cuda_<op>_bf16` (a declaration has one
// signature; the runtime forwards them).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_NNTOCUDA_RUNTIMECALL_H
#define NNC_CONVERSION_NNTOCUDA_RUNTIMECALL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace nnc::cuda {

/// A scalar argument: i64 or f64.
struct Scalar {
  bool isFloat;
  int64_t i;
  double f;
  static Scalar integer(int64_t v) { return {false, v, 0.0}; }
  static Scalar real(double v) { return {true, 0, v}; }
};

/// Calls `nnrt_cuda_<name>` with `inputs` (tensors, read), a fresh output
/// of `resultType` (written), then `scalars` and the layer string of
/// `loc`; returns the output as a tensor.
mlir::Value callRuntime(mlir::OpBuilder &b, mlir::Location loc,
                        llvm::StringRef name, mlir::ValueRange inputs,
                        mlir::RankedTensorType resultType,
                        llvm::ArrayRef<Scalar> scalars);

/// The same with one fresh output per type of `resultTypes`, passed in
/// order after the inputs; returns the outputs as tensors.
llvm::SmallVector<mlir::Value>
callRuntime(mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef name,
            mlir::ValueRange inputs,
            llvm::ArrayRef<mlir::RankedTensorType> resultTypes,
            llvm::ArrayRef<Scalar> scalars);

/// "conv1 (models/alexnet.nn:8:7)": the layer's name and source location.
std::string layerName(mlir::Location loc);

/// `x` converted elementwise to `element` (truncf or extf), or `x` itself.
mlir::Value castTensor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                       mlir::Type element);

} // namespace nnc::cuda

#endif // NNC_CONVERSION_NNTOCUDA_RUNTIMECALL_H
