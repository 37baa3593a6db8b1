//===- Lexer.cpp - tokens of the .nn model language -----------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Parser/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

using namespace nnc;

llvm::StringRef nnc::describe(Token::Kind kind) {
  switch (kind) {
  case Token::Eof:
    return "end of file";
  case Token::Error:
    return "invalid token";
  case Token::Identifier:
    return "a name";
  case Token::Integer:
    return "an integer";
  case Token::Float:
    return "a number";
  case Token::LParen:
    return "'('";
  case Token::RParen:
    return "')'";
  case Token::LBracket:
    return "'['";
  case Token::RBracket:
    return "']'";
  case Token::LBrace:
    return "'{'";
  case Token::RBrace:
    return "'}'";
  case Token::Comma:
    return "','";
  case Token::Semicolon:
    return "';'";
  case Token::Equal:
    return "'='";
  case Token::Colon:
    return "':'";
  case Token::Plus:
    return "'+'";
  case Token::Minus:
    return "'-'";
  case Token::Star:
    return "'*'";
  case Token::Slash:
    return "'/'";
  }
  return "token";
}

static bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
static bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

void Lexer::skipSpaceAndComments() {
  while (cur < end) {
    char c = *cur;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++cur;
    } else if (c == '#') {
      while (cur < end && *cur != '\n')
        ++cur;
    } else {
      return;
    }
  }
}

Token Lexer::make(Token::Kind kind, const char *start) {
  Token tok;
  tok.kind = kind;
  tok.spelling = llvm::StringRef(start, cur - start);
  return tok;
}

Token Lexer::error(const char *start, const char *stop, std::string message) {
  cur = stop;
  Token tok;
  tok.kind = Token::Error;
  tok.spelling = llvm::StringRef(start, std::max<ptrdiff_t>(stop - start, 0));
  tok.message = std::move(message);
  return tok;
}

Token Lexer::lexNumber(const char *start) {
  const char *p = start;
  bool isFloat = false;
  while (p < end && llvm::isDigit(*p))
    ++p;
  if (p < end && *p == '.') {
    isFloat = true;
    ++p;
    while (p < end && llvm::isDigit(*p))
      ++p;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    isFloat = true;
    ++p;
    if (p < end && (*p == '+' || *p == '-'))
      ++p;
    if (p == end || !llvm::isDigit(*p)) {
      // Consume the rest of the word so the message shows all of it.
      while (p < end && isIdentChar(*p))
        ++p;
      return error(start, p,
                   "malformed number '" + std::string(start, p) +
                       "': the exponent has no digits");
    }
    while (p < end && llvm::isDigit(*p))
      ++p;
  }
  if (p < end && (isIdentChar(*p) || *p == '.')) {
    const char *stop = p;
    while (stop < end && (isIdentChar(*stop) || *stop == '.'))
      ++stop;
    return error(start, stop,
                 "malformed number '" + std::string(start, stop) + "'");
  }
  cur = p;
  Token tok = make(isFloat ? Token::Float : Token::Integer, start);
  std::string text = tok.spelling.str();
  if (isFloat) {
    errno = 0;
    tok.number = std::strtod(text.c_str(), nullptr);
    if (errno == ERANGE && std::isinf(tok.number))
      return error(start, p, "number '" + text + "' is out of range");
  } else {
    if (tok.spelling.getAsInteger(10, tok.integer))
      return error(start, p, "integer '" + text + "' is too large");
    tok.number = static_cast<double>(tok.integer);
  }
  return tok;
}

Token Lexer::next() {
  skipSpaceAndComments();
  const char *start = cur;
  if (cur >= end)
    return make(Token::Eof, start);
  char c = *cur;
  if (isIdentStart(c)) {
    // Dotted names (`res3.2.conv1`) name layers inside block instances.
    while (cur < end && (isIdentChar(*cur) ||
                         (*cur == '.' && cur + 1 < end && isIdentChar(cur[1]))))
      ++cur;
    return make(Token::Identifier, start);
  }
  if (llvm::isDigit(c) || (c == '.' && cur + 1 < end && llvm::isDigit(cur[1])))
    return lexNumber(start);
  ++cur;
  switch (c) {
  case '(':
    return make(Token::LParen, start);
  case ')':
    return make(Token::RParen, start);
  case '[':
    return make(Token::LBracket, start);
  case ']':
    return make(Token::RBracket, start);
  case '{':
    return make(Token::LBrace, start);
  case '}':
    return make(Token::RBrace, start);
  case ',':
    return make(Token::Comma, start);
  case ';':
    return make(Token::Semicolon, start);
  case '=':
    return make(Token::Equal, start);
  case ':':
    return make(Token::Colon, start);
  case '+':
    return make(Token::Plus, start);
  case '-':
    return make(Token::Minus, start);
  case '*':
    return make(Token::Star, start);
  case '/':
    return make(Token::Slash, start);
  default:
    break;
  }
  std::string shown;
  llvm::raw_string_ostream os(shown);
  if (llvm::isPrint(c))
    os << "'" << c << "'";
  else
    os << "byte 0x" << llvm::format_hex_no_prefix((unsigned char)c, 2);
  return error(start, cur, "unexpected character " + shown);
}
