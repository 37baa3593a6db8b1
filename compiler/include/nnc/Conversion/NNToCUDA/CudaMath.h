//===- CudaMath.h - how the CUDA target computes ----------------*- C++ -*-===//
//
// Part of nnc. The --precision of the CUDA target, one enum from the
// driver's flag through convert-nn-to-cuda's option to the runtime's `math`
// argument (docs/cuda-runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_NNTOCUDA_CUDAMATH_H
#define NNC_CONVERSION_NNTOCUDA_CUDAMATH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>

namespace nnc {

/// How convolutions and matrix products compute: 0 strict fp32, 1 TF32
/// allowed, 2 bf16 operands (the runtime's `math` argument).
enum class CudaMath : int64_t { FP32 = 0, TF32 = 1, BF16 = 2 };

/// The flag values naming each mode (--precision, convert-nn-to-cuda's
/// precision option).
inline llvm::cl::ValuesClass cudaMathValues() {
  return llvm::cl::values(
      clEnumValN(CudaMath::FP32, "fp32", "strict fp32 (the default)"),
      clEnumValN(CudaMath::TF32, "tf32", "TF32 tensor cores allowed"),
      clEnumValN(CudaMath::BF16, "bf16",
                 "bf16 operands, f32 accumulation and master weights"));
}

/// The flag value of `math` ("fp32", "tf32" or "bf16").
inline llvm::StringRef cudaMathName(CudaMath math) {
  switch (math) {
  case CudaMath::FP32:
    return "fp32";
  case CudaMath::TF32:
    return "tf32";
  case CudaMath::BF16:
    return "bf16";
  }
  return "fp32";
}

} // namespace nnc

#endif // NNC_CONVERSION_NNTOCUDA_CUDAMATH_H
