//===- Tensor.cpp - caller-owned buffers and their descriptors ------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Tensor.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

using namespace nnrt;

bool nnrt::parseDType(const std::string &name, DType &out) {
  if (name == "f32")
    out = DType::F32;
  else if (name == "i32")
    out = DType::I32;
  else if (name == "i64")
    out = DType::I64;
  else
    return false;
  return true;
}

const char *nnrt::dtypeName(DType type) {
  switch (type) {
  case DType::F32:
    return "f32";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  }
  return "?";
}

size_t nnrt::elementSize(DType type) { return type == DType::I64 ? 8 : 4; }

void Tensor::Free::operator()(void *p) const {
  if (owned)
    std::free(p);
}

OutOfMemory::OutOfMemory(size_t bytes, const std::string &what) {
  char size[64];
  std::snprintf(size, sizeof size, "%.1f MiB", bytes / (1024.0 * 1024.0));
  message = std::string("out of memory allocating ") + size + " for " + what;
}

Tensor::Tensor(DType type, Shape shape, const std::string &what)
    : dtype(type), dims(std::move(shape)), count(elementCount(dims)) {
  constexpr size_t kAlign = 64;
  size_t size = (bytes() + kAlign - 1) / kAlign * kAlign;
  void *p = std::aligned_alloc(kAlign, size ? size : kAlign);
  if (!p)
    throw OutOfMemory(bytes(), what);
  std::memset(p, 0, size);
  storage.reset(p);
  describe(p);
}

Tensor Tensor::view(DType type, Shape shape, void *data) {
  Tensor t;
  t.dtype = type;
  t.dims = std::move(shape);
  t.count = elementCount(t.dims);
  t.storage = std::unique_ptr<void, Free>(data, Free{/*owned=*/false});
  t.describe(data);
  return t;
}

void Tensor::describe(void *p) {
  size_t rank = dims.size();
  desc.assign(3 + 2 * rank, 0);
  auto address = static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
  desc[0] = desc[1] = address;
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    desc[3 + i] = dims[i];
    desc[3 + rank + i] = stride;
    stride *= dims[i];
  }
}
