//===- npzFuzzer.cpp - libFuzzer target for .npz archives -----------------===//
//
// Part of nnc's runtime. Feeds arbitrary bytes to the .npz reader that
// --load uses. An error message is expected; crashes, hangs, sanitizer
// reports, uncaught exceptions and a failure without a message are bugs.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Npz.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string zip(reinterpret_cast<const char *>(data), size), error;
  std::map<std::string, nnrt::Tensor> arrays;
  if (!nnrt::readNpzBytes(zip, "fuzz.npz", arrays, error) && error.empty())
    std::abort();
  return 0;
}
