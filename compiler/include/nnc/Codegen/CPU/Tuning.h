//===- Tuning.h - what the CPU code generator sizes its code from -*- C++
//-*-===//
//
// Part of nnc. The one definition of a target CPU's tuning: the driver fills
// it in for the host (or a named CPU), the passes' options default to it,
// and the contraction planner sizes register tiles and cache blocks from it.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CODEGEN_CPU_TUNING_H
#define NNC_CODEGEN_CPU_TUNING_H

#include <cstdint>

namespace nnc::cpu {

/// The vector registers and caches of the target CPU.
struct CPUTuning {
  int64_t vectorBits = 256;     ///< width of a vector register
  int64_t vectorRegisters = 16; ///< number of vector registers
  int64_t l1Bytes = 32 * 1024;  ///< level-1 data cache per core
  int64_t l2Bytes = 512 * 1024; ///< level-2 cache per core
};

} // namespace nnc::cpu

#endif // NNC_CODEGEN_CPU_TUNING_H
