//===- Check.h - nnrt-cuda-tests' checks and helpers ------------*- C++ -*-===//
//
// Part of nnc's runtime (the CUDA runtime's tests). One line per failed
// check; the numbers are compared with a CPU reference (Reference.h).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_TESTS_CHECK_H
#define NNRT_CUDA_TESTS_CHECK_H

#include "../../tests/Harness.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace nnrt::cuda::test {

using nnrt::test::check;

/// max |got - want| / max |want|: the error relative to the result's scale.
double relativeError(const std::vector<float> &got,
                     const std::vector<float> &want);
/// Checks `got` against `want` within `tolerance` (relative, as above).
void checkClose(const std::vector<float> &got, const std::vector<float> &want,
                double tolerance, const std::string &what);

std::vector<float> randomVector(size_t n, std::mt19937 &rng);

/// bfloat16 storage: round to nearest even, and back.
uint16_t toBf16(float v);
float fromBf16(uint16_t v);
/// `v` rounded to bf16 precision (what a bf16 buffer holds).
std::vector<float> roundedToBf16(const std::vector<float> &v);

void runHostTests();
void runGpuTests();
/// Makes the bad call `name` (FailureCases.cpp), which should exit 1; false
/// when it returns.
bool runFailureCase(const char *name);

} // namespace nnrt::cuda::test

#endif // NNRT_CUDA_TESTS_CHECK_H
