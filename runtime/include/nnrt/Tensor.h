//===- Tensor.h - caller-owned buffers and their descriptors ----*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). A dense row-major buffer, 64-byte
// aligned, with the memref descriptor compiled entry points take
// (docs/interface.md).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_TENSOR_H
#define NNRT_TENSOR_H

#include "nnrt/Model.h"

#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace nnrt {

enum class DType { F32, I32, I64 };

/// "f32", "i32" or "i64"; false for an element type the runtime does not
/// handle.
bool parseDType(const std::string &name, DType &out);
const char *dtypeName(DType type);
/// Bytes per element: 4, 4 or 8.
size_t elementSize(DType type);

/// A tensor's memory could not be allocated: what() is "out of memory
/// allocating N MiB for <what>".
class OutOfMemory : public std::bad_alloc {
public:
  OutOfMemory(size_t bytes, const std::string &what);
  const char *what() const noexcept override { return message.c_str(); }

private:
  std::string message;
};

class Tensor {
public:
  Tensor() = default;
  /// Zero-filled; throws OutOfMemory naming `what` ("parameter 'w'") when
  /// the memory cannot be had.
  Tensor(DType type, Shape shape, const std::string &what = "a tensor");
  /// A tensor over `data`, which it does not own and which must outlive it
  /// (a slice of a larger buffer).
  static Tensor view(DType type, Shape shape, void *data);

  DType type() const { return dtype; }
  const Shape &shape() const { return dims; }
  int64_t size() const { return count; }
  size_t bytes() const {
    return static_cast<size_t>(count) * elementSize(dtype);
  }

  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }
  float *f32() { return static_cast<float *>(data()); }
  const float *f32() const { return static_cast<const float *>(data()); }
  int32_t *i32() { return static_cast<int32_t *>(data()); }
  const int32_t *i32() const { return static_cast<const int32_t *>(data()); }
  int64_t *i64() { return static_cast<int64_t *>(data()); }
  const int64_t *i64() const { return static_cast<const int64_t *>(data()); }

  /// The memref descriptor of this buffer: {allocated, aligned, offset,
  /// sizes..., strides...}. Stable while the tensor lives.
  void *descriptor() { return desc.data(); }

private:
  struct Free {
    bool owned;
    void operator()(void *p) const;
  };
  void describe(void *p);
  DType dtype = DType::F32;
  Shape dims;
  int64_t count = 0;
  std::unique_ptr<void, Free> storage{nullptr, Free{true}};
  std::vector<int64_t> desc;
};

} // namespace nnrt

#endif // NNRT_TENSOR_H
