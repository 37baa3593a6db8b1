//===- Npz.cpp - NumPy .npz archives --------------------------------------===//
//
// Part of nnc's runtime (libnnrt). The .npy header is NumPy's format 1.0; the
// archive is a plain ZIP with stored entries (ZIP64 sizes are read, as
// `numpy.savez` writes them).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Npz.h"

#include "nnrt/File.h"
#include "nnrt/Model.h"

#include <algorithm>
#include <cctype>
#include <cstring>

using namespace nnrt;

uint32_t nnrt::crc32(const void *data, size_t size) {
  static uint32_t table[256] = {0};
  static bool ready = [] {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    return true;
  }();
  (void)ready;
  uint32_t c = 0xFFFFFFFFu;
  auto *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < size; ++i)
    c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

namespace {
// Little-endian field writers and readers.
void put(std::string &out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

uint64_t get(const std::string &in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes; i-- > 0;)
    v = v << 8 | static_cast<unsigned char>(in[at + i]);
  return v;
}

/// Whether [at, at + length) lies inside `in`, without overflow.
bool within(const std::string &in, uint64_t at, uint64_t length) {
  return at <= in.size() && length <= in.size() - at;
}

/// NumPy's type string of an element type.
const char *npyDescr(DType type) {
  switch (type) {
  case DType::F32:
    return "<f4";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  }
  return "";
}

std::string npyHeader(const Tensor &t) {
  const Shape &dims = t.shape();
  std::string shape = "(";
  for (size_t i = 0; i < dims.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(dims[i]);
  shape += dims.size() == 1 ? ",)" : ")"; // (5,) is a tuple, (5) is not
  std::string dict = std::string("{'descr': '") + npyDescr(t.type()) +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict.push_back('\n');
  std::string header = "\x93NUMPY";
  header.push_back(1);
  header.push_back(0);
  put(header, dict.size(), 2);
  return header + dict;
}

bool fail(std::string &error, const std::string &message) {
  error = message;
  return false;
}

/// The value of `key` in a .npy header dictionary: the text after its
/// colon, up to the closing parenthesis of a shape or the next , or }.
std::string headerField(const std::string &dict, const std::string &key) {
  size_t k = dict.find("'" + key + "'");
  if (k == std::string::npos)
    return "";
  size_t colon = dict.find(':', k);
  if (colon == std::string::npos)
    return "";
  size_t end =
      key == "shape" ? dict.find(')', colon) : dict.find_first_of(",}", colon);
  if (end == std::string::npos)
    return "";
  return dict.substr(colon + 1, end + (key == "shape") - colon - 1);
}

/// Parses a shape tuple such as "(3, 4)" or "(5,)": non-negative integers
/// of at most 2^53 whose product is at most 2^53.
bool parseShape(const std::string &text, Shape &shape) {
  size_t open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return false;
  int64_t count = 1;
  bool expectDim = true;
  for (size_t i = open + 1; i < close;) {
    char c = text[i];
    if (c == ' ') {
      ++i;
    } else if (c == ',' && !expectDim) {
      expectDim = true, ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c)) && expectDim) {
      int64_t d = 0;
      for (; i < close && std::isdigit(static_cast<unsigned char>(text[i]));
           ++i) {
        d = d * 10 + (text[i] - '0');
        if (d > kMaxElements)
          return false;
      }
      if (d != 0 && count > kMaxElements / d)
        return false;
      count *= d;
      shape.push_back(d);
      expectDim = false;
    } else {
      return false; // a sign, a letter, two commas
    }
  }
  return true;
}

/// Parses a .npy file into a tensor.
bool parseNpy(const std::string &npy, const std::string &name, Tensor &out,
              std::string &error) {
  std::string where = "array '" + name + "'";
  if (npy.size() < 10 || npy.compare(0, 6, "\x93NUMPY") != 0)
    return fail(error, where + " is not a .npy file");
  int major = npy[6];
  if (major < 1 || major > 3)
    return fail(error, where + " has .npy format version " +
                           std::to_string(major) + "; 1 to 3 are read");
  size_t lenBytes = major == 1 ? 2 : 4, start = 8 + lenBytes;
  if (npy.size() < start)
    return fail(error, where + " has a truncated header");
  size_t headerLen = get(npy, 8, lenBytes);
  if (!within(npy, start, headerLen))
    return fail(error, where + " has a truncated header");
  std::string dict = npy.substr(start, headerLen);
  std::string descr = headerField(dict, "descr");
  DType type = DType::F32;
  bool known = false;
  for (DType t : {DType::F32, DType::I32, DType::I64})
    if (descr.find(std::string("'") + npyDescr(t) + "'") != std::string::npos)
      type = t, known = true;
  if (!known)
    return fail(error, where + " has element type" + descr +
                           "; only little-endian float32, int32 and int64 "
                           "are read");
  if (headerField(dict, "fortran_order").find("False") == std::string::npos)
    return fail(error, where + " is in Fortran order; save it in C order");
  Shape shape;
  std::string dims = headerField(dict, "shape");
  dims.erase(0, dims.find_first_not_of(' '));
  if (!parseShape(dims, shape))
    return fail(error, where + " has the shape '" + dims +
                           "'; dimensions are integers from 0 to 2^53, "
                           "with at most 2^53 elements");
  // The data must be there before anything is allocated for it.
  uint64_t have = npy.size() - start - headerLen;
  uint64_t need = static_cast<uint64_t>(elementCount(shape)) *
                  elementSize(type); // <= 2^56: no overflow
  if (have != need)
    return fail(error, where + " holds " + std::to_string(have) +
                           " bytes of data; its shape " + formatShape(shape) +
                           " needs " + std::to_string(need));
  Tensor t(type, shape, where);
  std::memcpy(t.data(), npy.data() + start + headerLen, t.bytes());
  out = std::move(t);
  return true;
}
} // namespace

bool nnrt::writeNpz(const std::string &path, const NamedTensors &arrays,
                    std::string &error) {
  std::string zip, central;
  for (const auto &[name, tensor] : arrays) {
    std::string file = npyHeader(*tensor);
    file.append(static_cast<const char *>(tensor->data()), tensor->bytes());
    if (file.size() >= 0xFFFFFFFFu || zip.size() >= 0xFFFFFFFFu)
      return fail(error, "cannot save '" + path +
                             "': archives over 4 GiB are not supported");
    std::string entry = name + ".npy";
    uint32_t crc = crc32(file.data(), file.size());
    auto common = [&](std::string &out) {
      put(out, 20, 2);   // version needed: 2.0
      put(out, 0, 2);    // flags
      put(out, 0, 2);    // stored
      put(out, 0, 2);    // time
      put(out, 0x21, 2); // date: 1980-01-01
      put(out, crc, 4);
      put(out, file.size(), 4);
      put(out, file.size(), 4);
      put(out, entry.size(), 2);
      put(out, 0, 2); // extra
    };
    put(central, 0x02014b50, 4);
    put(central, 20, 2); // made by
    common(central);
    put(central, 0, 2); // comment
    put(central, 0, 2); // disk
    put(central, 0, 2); // internal attributes
    put(central, 0, 4); // external attributes
    put(central, zip.size(), 4);
    central += entry;
    put(zip, 0x04034b50, 4);
    common(zip);
    zip += entry;
    zip += file;
  }
  size_t centralAt = zip.size();
  zip += central;
  put(zip, 0x06054b50, 4);
  put(zip, 0, 4); // disks
  put(zip, arrays.size(), 2);
  put(zip, arrays.size(), 2);
  put(zip, central.size(), 4);
  put(zip, centralAt, 4);
  put(zip, 0, 2); // comment

  return writeFileAtomically(path, zip, error);
}

bool nnrt::readNpz(const std::string &path, std::map<std::string, Tensor> &out,
                   std::string &error, const NpzFilter &wanted,
                   std::vector<std::string> *skipped) {
  std::string zip;
  if (!readFile(path, zip, error))
    return false;
  return readNpzBytes(zip, path, out, error, wanted, skipped);
}

bool nnrt::readNpzBytes(const std::string &zip, const std::string &path,
                        std::map<std::string, Tensor> &out, std::string &error,
                        const NpzFilter &wanted,
                        std::vector<std::string> *skipped) {
  std::string bad = "'" + path + "' is not a NumPy .npz archive";
  // The end-of-central-directory record, searched from the end.
  size_t eocd = std::string::npos;
  for (size_t i = zip.size() >= 22 ? zip.size() - 22 : std::string::npos;
       i != std::string::npos && zip.size() - i <= 22 + 0xFFFF; --i) {
    if (get(zip, i, 4) == 0x06054b50) {
      eocd = i;
      break;
    }
    if (i == 0)
      break;
  }
  if (eocd == std::string::npos)
    return fail(error, bad);
  uint64_t count = get(zip, eocd + 10, 2), at = get(zip, eocd + 16, 4);
  if ((count == 0xFFFF || at == 0xFFFFFFFFu) && eocd >= 20 &&
      get(zip, eocd - 20, 4) == 0x07064b50) {
    uint64_t z64 = get(zip, eocd - 12, 8);
    if (!within(zip, z64, 56) || get(zip, z64, 4) != 0x06064b50)
      return fail(error, bad);
    count = get(zip, z64 + 32, 8);
    at = get(zip, z64 + 48, 8);
  }
  for (uint64_t n = 0; n < count; ++n) {
    if (!within(zip, at, 46) || get(zip, at, 4) != 0x02014b50)
      return fail(error, bad + " (corrupt central directory)");
    uint64_t method = get(zip, at + 10, 2), crc = get(zip, at + 16, 4);
    uint64_t csize = get(zip, at + 20, 4), usize = get(zip, at + 24, 4);
    uint64_t nameLen = get(zip, at + 28, 2), extraLen = get(zip, at + 30, 2);
    uint64_t commentLen = get(zip, at + 32, 2), local = get(zip, at + 42, 4);
    if (!within(zip, at + 46, nameLen + extraLen))
      return fail(error, bad + " (corrupt central directory)");
    std::string name = zip.substr(at + 46, nameLen);
    // ZIP64 sizes and offset, for the fields saturated above.
    uint64_t extraEnd = at + 46 + nameLen + extraLen;
    for (uint64_t e = at + 46 + nameLen; e + 4 <= extraEnd;) {
      uint64_t id = get(zip, e, 2), len = get(zip, e + 2, 2), p = e + 4;
      uint64_t end = std::min(e + 4 + len, extraEnd);
      if (id == 1) {
        for (uint64_t *field : {&usize, &csize, &local})
          if (*field == 0xFFFFFFFFu && p + 8 <= end)
            *field = get(zip, p, 8), p += 8;
      }
      e += 4 + len;
    }
    at += 46 + nameLen + extraLen + commentLen;
    std::string array = name; // without ".npy"
    if (array.size() > 4 && array.compare(array.size() - 4, 4, ".npy") == 0)
      array.resize(array.size() - 4);
    if (wanted && !wanted(array)) {
      if (skipped)
        skipped->push_back(array);
      continue;
    }
    if (method != 0)
      return fail(error, "'" + path + "': entry '" + name +
                             "' is compressed; save with numpy.savez, not "
                             "numpy.savez_compressed");
    if (!within(zip, local, 30) || get(zip, local, 4) != 0x04034b50)
      return fail(error, bad + " (corrupt entry '" + name + "')");
    uint64_t data =
        local + 30 + get(zip, local + 26, 2) + get(zip, local + 28, 2);
    if (csize != usize || !within(zip, data, csize))
      return fail(error, "'" + path + "': entry '" + name + "' is truncated");
    std::string npy = zip.substr(data, csize);
    if (crc32(npy.data(), npy.size()) != crc)
      return fail(error, "'" + path + "': entry '" + name +
                             "' is corrupt (CRC mismatch)");
    Tensor t;
    if (!parseNpy(npy, array, t, error)) {
      error = "'" + path + "': " + error;
      return false;
    }
    out[array] = std::move(t);
  }
  return true;
}
