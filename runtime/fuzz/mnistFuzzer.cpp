//===- mnistFuzzer.cpp - libFuzzer target for MNIST's IDX files -----------===//
//
// Part of nnc's runtime. Feeds arbitrary bytes to the MNIST reader that
// --data=mnist uses: the first two bytes (little-endian) are the size of
// the label file, which follows, and the rest is the image file; either
// may be gzip-compressed. An error message is expected; crashes, hangs,
// sanitizer reports, uncaught exceptions, a failure without a message and
// a set that does not hold what it says are bugs.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Data.h"

#include <algorithm>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2)
    return 0;
  size_t labelSize = std::min<size_t>(data[0] | data[1] << 8, size - 2);
  const char *bytes = reinterpret_cast<const char *>(data) + 2;
  std::string labels(bytes, labelSize);
  std::string images(bytes + labelSize, size - 2 - labelSize), error;
  nnrt::ImageSet set;
  bool ok = nnrt::parseMnist(images, "fuzz-images-idx3-ubyte", labels,
                             "fuzz-labels-idx1-ubyte", set, error);
  if (!ok && error.empty())
    std::abort();
  if (ok && set.pixels.size() != size_t(set.count() * set.pixelsPerImage()))
    std::abort();
  for (int32_t label : set.labels)
    if (label < 0 || label >= set.classes)
      std::abort();
  return 0;
}
