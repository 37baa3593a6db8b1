//===- ReaderTests.cpp - hostile archives, descriptions and data files ----===//
//
// Part of nnc's runtime tests. Each input below once crashed a reader (an
// uncaught exception, an out-of-bounds read, a signed overflow) or was
// accepted wrongly; now each is refused with its message. The data files'
// readers (CIFAR-10, MNIST, gzip, tar) are checked on valid and broken
// files alike.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "nnrt/Archive.h"
#include "nnrt/Data.h"
#include "nnrt/Model.h"
#include "nnrt/Npz.h"

#include <cstdio>
#include <unistd.h>

using namespace nnrt;
using nnrt::test::check;

namespace {

void put(std::string &out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

/// A stored ZIP holding one entry `name` with `data`.
std::string zipOf(const std::string &name, const std::string &data) {
  uint32_t crc = crc32(data.data(), data.size());
  auto header = [&](std::string &out, uint32_t magic, bool central) {
    put(out, magic, 4);
    if (central)
      put(out, 20, 2); // version made by
    put(out, 20, 2);   // version needed
    put(out, 0, 2);    // flags
    put(out, 0, 2);    // stored
    put(out, 0, 4);    // time, date
    put(out, crc, 4);
    put(out, data.size(), 4);
    put(out, data.size(), 4);
    put(out, name.size(), 2);
    put(out, 0, 2); // extra
  };
  std::string zip;
  header(zip, 0x04034b50, false);
  zip += name + data;
  size_t central = zip.size();
  header(zip, 0x02014b50, true);
  put(zip, 0, 2); // comment
  put(zip, 0, 2); // disk
  put(zip, 0, 2); // internal attributes
  put(zip, 0, 4); // external attributes
  put(zip, 0, 4); // local header offset
  zip += name;
  size_t size = zip.size() - central;
  put(zip, 0x06054b50, 4);
  put(zip, 0, 4);
  put(zip, 1, 2);
  put(zip, 1, 2);
  put(zip, size, 4);
  put(zip, central, 4);
  put(zip, 0, 2);
  return zip;
}

/// A .npy file with the header dictionary `dict` and `dataBytes` bytes.
std::string npyOf(const std::string &dict, size_t dataBytes) {
  std::string npy = "\x93NUMPY";
  npy.push_back(1);
  npy.push_back(0);
  put(npy, dict.size(), 2);
  return npy + dict + std::string(dataBytes, '\0');
}

std::string readError(const std::string &zip) {
  std::map<std::string, Tensor> out;
  std::string error;
  if (readNpzBytes(zip, "x.npz", out, error))
    return "(read)";
  return error;
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

void testNpyShapes() {
  auto shape = [](const std::string &s, size_t bytes) {
    return readError(zipOf(
        "w.npy",
        npyOf("{'descr': '<f4', 'fortran_order': False, 'shape': " + s + ", }",
              bytes)));
  };
  check(shape("(2, 3)", 24) == "(read)", "a valid .npy reads");
  std::string e = shape("(99999999999999999999999,)", 4);
  check(contains(e, "has the shape '(99999999999999999999999,)'"),
        "a dimension beyond 2^53 is refused (was std::out_of_range): " + e);
  e = shape("(4194304, 4194304, 4194304)", 4);
  check(contains(e, "at most 2^53 elements"),
        "an element count beyond 2^53 is refused before allocating (was "
        "bad_alloc): " +
            e);
  e = shape("(-3, 2)", 24);
  check(contains(e, "has the shape '(-3, 2)'"),
        "a negative dimension is refused (was read as 3): " + e);
  e = shape("(2, 3)", 20);
  check(contains(e, "holds 20 bytes of data; its shape [2, 3] needs 24"),
        "missing data is refused: " + e);
}

void testZipOffsets() {
  std::string zip = zipOf(
      "w.npy",
      npyOf("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", 4));
  // A ZIP64 locator pointing far past the end (was read out of bounds).
  std::string z64 = zip.substr(0, zip.size() - 22);
  put(z64, 0x07064b50, 4);
  put(z64, 0, 4);
  put(z64, 0xFFFFFFFFFFFFFFF0ull, 8);
  put(z64, 1, 4);
  z64 += zip.substr(zip.size() - 22);
  z64[z64.size() - 22 + 16] = z64[z64.size() - 22 + 17] =
      z64[z64.size() - 22 + 18] = z64[z64.size() - 22 + 19] = '\xFF';
  std::string e = readError(z64);
  check(contains(e, "is not a NumPy .npz archive"),
        "a ZIP64 locator beyond the file is refused: " + e);
  // A central directory offset near 2^32 on a small file.
  std::string far = zip;
  far[far.size() - 6] = far[far.size() - 5] = '\xFE';
  e = readError(far);
  check(contains(e, "corrupt central directory"),
        "a central directory beyond the file is refused: " + e);
}

void testDirectoryLoad() {
  std::map<std::string, Tensor> out;
  std::string error;
  check(!readNpz("/tmp", out, error) &&
            error == "cannot read '/tmp': it is a directory",
        "a directory as --load is refused (was std::ios_failure): " + error);
  std::string bytes;
  check(!readFileBytes("/tmp", bytes, error) &&
            error == "cannot read '/tmp': it is a directory",
        "a directory as a data file is refused (was std::ios_failure): " +
            error);
}

void testDescriptionNumbers() {
  auto describe = [](const std::string &members) {
    ModelInfo model;
    std::string error;
    std::string text = "{\"interface\": 1, \"name\": \"m\", \"parameters\": "
                       "[], \"entry_points\": [], " +
                       members + "}";
    return readModelInfo(text, model, error) ? "(read)" : error;
  };
  check(describe("\"batch_size\": 4") == "(read)", "a valid description reads");
  std::string e = describe("\"batch_size\": 1e300");
  check(contains(e, "malformed 'batch_size'"),
        "a batch size beyond 2^53 is refused (was a signed overflow): " + e);
  e = describe("\"batch_size\": 2.5");
  check(contains(e, "malformed 'batch_size'"),
        "a fractional batch size is refused: " + e);
  ModelInfo model;
  std::string error;
  bool read =
      readModelInfo("{\"interface\": 1e300, \"name\": \"m\"}", model, error);
  check(!read && contains(error, "this runtime reads 1"),
        "an interface version out of range is refused: " + error);
  read = readModelInfo(
      "{\"interface\": 1, \"name\": \"m\", \"parameters\": [{\"name\": \"w\", "
      "\"dtype\": \"f32\", \"shape\": [4194304, 4194304, 4194304], "
      "\"init\": {\"kind\": \"zeros\"}}], \"entry_points\": []}",
      model, error);
  check(!read && contains(error, "at most 2^53 elements"),
        "a parameter beyond 2^53 elements is refused: " + error);
  // An entry point's FLOPs are optional: absent reads as 0 (not known).
  auto entry = [&](const std::string &flops) {
    ModelInfo m;
    std::string text = "{\"interface\": 1, \"name\": \"m\", "
                       "\"parameters\": [], \"entry_points\": [{\"name\": "
                       "\"forward\", \"symbol\": \"s\", \"packed\": \"p\", "
                       "\"args\": []" +
                       flops + "}]}";
    error.clear();
    return readModelInfo(text, m, error) ? m.entryPoints[0].flops : int64_t(-1);
  };
  check(entry("") == 0, "an entry point without 'flops' reads as 0");
  check(entry(", \"flops\": 1024") == 1024, "an entry point's flops read");
  check(entry(", \"flops\": -3") == -1 &&
            contains(error, "entry point 'forward': malformed 'flops'"),
        "negative flops are refused: " + error);
  check(entry(", \"flops\": \"many\"") == -1,
        "flops that are not a number are refused");
}

/// `data` as a gzip member with one stored (uncompressed) deflate block.
std::string gzipOf(const std::string &data) {
  std::string gz = "\x1f\x8b\x08";
  put(gz, 0, 6);    // flags, time, extra flags
  gz += "\xff\x01"; // unknown OS; the last (and only) stored block
  put(gz, data.size(), 2);
  put(gz, ~data.size() & 0xFFFF, 2);
  gz += data;
  put(gz, crc32(data.data(), data.size()), 4);
  put(gz, data.size(), 4);
  return gz;
}

/// A ustar archive holding `name` with `data`.
std::string tarOf(const std::string &name, const std::string &data) {
  std::string header(512, '\0');
  header.replace(0, name.size(), name);
  char size[12];
  std::snprintf(size, sizeof size, "%011o", static_cast<unsigned>(data.size()));
  header.replace(124, 11, size);
  header[156] = '0';
  header.replace(257, 6, std::string("ustar", 6));
  std::string tar = header + data;
  tar.resize((tar.size() + 511) / 512 * 512 + 1024, '\0');
  return tar;
}

/// CIFAR-10 records with these labels.
std::string cifarOf(std::initializer_list<int> labels) {
  std::string records;
  for (int label : labels)
    records += static_cast<char>(label) + std::string(3072, '\x40');
  return records;
}

/// An MNIST label file and image file of `count` images (labels 0, 1, ...).
std::pair<std::string, std::string> mnistOf(uint32_t count) {
  auto big = [](std::string &out, uint32_t v) {
    for (int i = 3; i >= 0; --i)
      out.push_back(static_cast<char>(v >> (8 * i)));
  };
  std::string labels, images;
  big(labels, 0x801);
  big(labels, count);
  for (uint32_t i = 0; i < count; ++i)
    labels.push_back(static_cast<char>(i % 10));
  for (uint32_t v : {0x803u, count, 28u, 28u})
    big(images, v);
  images += std::string(784 * count, '\x7f');
  return {labels, images};
}

void testCifar10Files() {
  ImageSet set;
  std::string error;
  check(parseCifar10(cifarOf({3, 9}), "b.bin", set, error) &&
            set.count() == 2 && set.labels[1] == 9 &&
            set.pixels.size() == 2 * 3072,
        "two CIFAR-10 records read: " + error);
  set = ImageSet();
  std::string twoMembers = gzipOf(cifarOf({1})) + gzipOf(cifarOf({2}));
  check(parseCifar10(twoMembers, "b.bin.gz", set, error) && set.count() == 2 &&
            set.labels[0] == 1 && set.labels[1] == 2,
        "a gzip file of two members reads both: " + error);
  std::string gz = gzipOf(cifarOf({1}));
  check(!parseCifar10(gz.substr(0, gz.size() - 100), "b.bin.gz", set, error) &&
            error == "'b.bin.gz' is not a complete gzip file (it ends early)",
        "a truncated gzip file is refused: " + error);
  std::string bad = gz;
  bad[bad.size() - 8] ^= 1; // the CRC
  check(!parseCifar10(bad, "b.bin.gz", set, error) &&
            contains(error, "'b.bin.gz' is not a complete gzip file"),
        "a gzip file with a wrong CRC is refused: " + error);
  check(!parseCifar10(cifarOf({1}) + "x", "b.bin", set, error) &&
            contains(error, "its 3074 bytes are not a whole number of "
                            "3073-byte records"),
        "a partial record is refused: " + error);
  check(!parseCifar10("", "b.bin", set, error) &&
            contains(error, "its 0 bytes are not a whole number"),
        "an empty batch file is refused: " + error);
  check(!parseCifar10(cifarOf({0, 10}), "b.bin", set, error) &&
            error == "'b.bin': record 1 has label 10; CIFAR-10 labels are 0..9",
        "a label out of range is refused: " + error);
}

void testCifar10Archives() {
  ImageSet set;
  std::string error;
  bool absent = false;
  std::string tar = tarOf("cifar-10-batches-bin/test_batch.bin", cifarOf({4}));
  check(parseCifar10Archive(gzipOf(tar), "c.tar.gz", false, set, error) &&
            set.count() == 1 && set.labels[0] == 4,
        "the test batch of a tar.gz archive reads: " + error);
  set = ImageSet();
  check(!parseCifar10Archive(tar, "c.tar", true, set, error, &absent) &&
            absent && contains(error, "'c.tar' holds no data_batch_1.bin"),
        "an archive without training batches says so: " + error);
  absent = false;
  check(!parseCifar10Archive(tar.substr(0, 1000), "c.tar", false, set, error,
                             &absent) &&
            !absent &&
            error == "'c.tar' is not a tar archive (bad header at byte 0)",
        "a truncated archive is refused: " + error);
  std::string huge = tar;
  huge.replace(124, 11, "77777777777");
  check(!parseCifar10Archive(huge, "c.tar", false, set, error) &&
            contains(error, "bad header at byte 0"),
        "a member larger than the archive is refused: " + error);
  check(!parseCifar10Archive(tar.substr(0, 100), "c.tar", false, set, error) &&
            contains(error, "'c.tar' is not a tar archive (too short)"),
        "a file shorter than a tar header is refused: " + error);
  tar = tarOf("cifar-10-batches-bin/test_batch.bin", cifarOf({4}) + "?");
  check(!parseCifar10Archive(tar, "c.tar", false, set, error) &&
            contains(error, "'c.tar:cifar-10-batches-bin/test_batch.bin' is "
                            "not in the CIFAR-10 binary format"),
        "a broken batch in an archive is named: " + error);
}

void testMnistFiles() {
  auto [labels, images] = mnistOf(3);
  ImageSet set;
  std::string error;
  check(parseMnist(gzipOf(images), "i.gz", labels, "l", set, error) &&
            set.count() == 3 && set.labels[2] == 2 &&
            set.pixels.size() == 3 * 784 && set.side == 28,
        "MNIST files read (images gzipped): " + error);
  check(!parseMnist(images, "i", mnistOf(2).first, "l", set, error) &&
            contains(error, "disagree on the number of images"),
        "files with different counts are refused: " + error);
  check(!parseMnist(images.substr(0, images.size() - 1), "i", labels, "l", set,
                    error) &&
            contains(error, "or are truncated"),
        "a truncated image file is refused: " + error);
  std::string big = images;
  big[4] = big[5] = big[6] = big[7] = '\xff'; // 2^32 - 1 images
  check(!parseMnist(big, "i", labels, "l", set, error) &&
            contains(error, "disagree on the number of images"),
        "a count far beyond the file is refused: " + error);
  std::string label10 = labels;
  label10[9] = 10;
  check(!parseMnist(images, "i", label10, "l", set, error) &&
            error == "'l': label 1 is 10; MNIST labels are 0..9",
        "a label out of range is refused: " + error);
  check(!parseMnist(labels, "i", labels, "l", set, error) &&
            error == "'i' is not an IDX file of 28x28 images",
        "a label file given as images is refused: " + error);
  check(!parseMnist(images, "i", "", "l", set, error) &&
            error == "'l' is not an IDX label file",
        "an empty label file is refused: " + error);
}

} // namespace

void runReaderTests() {
  testNpyShapes();
  testZipOffsets();
  testDirectoryLoad();
  testDescriptionNumbers();
  testCifar10Files();
  testCifar10Archives();
  testMnistFiles();
}
