//===- ReaderTests.cpp - hostile .npz archives and model descriptions -----===//
//
// Part of nnc's runtime tests. Each input below once crashed a reader (an
// uncaught exception, an out-of-bounds read, a signed overflow) or was
// accepted wrongly; now each is refused with its message.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "nnrt/Archive.h"
#include "nnrt/Model.h"
#include "nnrt/Npz.h"

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

} // namespace

void runReaderTests() {
  testNpyShapes();
  testZipOffsets();
  testDirectoryLoad();
  testDescriptionNumbers();
}
