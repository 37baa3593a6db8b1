//===- Memory.h - the run's peak memory, estimated first -------*- C++ -*-===//
//-*-===//
//
// Part of nnc's runtime (the bench program). Before anything is allocated,
// the run's peak memory is estimated from the model's description and the
// flags, and compared with what the process may still take: MemAvailable,
// the address-space and data-size limits (ulimit -v, ulimit -d) and the
// cgroup's memory limit. A run that cannot fit is refused before its
// first step (--no-memory-check runs it anyway).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_MEMORY_H
#define NNRT_MAIN_MEMORY_H

#include "Options.h"

#include "nnrt/Model.h"

#include <cstdint>
#include <string>

namespace nnrt {

/// The parts of the estimate, in bytes (docs/bench.md has the formula).
struct MemoryEstimate {
  int64_t parameters = 0;  ///< trainable parameters
  int64_t state = 0;       ///< other parameters: optimizer state, statistics
  int64_t buffers = 0;     ///< the entry points' inputs, labels and outputs
  int64_t data = 0;        ///< the data set's images (--data)
  int64_t activations = 0; ///< the compiled code's: layers, gradients
  int64_t total() const;
};

MemoryEstimate estimateMemory(const ModelInfo &model, const Options &options);

/// What the process may still allocate, the tightest of the limits, and
/// which it is; `bytes` < 0 when none is known. `counted` bytes the
/// process has allocated already are in the estimate (the parameters),
/// so they count as available.
struct MemoryLimit {
  int64_t bytes = -1;
  std::string what;
};
/// Memory the machine shares (MemAvailable, a cgroup's limit) counts
/// 1/`sharing` of it: the ranks of a data-parallel run on this machine.
MemoryLimit availableMemory(int64_t counted, int sharing = 1);

/// "this run needs about N MiB (parameters P MiB, ...) but only M MiB are
/// available (WHAT)", or empty when the estimate fits.
std::string memoryShortage(const MemoryEstimate &estimate,
                           const MemoryLimit &limit);

} // namespace nnrt

#endif // NNRT_MAIN_MEMORY_H
