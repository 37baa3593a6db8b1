//===- Json.cpp - a small JSON reader -------------------------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace nnrt;

const Json *Json::get(const std::string &key) const {
  if (kind != Object)
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &it->second;
}

Json &Json::operator[](const std::string &key) {
  kind = Object;
  return object[key];
}

static void format(const Json &v, int depth, std::string &out) {
  std::string indent(2 * depth + 2, ' ');
  switch (v.kind) {
  case Json::Null:
    out += "null";
    return;
  case Json::Bool:
    out += v.boolean ? "true" : "false";
    return;
  case Json::Number: {
    if (!std::isfinite(v.number)) {
      out += "null";
      return;
    }
    char buffer[32];
    // Whole numbers as integers (100, not 1e+02), up to 2^53.
    if (v.number == std::trunc(v.number) && std::fabs(v.number) <= 9.0e15) {
      std::snprintf(buffer, sizeof buffer, "%lld",
                    static_cast<long long>(v.number));
      out += buffer;
      return;
    }
    std::snprintf(buffer, sizeof buffer, "%.17g", v.number);
    // The shortest form that reads back the same double.
    for (int precision = 1; precision < 17; ++precision) {
      char shorter[32];
      std::snprintf(shorter, sizeof shorter, "%.*g", precision, v.number);
      if (std::strtod(shorter, nullptr) == v.number) {
        std::snprintf(buffer, sizeof buffer, "%s", shorter);
        break;
      }
    }
    out += buffer;
    return;
  }
  case Json::String:
    out.push_back('"');
    for (unsigned char c : v.string) {
      if (c == '"' || c == '\\') {
        out.push_back('\\');
        out.push_back(static_cast<char>(c));
      } else if (c < 0x20) {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\u%04x", c);
        out += escape;
      } else {
        out.push_back(static_cast<char>(c));
      }
    }
    out.push_back('"');
    return;
  case Json::Array:
  case Json::Object: {
    bool isArray = v.kind == Json::Array;
    size_t n = isArray ? v.array.size() : v.object.size();
    out += isArray ? "[" : "{";
    if (n == 0) {
      out += isArray ? "]" : "}";
      return;
    }
    size_t i = 0;
    auto item = [&](const std::string *key, const Json &value) {
      out += (i++ ? ",\n" : "\n") + indent;
      if (key) {
        format(Json(*key), depth, out);
        out += ": ";
      }
      format(value, depth + 1, out);
    };
    if (isArray)
      for (const Json &e : v.array)
        item(nullptr, e);
    else
      for (const auto &[key, value] : v.object)
        item(&key, value);
    out += "\n" + std::string(2 * depth, ' ') + (isArray ? "]" : "}");
    return;
  }
  }
}

std::string nnrt::formatJson(const Json &value) {
  std::string out;
  format(value, 0, out);
  return out + "\n";
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
