//===- Parser.h - .nn model files to syntax trees ---------------*- C++ -*-===//
//
// Part of nnc. Recursive-descent parser for the .nn language (the grammar is
// in docs/language.md). Errors go to the MLIR diagnostic engine at
// file:line:col locations; parsing stops at the first one.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_PARSER_PARSER_H
#define NNC_PARSER_PARSER_H

#include "nnc/Parser/AST.h"

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

namespace nnc {

/// Maps source positions of one buffer to MLIR file:line:col locations.
class SourceLocator {
public:
  SourceLocator(llvm::SourceMgr &sourceMgr, unsigned bufferId,
                mlir::MLIRContext *context)
      : sourceMgr(sourceMgr), bufferId(bufferId), context(context) {}
  mlir::Location get(llvm::SMLoc loc) const;
  mlir::MLIRContext *getContext() const { return context; }

private:
  llvm::SourceMgr &sourceMgr;
  unsigned bufferId;
  mlir::MLIRContext *context;
};

/// Parses the buffer `bufferId` of `sourceMgr`. Returns nullptr after
/// reporting an error.
std::unique_ptr<ast::Module> parseModelFile(const SourceLocator &locator,
                                            llvm::StringRef buffer);

} // namespace nnc

#endif // NNC_PARSER_PARSER_H
