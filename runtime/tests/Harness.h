//===- Harness.h - the runtime tests' checks --------------------*- C++ -*-===//
//
// Part of nnc's runtime (its unit tests: nnrt-tests, nnrt-cuda-tests). One
// line per failed check, and a closing "N passed, N failed" line.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_TESTS_HARNESS_H
#define NNRT_TESTS_HARNESS_H

#include <string>

namespace nnrt::test {

/// Counts `ok`; prints "FAILED: what" when it is false.
void check(bool ok, const std::string &what);
/// Prints "N passed, N failed"; the process's exit status (1 on failure).
int summarize();

} // namespace nnrt::test

#endif // NNRT_TESTS_HARNESS_H
