//===- CUDA.h - the CUDA target's driver pieces -----------------*- C++ -*-===//
//
// Part of nnc. What the driver needs of the CUDA target beyond its
// pipelines: the ptx stage's output and the CUDA toolkit that ptxas and
// fatbinary come from.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_CUDA_H
#define NNC_DRIVER_CUDA_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace nnc {

/// Writes the PTX of every GPU module of `module` (the ptx stage).
mlir::LogicalResult printPTX(mlir::ModuleOp module, llvm::raw_ostream &os);

/// The CUDA toolkit nnc hands to ptxas and fatbinary: $NNC_CUDA_PATH, else
/// the one found when nnc was configured (empty: PATH is searched).
std::string findCUDAToolkit();

} // namespace nnc

#endif // NNC_DRIVER_CUDA_H
