//===- Philox.h - Philox4x32-10 in arith ops --------------------*- C++ -*-===//
//
// Part of nnc. The counter-based generator of Salmon et al. (SC'11) that
// dropout draws its masks from, built from 32-bit integer arith ops (the
// high halves of products through 64-bit multiplies), so every target
// computes the same words.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_LIB_CONVERSION_NNTOLINALG_PHILOX_H
#define NNC_LIB_CONVERSION_NNTOLINALG_PHILOX_H

#include "mlir/IR/Builders.h"

namespace nnc {

/// The first output word (i32) of Philox4x32-10 for the counter
/// (index mod 2^32, index / 2^32, step mod 2^32, step / 2^32) and the key
/// (seed mod 2^32, seed / 2^32). `index` and `step` are i64 values.
mlir::Value philoxFirstWord(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value index, mlir::Value step,
                            uint64_t seed);

} // namespace nnc

#endif // NNC_LIB_CONVERSION_NNTOLINALG_PHILOX_H
