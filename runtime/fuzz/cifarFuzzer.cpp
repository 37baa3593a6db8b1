//===- cifarFuzzer.cpp - libFuzzer target for CIFAR-10 files --------------===//
//
// Part of nnc's runtime. Feeds arbitrary bytes to the CIFAR-10 reader that
// --data=cifar10 uses. The first byte chooses what the rest is: bit 0 a
// tar archive (cifar-10-binary.tar.gz) or one batch file, bit 1 the
// training or the test set. Either may be gzip-compressed. An error
// message is expected; crashes, hangs, sanitizer reports, uncaught
// exceptions, a failure without a message and a set that does not hold
// what it says are bugs.
//
//===----------------------------------------------------------------------===//

#include "nnrt/Data.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  bool archive = data[0] & 1, train = data[0] & 2;
  std::string bytes(reinterpret_cast<const char *>(data) + 1, size - 1), error;
  nnrt::ImageSet set;
  bool ok = archive ? nnrt::parseCifar10Archive(bytes, "fuzz.tar.gz", train,
                                                set, error)
                    : nnrt::parseCifar10(bytes, "fuzz.bin", set, error);
  if (!ok && error.empty())
    std::abort();
  if (ok && (set.count() == 0 ||
             set.pixels.size() != size_t(set.count() * set.pixelsPerImage())))
    std::abort();
  for (int32_t label : set.labels)
    if (label < 0 || label >= set.classes)
      std::abort();
  return 0;
}
