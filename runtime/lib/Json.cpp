//===- Json.cpp - a small JSON reader -------------------------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Json.h"

#include <cstdlib>

using namespace nnrt;

const Json *Json::get(const std::string &key) const {
  if (kind != Object)
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->second;
}

namespace {
class Reader {
public:
  explicit Reader(const std::string &text) : text(text) {}

  bool parse(Json &out, std::string &error) {
    if (!value(out, 0) || (skip(), pos != text.size())) {
      if (message.empty())
        message = "unexpected trailing characters";
      error = message + " at offset " + std::to_string(pos);
      return false;
    }
    return true;
  }

private:
  static constexpr int kMaxDepth = 64;

  void skip() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\n' ||
                                 text[pos] == '\t' || text[pos] == '\r'))
      ++pos;
  }
  bool fail(const char *what) {
    message = what;
    return false;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (text.compare(pos, n, word) != 0)
      return fail("invalid literal");
    pos += n;
    return true;
  }

  bool value(Json &out, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting too deep");
    skip();
    if (pos >= text.size())
      return fail("unexpected end of input");
    char c = text[pos];
    if (c == '{')
      return object(out, depth);
    if (c == '[')
      return array(out, depth);
    if (c == '"') {
      out.kind = Json::String;
      return string(out.string);
    }
    if (c == 't' || c == 'f') {
      out.kind = Json::Bool;
      out.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') {
      out.kind = Json::Null;
      return literal("null");
    }
    return number(out);
  }

  bool number(Json &out) {
    const char *begin = text.c_str() + pos;
    char *end = nullptr;
    double v = std::strtod(begin, &end);
    if (end == begin)
      return fail("expected a value");
    pos += end - begin;
    out.kind = Json::Number;
    out.number = v;
    return true;
  }

  bool string(std::string &out) {
    ++pos; // opening quote
    while (pos < text.size() && text[pos] != '"') {
      char c = text[pos++];
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos >= text.size())
        break;
      char e = text[pos++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out.push_back(e);
        break;
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'u': {
        if (pos + 4 > text.size())
          return fail("truncated \\u escape");
        unsigned code = std::strtoul(text.substr(pos, 4).c_str(), nullptr, 16);
        pos += 4;
        // Names in descriptions are ASCII; keep other code points as UTF-8.
        if (code < 0x80) {
          out.push_back(static_cast<char>(code));
        } else if (code < 0x800) {
          out.push_back(static_cast<char>(0xC0 | (code >> 6)));
          out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
        } else {
          out.push_back(static_cast<char>(0xE0 | (code >> 12)));
          out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
          out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
        }
        break;
      }
      default:
        return fail("invalid escape");
      }
    }
    if (pos >= text.size())
      return fail("unterminated string");
    ++pos; // closing quote
    return true;
  }

  bool array(Json &out, int depth) {
    out.kind = Json::Array;
    ++pos;
    skip();
    if (pos < text.size() && text[pos] == ']')
      return ++pos, true;
    while (true) {
      out.array.emplace_back();
      if (!value(out.array.back(), depth + 1))
        return false;
      skip();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']')
        return ++pos, true;
      return fail("expected ',' or ']'");
    }
  }

  bool object(Json &out, int depth) {
    out.kind = Json::Object;
    ++pos;
    skip();
    if (pos < text.size() && text[pos] == '}')
      return ++pos, true;
    while (true) {
      skip();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a key");
      std::string key;
      if (!string(key))
        return false;
      skip();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':'");
      ++pos;
      if (!value(out.object[key], depth + 1))
        return false;
      skip();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}')
        return ++pos, true;
      return fail("expected ',' or '}'");
    }
  }

  const std::string &text;
  size_t pos = 0;
  std::string message;
};
} // namespace

bool nnrt::parseJson(const std::string &text, Json &out, std::string &error) {
  return Reader(text).parse(out, error);
}
