//===- modelFuzzer.cpp - libFuzzer target for model descriptions ----------===//
//
// Part of nnc's runtime. Feeds arbitrary bytes to the reader of the model
// description (the JSON nn-export-model-interface puts in the object). An
// error message is expected; crashes, hangs, sanitizer reports, uncaught
// exceptions and a failure without a message are bugs.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Model.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size), error;
  nnrt::ModelInfo model;
  if (!nnrt::readModelInfo(text, model, error) && error.empty())
    std::abort();
  return 0;
}
