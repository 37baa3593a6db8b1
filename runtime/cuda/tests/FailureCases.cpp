//===- FailureCases.cpp - calls the runtime must refuse -------------------===//
//
// Part of nnc's runtime (the CUDA runtime's tests). `nnrt-cuda-tests
// --fail=CASE` makes one bad call; the runtime must print its error line
// and exit 1. The operands are checked before anything touches CUDA, so
// these run without a GPU (test/Runtime/cuda-errors.test).
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include "nnrt/cuda/Abi.h"

#include <cstdio>
#include <cstring>

using namespace nnrt::cuda::test;

namespace {
// Never dereferenced: the checks fail first.
float fake[1];

NnrtDesc4 dense4(int64_t n, int64_t h, int64_t w, int64_t c) {
  return {fake, fake, 0, {n, h, w, c}, {h * w * c, w * c, c, 1}};
}
NnrtDesc2 dense2(int64_t r, int64_t c) {
  return {fake, fake, 0, {r, c}, {c, 1}};
}

const char *kLayer = "conv1 (models/test.nn:3:1)";
} // namespace

bool nnrt::cuda::test::runFailureCase(const char *name) {
  std::string c = name;
  if (c == "conv-shapes") {
    NnrtDesc4 x = dense4(1, 5, 5, 3), w = dense4(3, 3, 3, 4),
              y = dense4(1, 4, 4, 4);
    _mlir_ciface_nnrt_cuda_conv2d(&x, &w, &y, 1, 1, 1, 1, 0, 0, 0, kLayer);
  } else if (c == "conv-math") {
    NnrtDesc4 x = dense4(1, 5, 5, 3), w = dense4(3, 3, 3, 4),
              y = dense4(1, 3, 3, 4);
    _mlir_ciface_nnrt_cuda_conv2d(&x, &w, &y, 1, 1, 1, 1, 0, 0, 3, kLayer);
  } else if (c == "filter-shapes") {
    NnrtDesc4 x = dense4(2, 6, 6, 3), dy = dense4(2, 3, 3, 8),
              dw = dense4(3, 3, 4, 8);
    _mlir_ciface_nnrt_cuda_conv2d_backprop_filter(&x, &dy, &dw, 2, 2, 1, 1, 1,
                                                  1, 1, kLayer);
  } else if (c == "matmul-strided") {
    NnrtDesc2 a = dense2(4, 5), b = dense2(5, 3), out = dense2(4, 3);
    a.strides[0] = 8;
    _mlir_ciface_nnrt_cuda_matmul(&a, &b, &out, 0, 0, 0, "local3 (m.nn:9:1)");
  } else if (c == "matmul-shapes") {
    NnrtDesc2 a = dense2(5, 4), b = dense2(5, 3), out = dense2(4, 3);
    NnrtDesc1 bias{fake, fake, 0, {4}, {1}};
    _mlir_ciface_nnrt_cuda_matmul_bias(&a, &b, &bias, &out, 1, 0, 1, 0,
                                       "local3 (m.nn:9:1)");
  } else if (c == "pool-padding") {
    NnrtDesc4 x = dense4(1, 6, 6, 2), y = dense4(1, 4, 4, 2);
    _mlir_ciface_nnrt_cuda_pool2d(&x, &y, 0, 2, 2, 2, 2, 2, 2,
                                  "pool1 (m.nn:4:1)");
  } else if (c == "lrn-radius") {
    NnrtDesc4 x = dense4(1, 2, 2, 32), y = dense4(1, 2, 2, 32);
    _mlir_ciface_nnrt_cuda_lrn(&x, &y, 8, 1.0, 1e-3, 0.75, "norm1 (m.nn:5:1)");
  } else if (c == "batch-norm-channels") {
    NnrtDesc4 x = dense4(8, 1, 1, 16), y = dense4(8, 1, 1, 16);
    NnrtDesc1 v16{fake, fake, 0, {16}, {1}}, v12{fake, fake, 0, {12}, {1}};
    _mlir_ciface_nnrt_cuda_batch_norm_train(&x, &v16, &v12, &y, &v16, &v16,
                                            1e-3, "bn1 (m.nn:6:1)");
  } else if (c == "host-shared") {
    mgpuMemAlloc(64, nullptr, true);
  } else {
    std::fprintf(stderr, "unknown failure case '%s'\n", name);
    return false;
  }
  std::printf("the call did not fail\n");
  return false;
}
