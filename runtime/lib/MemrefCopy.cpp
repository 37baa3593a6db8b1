//===- MemrefCopy.cpp - strided copies for compiled models ----------------===//
//
// Part of nnc's runtime (libnnrt). Compiled models that copy strided views
// call `memrefCopy` (docs/interface.md); this is its implementation, so a
// bench program needs no MLIR library.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
/// An unranked memref: the rank and a pointer to the ranked descriptor
/// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct Unranked {
  int64_t rank;
  void *descriptor;
};
/// The fixed head of a ranked descriptor; sizes[rank] and strides[rank]
/// follow it.
struct Head {
  char *allocated, *aligned;
  int64_t offset;
};
const int64_t *tail(const Head *head) {
  return reinterpret_cast<const int64_t *>(head + 1);
}
} // namespace

extern "C" void memrefCopy(int64_t elementSize, Unranked *source,
                           Unranked *target) {
  int64_t rank = source->rank;
  auto *src = static_cast<const Head *>(source->descriptor);
  auto *dst = static_cast<const Head *>(target->descriptor);
  const int64_t *sizes = tail(src), *srcStrides = tail(src) + rank,
                *dstStrides = tail(dst) + rank;
  char *from = src->aligned + src->offset * elementSize;
  char *to = dst->aligned + dst->offset * elementSize;
  if (rank == 0) {
    std::memcpy(to, from, elementSize);
    return;
  }
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return;
  // Walk every index, innermost fastest.
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t s = 0, t = 0;
    for (int64_t d = 0; d < rank; ++d) {
      s += index[d] * srcStrides[d];
      t += index[d] * dstStrides[d];
    }
    std::memcpy(to + t * elementSize, from + s * elementSize, elementSize);
    int64_t d = rank - 1;
    while (d >= 0 && ++index[d] == sizes[d])
      index[d--] = 0;
    if (d < 0)
      return;
  }
}
