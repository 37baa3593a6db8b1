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

  /// The member `key` of an object, or nullptr.
  const Json *get(const std::string &key) const;
};

/// Parses `text`. On malformed input returns false and sets `error` to a
/// message with the byte offset.
bool parseJson(const std::string &text, Json &out, std::string &error);

} // namespace nnrt

#endif // NNRT_JSON_H
