//===- ParserFuzzer.cpp - libFuzzer target for .nn models -----------------===//
//
// Part of nnc. Feeds arbitrary bytes through the lexer, parser and ModelGen
// (shape checks, IR construction, verification). Diagnostics are expected;
// crashes, hangs, sanitizer reports and unverifiable IR are bugs.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Registration.h"
#include "nnc/Parser/ModelGen.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    nnc::registerAllDialects(registry);
    auto *ctx = new mlir::MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    ctx->printOpOnDiagnostic(false);
    return ctx;
  }();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.nn"),
      llvm::SMLoc());
  // Swallow diagnostics, but every error must come with one.
  bool reported = false;
  mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic &d) {
    reported |= d.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });
  // Few layers: a repeat of the full 100000 would outlast the time limit.
  nnc::ModelOptions options;
  options.maxLayers = 2000;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      nnc::parseModel(sourceMgr, context, options);
  if (!module && !reported)
    std::abort(); // failed without telling the user why
  if (module && mlir::failed(mlir::verify(*module)))
    std::abort();
  return 0;
}
