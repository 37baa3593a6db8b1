//===- Archive.cpp - compressed and archived data files -------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Archive.h"

#include "nnrt/File.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>
#include <vector>
#include <zlib.h>

using namespace nnrt;

namespace {
/// The three zlib functions inflating needs, from libz.so.1.
struct Zlib {
  decltype(&inflateInit2_) init = nullptr;
  decltype(&inflate) step = nullptr;
  decltype(&inflateEnd) end = nullptr;
  std::string error;
};

const Zlib &zlib() {
  static const Zlib lib = [] {
    Zlib z;
    void *handle = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      z.error = std::string("zlib (libz.so.1) cannot be loaded: ") +
                (why ? why : "not found");
      return z;
    }
    z.init = reinterpret_cast<decltype(z.init)>(dlsym(handle, "inflateInit2_"));
    z.step = reinterpret_cast<decltype(z.step)>(dlsym(handle, "inflate"));
    z.end = reinterpret_cast<decltype(z.end)>(dlsym(handle, "inflateEnd"));
    if (!z.init || !z.step || !z.end)
      z.error = "libz.so.1 lacks inflate";
    return z;
  }();
  return lib;
}

/// A tar header's octal number field.
bool octal(const char *field, size_t size, uint64_t &out) {
  out = 0;
  size_t i = 0;
  while (i < size && field[i] == ' ')
    ++i;
  for (; i < size && field[i] >= '0' && field[i] <= '7'; ++i)
    out = out * 8 + (field[i] - '0');
  return i == size || field[i] == 0 || field[i] == ' ';
}
} // namespace

bool nnrt::fileExists(const std::string &path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

bool nnrt::isGzip(const std::string &bytes) {
  return bytes.size() >= 2 && uint8_t(bytes[0]) == 0x1f &&
         uint8_t(bytes[1]) == 0x8b;
}

bool nnrt::gunzip(const std::string &in, const std::string &name,
                  std::string &out, std::string &error) {
  const Zlib &z = zlib();
  if (!z.init) {
    error = "cannot inflate '" + name + "': " + z.error +
            "; decompress it with gunzip -k";
    return false;
  }
  out.clear();
  z_stream stream{};
  if (z.init(&stream, 16 + MAX_WBITS, ZLIB_VERSION, sizeof stream) != Z_OK) {
    error = "cannot inflate '" + name + "': zlib failed to start";
    return false;
  }
  // zlib counts input in 32 bits: a larger file is fed in pieces.
  size_t fed = 0;
  auto refill = [&] {
    if (stream.avail_in > 0 || fed == in.size())
      return;
    size_t n = std::min<size_t>(in.size() - fed, size_t(1) << 30);
    stream.next_in =
        reinterpret_cast<Bytef *>(const_cast<char *>(in.data())) + fed;
    stream.avail_in = static_cast<uInt>(n);
    fed += n;
  };
  std::vector<char> buffer(1 << 16);
  int status = Z_OK;
  while (true) {
    refill();
    stream.next_out = reinterpret_cast<Bytef *>(buffer.data());
    stream.avail_out = static_cast<uInt>(buffer.size());
    status = z.step(&stream, Z_NO_FLUSH);
    out.append(buffer.data(), buffer.size() - stream.avail_out);
    size_t at = fed - stream.avail_in; // the first byte zlib has not used
    if (status == Z_STREAM_END && isGzip(in.substr(at, 2))) {
      // Another gzip member follows (as `cat a.gz b.gz` makes).
      z.end(&stream);
      stream = z_stream{};
      if (z.init(&stream, 16 + MAX_WBITS, ZLIB_VERSION, sizeof stream) !=
          Z_OK) {
        error = "cannot inflate '" + name + "': zlib failed to start";
        return false;
      }
      fed = at;
      continue;
    }
    if (status != Z_OK)
      break;
    if (stream.avail_in == 0 && fed == in.size() && stream.avail_out != 0) {
      status = Z_BUF_ERROR; // input ended inside the stream
      break;
    }
  }
  const char *message = stream.msg;
  z.end(&stream);
  if (status == Z_STREAM_END)
    return true;
  error = "'" + name + "' is not a complete gzip file (" +
          (status == Z_BUF_ERROR
               ? std::string("it ends early")
               : std::string(message ? message : "corrupt data")) +
          ")";
  return false;
}

bool nnrt::inflateIfGzip(const std::string &bytes, const std::string &name,
                         std::string &out, std::string &error) {
  if (isGzip(bytes))
    return gunzip(bytes, name, out, error);
  out = bytes;
  return true;
}

bool nnrt::readFileBytes(const std::string &path, std::string &out,
                         std::string &error) {
  std::string bytes;
  if (!readFile(path, bytes, error))
    return false;
  if (!isGzip(bytes)) {
    out = std::move(bytes);
    return true;
  }
  return gunzip(bytes, path, out, error);
}

bool nnrt::readTar(const std::string &bytes, const std::string &name,
                   std::vector<std::pair<std::string, std::string>> &files,
                   std::string &error) {
  constexpr size_t kBlock = 512;
  files.clear();
  size_t at = 0;
  while (at + kBlock <= bytes.size()) {
    const char *header = bytes.data() + at;
    if (header[0] == 0)
      return true; // the end-of-archive blocks
    uint64_t size;
    if (std::memcmp(header + 257, "ustar", 5) != 0 ||
        !octal(header + 124, 12, size) || at + kBlock + size > bytes.size()) {
      error = "'" + name + "' is not a tar archive (bad header at byte " +
              std::to_string(at) + ")";
      return false;
    }
    std::string path(header, strnlen(header, 100));
    std::string prefix(header + 345, strnlen(header + 345, 155));
    if (!prefix.empty())
      path = prefix + "/" + path;
    char type = header[156];
    if (type == '0' || type == 0)
      files.emplace_back(path, bytes.substr(at + kBlock, size));
    at += kBlock + (size + kBlock - 1) / kBlock * kBlock;
  }
  error = "'" + name + "' is not " +
          (at == 0 ? std::string("a tar archive (too short)")
                   : "a complete tar archive (it ends at byte " +
                         std::to_string(bytes.size()) + ")");
  return false;
}
