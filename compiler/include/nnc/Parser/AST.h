//===- AST.h - syntax tree of a .nn model -----------------------*- C++ -*-===//
//
// Part of nnc. What the parser produces and ModelGen consumes: statements,
// block definitions, calls with positional and keyword arguments, and value
// expressions. Every node keeps its source position for diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_PARSER_AST_H
#define NNC_PARSER_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <memory>
#include <string>
#include <vector>

namespace nnc::ast {

struct Call;

/// A value: a number, a name, an arithmetic expression, a list or a call
/// (such as an initialiser `truncated_normal(stddev=0.1)`).
struct Expr {
  enum Kind { Number, Name, Binary, Negate, List, CallExpr };
  Kind kind;
  llvm::SMLoc loc;
  double number = 0;      // Number
  bool isInteger = false; // Number written without '.' or exponent
  std::string name;       // Name
  char op = 0;            // Binary: + - * /
  std::vector<std::unique_ptr<Expr>> operands; // Binary, Negate, List
  std::unique_ptr<Call> call;                  // CallExpr

  Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
};

/// `key=value` or a positional `value` inside a call.
struct Arg {
  std::string key; // empty when positional
  llvm::SMLoc keyLoc;
  std::unique_ptr<Expr> value;
};

/// `callee(arg, key=value, ...)`.
struct Call {
  std::string callee;
  llvm::SMLoc loc;
  std::vector<Arg> args;
};

/// A declared tensor: `input NAME: f32[dims] [LAYOUT]` or
/// `labels NAME: i32[dims] classes=N`.
struct TensorDecl {
  std::string name;
  llvm::SMLoc loc;
  std::string dtype;
  llvm::SMLoc dtypeLoc;
  std::vector<std::unique_ptr<Expr>> dims;
  llvm::SMLoc shapeLoc;
  std::unique_ptr<Expr> classes; // labels only
  std::string layout;            // inputs: NHWC, NCHW, NC, or empty
  llvm::SMLoc layoutLoc;
};

struct BlockDef;

struct Statement {
  enum Kind {
    Model,
    Batch,
    Let,
    Input,
    Labels,
    Layer,
    Loss,
    Optimizer,
    Output,
    Block,
    WeightDecay,
    Benchmark
  };
  Kind kind;
  llvm::SMLoc loc;  // the keyword, or the layer name
  std::string name; // Model, Let, Layer
  llvm::SMLoc nameLoc;
  std::unique_ptr<Expr> value;        // Batch, Let, WeightDecay
  std::unique_ptr<TensorDecl> tensor; // Input, Labels
  std::unique_ptr<Call> call;         // Layer, Loss, Optimizer
  std::vector<std::pair<std::string, llvm::SMLoc>> names; // Output
  std::unique_ptr<BlockDef> block;                        // Block
};

/// An input or option of a block: `x`, `depth`, `stride=1`.
struct BlockParam {
  std::string name;
  llvm::SMLoc loc;
  std::unique_ptr<Expr> defaultValue; // options only; null: required
};

/// `block NAME(inputs; options) { body return NAME }`. The body holds
/// Layer and Let statements.
struct BlockDef {
  std::string name;
  llvm::SMLoc loc;
  std::vector<BlockParam> inputs;
  std::vector<BlockParam> options;
  std::vector<Statement> body;
  std::string result;
  llvm::SMLoc resultLoc;
};

struct Module {
  std::vector<Statement> statements;
};

} // namespace nnc::ast

#endif // NNC_PARSER_AST_H
