//===- Harness.cpp - the runtime tests' checks ----------------------------===//
//
// Part of nnc's runtime (its unit tests).
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <cstdio>

namespace {
int passed = 0, failed = 0;
} // namespace

void nnrt::test::check(bool ok, const std::string &what) {
  if (ok) {
    ++passed;
    return;
  }
  ++failed;
  std::printf("FAILED: %s\n", what.c_str());
  std::fflush(stdout);
}

int nnrt::test::summarize() {
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
