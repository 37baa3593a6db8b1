//===- ModelGen.h - .nn syntax trees to nn dialect IR -----------*- C++ -*-===//
//
// Part of nnc. Checks a parsed model (names, options, shapes) and builds the
// nn module: parameters, the optimizer, @forward and @loss. Every op carries
// the file:line:col of the layer that made it, inside a block instance as a
// call site of the block's line at the call.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_PARSER_MODELGEN_H
#define NNC_PARSER_MODELGEN_H

#include "nnc/Parser/AST.h"
#include "nnc/Parser/Parser.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>
#include <vector>

namespace nnc {

struct ModelOptions {
  /// Values that replace the model's `let` and `batch` constants
  /// (`nnc --set n=4096`, `--batch=32`).
  std::map<std::string, double> overrides;
  /// Layers whose outputs @forward also returns, after the model's own
  /// outputs, each named after its layer (`nnc --tap`): full layer names
  /// or glob patterns (`res2.*`). A pattern that matches no layer is an
  /// error.
  std::vector<std::string> taps;
  /// The most layers a model may expand to, block instances included.
  unsigned maxLayers = 100000;
};

/// Builds the nn module of `model`. Reports errors through the MLIR
/// diagnostic engine and returns nullptr on the first one. An override that
/// names no constant of the model is an error too.
mlir::OwningOpRef<mlir::ModuleOp> genModel(const SourceLocator &locator,
                                           const ast::Module &model,
                                           const ModelOptions &options);

/// Parses and generates in one step.
mlir::OwningOpRef<mlir::ModuleOp> parseModel(llvm::SourceMgr &sourceMgr,
                                             mlir::MLIRContext *context,
                                             const ModelOptions &options);

} // namespace nnc

#endif // NNC_PARSER_MODELGEN_H
