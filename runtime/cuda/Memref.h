//===- Memref.h - the tensors library calls receive -------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). Reads MLIR's memref descriptors
// into the address and shape of a dense row-major tensor, refusing any
// other layout with a message that names the operand.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_MEMREF_H
#define NNRT_CUDA_MEMREF_H

#include "Runtime.h"

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

namespace nnrt::cuda {

/// A dense row-major tensor in device memory.
struct View {
  char *data = nullptr;
  std::vector<int64_t> sizes;

  int64_t count() const;
  /// "[128, 56, 56, 64]"
  std::string shape() const;
};

/// Reads the fields of a descriptor of rank `rank` into `out`. False with a
/// message naming operand `what` when the tensor is not dense row-major.
bool readView(const void *aligned, int64_t offset, const int64_t *sizes,
              const int64_t *strides, int rank, size_t elementSize,
              const char *what, View &out, std::string &error);

/// The view of `desc`, or the call fails at `site`.
template <typename Desc>
View viewOf(const Desc *desc, size_t elementSize, const char *what,
            const Site &site) {
  View out;
  std::string error;
  if (!desc)
    fail(site, std::string("operand '") + what + "' has no descriptor");
  if (!readView(desc->aligned, desc->offset, desc->sizes, desc->strides,
                static_cast<int>(std::size(desc->sizes)), elementSize, what,
                out, error))
    fail(site, error);
  return out;
}

} // namespace nnrt::cuda

#endif // NNRT_CUDA_MEMREF_H
