//===- Parser.cpp - .nn model files to syntax trees -----------------------===//
//
// Part of nnc. The grammar (docs/language.md):
//
//   file      := statement*
//   statement := 'model' NAME | 'batch' expr | 'let' NAME '=' expr
//              | 'input' NAME ':' DTYPE shape ('NHWC' | 'NCHW' | 'NC')?
//              | 'labels' NAME ':' DTYPE shape 'classes' '=' expr
//              | NAME '=' call | 'loss' call | 'optimizer' call
//              | 'output' NAME (',' NAME)*
//              | 'weight_decay' expr | 'benchmark' NAME
//              | 'block' NAME '(' NAME (',' NAME)* (';' option (',' option)*)?
//                ')' '{' (NAME '=' call | 'let' NAME '=' expr)* 'return' NAME
//                '}'
//   option    := NAME ('=' expr)?
//   call      := NAME '(' (arg (',' arg)*)? ')'
//   arg       := NAME '=' expr | expr
//   expr      := term (('+' | '-') term)*        (precedence climbing)
//   term      := unary (('*' | '/') unary)*
//   unary     := '-' unary | primary
//   primary   := NUMBER | NAME | call | '(' expr ')' | '[' (expr (',' expr)*)?
//   ']'
//
// NAME may be dotted (`res3.2.conv1`) where it refers to a layer; the names
// a statement defines may not.
//
//===----------------------------------------------------------------------===//

#include "nnc/Parser/Parser.h"
#include "nnc/Parser/Lexer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/STLExtras.h"

using namespace nnc;
using namespace nnc::ast;
using llvm::SMLoc;
using llvm::StringRef;

mlir::Location SourceLocator::get(SMLoc loc) const {
  // No position (whole-file diagnostics): the start of the file.
  if (!loc.isValid())
    loc = SMLoc::getFromPointer(
        sourceMgr.getMemoryBuffer(bufferId)->getBufferStart());
  auto lineCol = sourceMgr.getLineAndColumn(loc, bufferId);
  StringRef file = sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  return mlir::FileLineColLoc::get(context, file, lineCol.first,
                                   lineCol.second);
}

namespace {

/// Integers are kept as doubles, exact up to 2^53.
constexpr int64_t kMaxExactInteger = int64_t(1) << 53;

/// Deeper nesting than this is rejected rather than risking the stack.
constexpr unsigned kMaxNesting = 64;

class Parser {
public:
  Parser(const SourceLocator &locator, StringRef buffer)
      : locator(locator), lexer(buffer) {
    tok = lexer.next();
  }

  std::unique_ptr<Module> parseFile();

private:
  // Diagnostics. Every helper returns failure so callers can `return`.
  mlir::LogicalResult errorAt(SMLoc loc, const llvm::Twine &message) {
    mlir::emitError(locator.get(loc), message);
    return mlir::failure();
  }
  /// Reports the current token as unexpected; lexer errors take precedence.
  mlir::LogicalResult unexpected(const llvm::Twine &expected) {
    if (tok.is(Token::Error))
      return errorAt(tok.getLoc(), tok.message);
    if (tok.is(Token::Eof))
      return errorAt(tok.getLoc(),
                     "expected " + expected + ", but the file ended");
    return errorAt(tok.getLoc(),
                   "expected " + expected + ", found '" + tok.spelling + "'");
  }

  void consume() { tok = lexer.next(); }
  bool consumeIf(Token::Kind kind) {
    if (!tok.is(kind))
      return false;
    consume();
    return true;
  }
  mlir::LogicalResult expect(Token::Kind kind, StringRef context) {
    if (consumeIf(kind))
      return mlir::success();
    return unexpected(describe(kind) + " " + context);
  }
  mlir::LogicalResult parseName(std::string &name, SMLoc &loc, StringRef what) {
    if (!tok.is(Token::Identifier))
      return unexpected(what);
    name = tok.spelling.str();
    loc = tok.getLoc();
    consume();
    return mlir::success();
  }

  /// A name the statement defines: dots are reserved for instance layers.
  mlir::LogicalResult parseDefinedName(std::string &name, SMLoc &loc,
                                       StringRef what) {
    if (mlir::failed(parseName(name, loc, what)))
      return mlir::failure();
    return rejectDotted(name, loc);
  }
  mlir::LogicalResult rejectDotted(StringRef name, SMLoc loc) {
    if (!name.contains('.'))
      return mlir::success();
    return errorAt(loc, "'" + name +
                            "' contains '.'; dotted names refer to the layers "
                            "of block instances and cannot be defined");
  }

  mlir::LogicalResult parseStatement(Module &module);
  mlir::LogicalResult parseLet(Statement &stmt);
  mlir::LogicalResult parseLayer(Statement &stmt, Token word);
  mlir::LogicalResult parseBlock(Statement &stmt);
  mlir::LogicalResult parseBlockParams(BlockDef &block);
  mlir::LogicalResult parseBlockBody(BlockDef &block);
  mlir::LogicalResult parseTensorDecl(Statement &stmt, bool isLabels);
  std::unique_ptr<Call> parseCall(unsigned depth);
  mlir::LogicalResult parseCallArgs(Call &call, unsigned depth);
  std::unique_ptr<Expr> parseExpr(unsigned depth);
  /// Continues an expression whose first operand is `lhs` with the binary
  /// operators of at least `minPrecedence`.
  std::unique_ptr<Expr> parseBinaryRest(std::unique_ptr<Expr> lhs,
                                        int minPrecedence, unsigned depth);
  std::unique_ptr<Expr> parseUnary(unsigned depth);
  std::unique_ptr<Expr> parsePrimary(unsigned depth);
  std::unique_ptr<Expr> parseList(unsigned depth);

  const SourceLocator &locator;
  Lexer lexer;
  Token tok;
};

std::unique_ptr<Module> Parser::parseFile() {
  auto module = std::make_unique<Module>();
  while (!tok.is(Token::Eof))
    if (mlir::failed(parseStatement(*module)))
      return nullptr;
  return module;
}

mlir::LogicalResult Parser::parseStatement(Module &module) {
  if (!tok.is(Token::Identifier))
    return unexpected("a statement (model, batch, let, input, labels, "
                      "NAME = layer(...), loss, optimizer, output, block, "
                      "weight_decay or benchmark)");
  Statement stmt;
  stmt.loc = tok.getLoc();
  Token wordTok = tok;
  StringRef word = tok.spelling;
  consume();

  if (word == "model") {
    stmt.kind = Statement::Model;
    if (mlir::failed(
            parseDefinedName(stmt.name, stmt.nameLoc, "the model's name")))
      return mlir::failure();
  } else if (word == "batch" || word == "weight_decay") {
    stmt.kind = word == "batch" ? Statement::Batch : Statement::WeightDecay;
    if (!(stmt.value = parseExpr(0)))
      return mlir::failure();
  } else if (word == "let") {
    if (mlir::failed(parseLet(stmt)))
      return mlir::failure();
  } else if (word == "input" || word == "labels") {
    stmt.kind = word == "input" ? Statement::Input : Statement::Labels;
    if (mlir::failed(parseTensorDecl(stmt, word == "labels")))
      return mlir::failure();
  } else if (word == "loss" || word == "optimizer") {
    stmt.kind = word == "loss" ? Statement::Loss : Statement::Optimizer;
    if (!(stmt.call = parseCall(0)))
      return mlir::failure();
  } else if (word == "output") {
    stmt.kind = Statement::Output;
    do {
      std::string name;
      SMLoc loc;
      if (mlir::failed(parseName(name, loc, "the name of a layer or input")))
        return mlir::failure();
      stmt.names.emplace_back(std::move(name), loc);
    } while (consumeIf(Token::Comma));
  } else if (word == "benchmark") {
    stmt.kind = Statement::Benchmark;
    if (mlir::failed(parseName(stmt.name, stmt.nameLoc,
                               "the name of a benchmark suite")))
      return mlir::failure();
  } else if (word == "block") {
    if (mlir::failed(parseBlock(stmt)))
      return mlir::failure();
  } else if (mlir::failed(parseLayer(stmt, wordTok))) {
    return mlir::failure();
  }
  module.statements.push_back(std::move(stmt));
  return mlir::success();
}

mlir::LogicalResult Parser::parseLet(Statement &stmt) {
  stmt.kind = Statement::Let;
  if (mlir::failed(
          parseDefinedName(stmt.name, stmt.nameLoc, "a constant name")) ||
      mlir::failed(expect(Token::Equal, "after the constant's name")) ||
      !(stmt.value = parseExpr(0)))
    return mlir::failure();
  return mlir::success();
}

/// NAME '=' call, where `word` (already consumed) is NAME.
mlir::LogicalResult Parser::parseLayer(Statement &stmt, Token word) {
  stmt.kind = Statement::Layer;
  stmt.name = word.spelling.str();
  stmt.nameLoc = stmt.loc;
  if (!tok.is(Token::Equal))
    return tok.is(Token::Error)
               ? unexpected("")
               : errorAt(stmt.loc,
                         "unknown statement '" + word.spelling +
                             "'; a layer is written NAME = layer(...)");
  if (mlir::failed(rejectDotted(stmt.name, stmt.loc)))
    return mlir::failure();
  consume();
  if (!(stmt.call = parseCall(0)))
    return mlir::failure();
  return mlir::success();
}

mlir::LogicalResult Parser::parseBlock(Statement &stmt) {
  stmt.kind = Statement::Block;
  auto block = std::make_unique<BlockDef>();
  if (mlir::failed(
          parseDefinedName(block->name, block->loc, "the block's name")) ||
      mlir::failed(parseBlockParams(*block)) ||
      mlir::failed(parseBlockBody(*block)))
    return mlir::failure();
  stmt.name = block->name;
  stmt.nameLoc = block->loc;
  stmt.block = std::move(block);
  return mlir::success();
}

/// '(' inputs (';' options)? ')'.
mlir::LogicalResult Parser::parseBlockParams(BlockDef &block) {
  if (mlir::failed(expect(Token::LParen, "after the block's name")))
    return mlir::failure();
  do {
    BlockParam &input = block.inputs.emplace_back();
    if (mlir::failed(parseDefinedName(input.name, input.loc,
                                      "the name of an input of block '" +
                                          block.name + "'")))
      return mlir::failure();
  } while (consumeIf(Token::Comma));
  if (consumeIf(Token::Semicolon)) {
    do {
      BlockParam &option = block.options.emplace_back();
      if (mlir::failed(parseDefinedName(option.name, option.loc,
                                        "the name of an option of block '" +
                                            block.name + "'")))
        return mlir::failure();
      if (consumeIf(Token::Equal) && !(option.defaultValue = parseExpr(0)))
        return mlir::failure();
    } while (consumeIf(Token::Comma));
  }
  return expect(Token::RParen,
                "to close the parameters of block '" + block.name + "'");
}

/// The words that start a model-level statement.
static bool isModelKeyword(StringRef word) {
  return llvm::is_contained({"model", "batch", "input", "labels", "loss",
                             "optimizer", "output", "block", "weight_decay",
                             "benchmark"},
                            word);
}

/// '{' (layer | let)* 'return' NAME '}'.
mlir::LogicalResult Parser::parseBlockBody(BlockDef &block) {
  if (mlir::failed(expect(Token::LBrace,
                          "to open the body of block '" + block.name + "'")))
    return mlir::failure();
  while (!tok.isKeyword("return")) {
    if (!tok.is(Token::Identifier))
      return unexpected("a layer, 'let' or 'return' in block '" + block.name +
                        "'");
    Statement stmt;
    stmt.loc = tok.getLoc();
    Token word = tok;
    consume();
    if (isModelKeyword(word.spelling) && !tok.is(Token::Equal))
      return errorAt(stmt.loc, "'" + word.spelling +
                                   "' cannot appear inside block '" +
                                   block.name +
                                   "'; a block holds layers, 'let' "
                                   "constants and 'return'");
    if (word.isKeyword("let") ? mlir::failed(parseLet(stmt))
                              : mlir::failed(parseLayer(stmt, word)))
      return mlir::failure();
    block.body.push_back(std::move(stmt));
  }
  consume(); // 'return'
  if (mlir::failed(parseDefinedName(block.result, block.resultLoc,
                                    "the name of the layer block '" +
                                        block.name + "' returns")))
    return mlir::failure();
  return expect(Token::RBrace,
                "to close the body of block '" + block.name + "'");
}

mlir::LogicalResult Parser::parseTensorDecl(Statement &stmt, bool isLabels) {
  auto decl = std::make_unique<TensorDecl>();
  if (mlir::failed(parseDefinedName(decl->name, decl->loc,
                                    isLabels ? "the labels' name"
                                             : "the input's name")) ||
      mlir::failed(expect(Token::Colon, "after the name")) ||
      mlir::failed(
          parseName(decl->dtype, decl->dtypeLoc,
                    "an element type (f32, f16, bf16, f64, i32, i64)")))
    return mlir::failure();
  decl->shapeLoc = tok.getLoc();
  if (!tok.is(Token::LBracket))
    return unexpected("a shape such as [batch, 32, 32, 3]");
  std::unique_ptr<Expr> list = parseList(0);
  if (!list)
    return mlir::failure();
  decl->dims = std::move(list->operands);
  // An optional layout word after an input's shape.
  if (!isLabels && tok.is(Token::Identifier) &&
      (tok.spelling == "NHWC" || tok.spelling == "NCHW" ||
       tok.spelling == "NC")) {
    decl->layout = tok.spelling.str();
    decl->layoutLoc = tok.getLoc();
    consume();
  }
  if (isLabels) {
    if (!tok.isKeyword("classes"))
      return unexpected("'classes = N' after the labels' shape");
    consume();
    if (mlir::failed(expect(Token::Equal, "after 'classes'")) ||
        !(decl->classes = parseExpr(0)))
      return mlir::failure();
  }
  stmt.name = decl->name;
  stmt.nameLoc = decl->loc;
  stmt.tensor = std::move(decl);
  return mlir::success();
}

std::unique_ptr<Call> Parser::parseCall(unsigned depth) {
  auto call = std::make_unique<Call>();
  if (mlir::failed(
          parseName(call->callee, call->loc, "a layer or function name")))
    return nullptr;
  if (mlir::failed(parseCallArgs(*call, depth)))
    return nullptr;
  return call;
}

mlir::LogicalResult Parser::parseCallArgs(Call &call, unsigned depth) {
  if (mlir::failed(expect(Token::LParen, "after '" + call.callee + "'")))
    return mlir::failure();
  if (consumeIf(Token::RParen))
    return mlir::success();
  do {
    Arg arg;
    // `key=value`: a name directly followed by '='.
    if (tok.is(Token::Identifier)) {
      Token name = tok;
      consume();
      if (consumeIf(Token::Equal)) {
        arg.key = name.spelling.str();
        arg.keyLoc = name.getLoc();
        if (!(arg.value = parseExpr(depth + 1)))
          return mlir::failure();
        call.args.push_back(std::move(arg));
        continue;
      }
      // A positional value starting with a name: re-parse from here by
      // building the primary by hand.
      std::unique_ptr<Expr> head;
      if (tok.is(Token::LParen)) {
        head = std::make_unique<Expr>(Expr::CallExpr, name.getLoc());
        head->call = std::make_unique<Call>();
        head->call->callee = name.spelling.str();
        head->call->loc = name.getLoc();
        if (depth + 1 > kMaxNesting)
          return errorAt(name.getLoc(), "expression nested too deeply");
        if (mlir::failed(parseCallArgs(*head->call, depth + 1)))
          return mlir::failure();
      } else {
        head = std::make_unique<Expr>(Expr::Name, name.getLoc());
        head->name = name.spelling.str();
      }
      // Arithmetic may follow a leading name: `n * 2`.
      if (!(head = parseBinaryRest(std::move(head), 1, depth + 1)))
        return mlir::failure();
      arg.value = std::move(head);
    } else if (!(arg.value = parseExpr(depth + 1))) {
      return mlir::failure();
    }
    call.args.push_back(std::move(arg));
  } while (consumeIf(Token::Comma));
  return expect(Token::RParen,
                "to close the argument list of '" + call.callee + "'");
}

/// Binding strength of a binary operator token; 0 for anything else.
static int precedence(Token::Kind kind) {
  switch (kind) {
  case Token::Plus:
  case Token::Minus:
    return 1;
  case Token::Star:
  case Token::Slash:
    return 2;
  default:
    return 0;
  }
}

std::unique_ptr<Expr> Parser::parseExpr(unsigned depth) {
  std::unique_ptr<Expr> lhs = parseUnary(depth);
  if (!lhs)
    return nullptr;
  return parseBinaryRest(std::move(lhs), 1, depth);
}

std::unique_ptr<Expr> Parser::parseBinaryRest(std::unique_ptr<Expr> lhs,
                                              int minPrecedence,
                                              unsigned depth) {
  for (int prec; (prec = precedence(tok.kind)) >= minPrecedence && prec;) {
    auto bin = std::make_unique<Expr>(Expr::Binary, tok.getLoc());
    bin->op = tok.spelling[0];
    consume();
    std::unique_ptr<Expr> rhs = parseUnary(depth);
    // Tighter operators to the right bind to `rhs` first: 1 + 2 * 3.
    while (rhs && precedence(tok.kind) > prec)
      rhs = parseBinaryRest(std::move(rhs), prec + 1, depth);
    if (!rhs)
      return nullptr;
    bin->operands.push_back(std::move(lhs));
    bin->operands.push_back(std::move(rhs));
    lhs = std::move(bin);
  }
  return lhs;
}

std::unique_ptr<Expr> Parser::parseUnary(unsigned depth) {
  if (depth > kMaxNesting) {
    (void)errorAt(tok.getLoc(), "expression nested too deeply");
    return nullptr;
  }
  if (tok.is(Token::Minus)) {
    auto neg = std::make_unique<Expr>(Expr::Negate, tok.getLoc());
    consume();
    std::unique_ptr<Expr> operand = parseUnary(depth + 1);
    if (!operand)
      return nullptr;
    neg->operands.push_back(std::move(operand));
    return neg;
  }
  return parsePrimary(depth);
}

std::unique_ptr<Expr> Parser::parsePrimary(unsigned depth) {
  SMLoc loc = tok.getLoc();
  if (tok.is(Token::Integer) &&
      (tok.integer > kMaxExactInteger || tok.integer < -kMaxExactInteger)) {
    (void)errorAt(loc, "integer '" + tok.spelling +
                           "' is too large to be exact (the limit is 2^53)");
    return nullptr;
  }
  if (tok.is(Token::Integer) || tok.is(Token::Float)) {
    auto num = std::make_unique<Expr>(Expr::Number, loc);
    num->number = tok.number;
    num->isInteger = tok.is(Token::Integer);
    consume();
    return num;
  }
  if (tok.is(Token::Identifier)) {
    std::string name = tok.spelling.str();
    consume();
    if (!tok.is(Token::LParen)) {
      auto ref = std::make_unique<Expr>(Expr::Name, loc);
      ref->name = std::move(name);
      return ref;
    }
    auto callExpr = std::make_unique<Expr>(Expr::CallExpr, loc);
    callExpr->call = std::make_unique<Call>();
    callExpr->call->callee = std::move(name);
    callExpr->call->loc = loc;
    if (mlir::failed(parseCallArgs(*callExpr->call, depth + 1)))
      return nullptr;
    return callExpr;
  }
  if (tok.is(Token::LParen)) {
    consume();
    std::unique_ptr<Expr> inner = parseExpr(depth + 1);
    if (!inner || mlir::failed(expect(Token::RParen, "to close '('")))
      return nullptr;
    return inner;
  }
  if (tok.is(Token::LBracket))
    return parseList(depth + 1);
  (void)unexpected("a value (a number, a name, a list or a call)");
  return nullptr;
}

std::unique_ptr<Expr> Parser::parseList(unsigned depth) {
  auto list = std::make_unique<Expr>(Expr::List, tok.getLoc());
  consume(); // '['
  if (consumeIf(Token::RBracket))
    return list;
  do {
    std::unique_ptr<Expr> element = parseExpr(depth + 1);
    if (!element)
      return nullptr;
    list->operands.push_back(std::move(element));
  } while (consumeIf(Token::Comma));
  if (mlir::failed(expect(Token::RBracket, "to close the list")))
    return nullptr;
  return list;
}

} // namespace

std::unique_ptr<Module> nnc::parseModelFile(const SourceLocator &locator,
                                            StringRef buffer) {
  return Parser(locator, buffer).parseFile();
}
