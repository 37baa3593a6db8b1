//===- Lexer.h - tokens of the .nn model language ---------------*- C++ -*-===//
//
// Part of nnc. Splits a model file into tokens. Any byte sequence is
// accepted: what is not a token becomes an Error token with a message.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_PARSER_LEXER_H
#define NNC_PARSER_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace nnc {

struct Token {
  enum Kind {
    Eof,
    Error,
    Identifier,
    Integer,
    Float,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semicolon,
    Equal,
    Colon,
    Plus,
    Minus,
    Star,
    Slash,
  };
  Kind kind = Eof;
  llvm::StringRef spelling;
  /// Integer and Float tokens: the value. Integer tokens fit in int64_t.
  double number = 0;
  int64_t integer = 0;
  /// Error tokens: what is wrong.
  std::string message;

  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(spelling.data());
  }
  bool is(Kind k) const { return kind == k; }
  bool isKeyword(llvm::StringRef word) const {
    return kind == Identifier && spelling == word;
  }
};

/// Human-readable name of a token kind, for "expected X" messages.
llvm::StringRef describe(Token::Kind kind);

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer)
      : cur(buffer.begin()), end(buffer.end()) {}
  Token next();

private:
  Token make(Token::Kind kind, const char *start);
  Token error(const char *start, const char *stop, std::string message);
  Token lexNumber(const char *start);
  void skipSpaceAndComments();

  const char *cur;
  const char *end;
};

} // namespace nnc

#endif // NNC_PARSER_LEXER_H
