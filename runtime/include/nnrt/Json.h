//===- Json.h - a small JSON reader -----------------------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Reads the model description a compiled
// object carries (docs/interface.md). Plain C++: no MLIR or LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_JSON_H
#define NNRT_JSON_H

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nnrt {

/// A JSON value. Objects keep their keys sorted.
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::map<std::string, Json> object;

  Json() = default;
  Json(double n) : kind(Number), number(n) {}
  Json(int64_t n) : kind(Number), number(static_cast<double>(n)) {}
  Json(int n) : kind(Number), number(n) {}
  Json(bool b) : kind(Bool), boolean(b) {}
  Json(std::string s) : kind(String), string(std::move(s)) {}
  Json(const char *s) : kind(String), string(s) {}
  static Json makeArray() {
    Json j;
    j.kind = Array;
    return j;
  }
  static Json makeObject() {
    Json j;
    j.kind = Object;
    return j;
  }

  /// The member `key` of an object, or nullptr.
  const Json *get(const std::string &key) const;
  /// The member `key` of an object, created (null) if missing.
  Json &operator[](const std::string &key);
};

/// `value` as JSON text, indented by two spaces per level.
std::string formatJson(const Json &value);

/// Parses `text`. On malformed input returns false and sets `error` to a
/// message with the byte offset.
bool parseJson(const std::string &text, Json &out, std::string &error);

} // namespace nnrt

#endif // NNRT_JSON_H
