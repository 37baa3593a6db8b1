//===- Memref.cpp - the tensors library calls receive ---------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a).
//
//===----------------------------------------------------------------------===//

#include "Memref.h"

using namespace nnrt::cuda;

int64_t View::count() const {
  int64_t n = 1;
  for (int64_t d : sizes)
    n *= d;
  return n;
}

static std::string list(const int64_t *values, int rank) {
  std::string s = "[";
  for (int i = 0; i < rank; ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

std::string View::shape() const {
  return list(sizes.data(), static_cast<int>(sizes.size()));
}

bool nnrt::cuda::readView(const void *aligned, int64_t offset,
                          const int64_t *sizes, const int64_t *strides,
                          int rank, size_t elementSize, const char *what,
                          View &out, std::string &error) {
  out.sizes.assign(sizes, sizes + rank);
  std::vector<int64_t> expected(rank);
  int64_t stride = 1;
  bool dense = true, empty = false;
  for (int i = rank; i-- > 0;) {
    if (sizes[i] < 0) {
      error = std::string("operand '") + what +
              "' has a negative size: " + list(sizes, rank);
      return false;
    }
    empty |= sizes[i] == 0;
    expected[i] = stride;
    // A dimension of one element may have any stride: it is never stepped.
    dense &= sizes[i] == 1 || strides[i] == stride;
    stride *= sizes[i];
  }
  if (!dense && !empty) {
    error = std::string("operand '") + what +
            "' is not a dense row-major buffer: sizes " + list(sizes, rank) +
            ", strides " + list(strides, rank) + " (expected " +
            list(expected.data(), rank) + ")";
    return false;
  }
  if (offset < 0 || (!aligned && !empty)) {
    error = std::string("operand '") + what + "' has " +
            (aligned ? "a negative offset" : "no data");
    return false;
  }
  out.data = static_cast<char *>(const_cast<void *>(aligned)) +
             offset * static_cast<int64_t>(elementSize);
  return true;
}
