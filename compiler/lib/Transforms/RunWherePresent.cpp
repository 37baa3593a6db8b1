//===- RunWherePresent.cpp - a pipeline only where there is work for it ---===//
//
// Part of nnc. nnc-run-where-present (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace nnc {
#define GEN_PASS_DEF_RUNWHEREPRESENTPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct RunWherePresentPass
    : nnc::impl::RunWherePresentPassBase<RunWherePresentPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    FailureOr<OpPassManager> parsed =
        parsePassPipeline(pipeline, llvm::nulls());
    if (succeeded(parsed))
      parsed->getDependentDialects(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    std::string message;
    llvm::raw_string_ostream os(message);
    FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, os);
    if (failed(parsed))
      return emitError(UnknownLoc::get(context))
             << "nnc-run-where-present: invalid pipeline '" << pipeline
             << "': " << StringRef(message).trim();
    nested = std::move(*parsed);
    namespaces.clear();
    for (const std::string &dialect : dialects)
      namespaces.insert(dialect);
    alongsideNamespaces.clear();
    for (const std::string &dialect : alongside)
      alongsideNamespaces.insert(dialect);
    return success();
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    // Each kind of op is looked up once: hashing every op's names was
    // most of the walk, which visits every op of the kernels that hold
    // none (a contraction kernel has thousands).
    auto in = [](const llvm::StringSet<> &set, OperationName name) {
      return set.contains(name.getDialectNamespace()) ||
             set.contains(name.getStringRef());
    };
    // Whether an op of the name is of `dialects` (bit 0), of `alongside`
    // (bit 1).
    llvm::SmallDenseMap<OperationName, unsigned, 32> matches;
    auto matching = [&](OperationName name) {
      auto [it, inserted] = matches.try_emplace(name, 0);
      if (inserted)
        it->second = in(namespaces, name) | in(alongsideNamespaces, name) << 1;
      return it->second;
    };
    unsigned wanted = alongsideNamespaces.empty() ? 1 : 3, found = 0;
    bool present = root->walk([&](Operation *op) {
                         if (op != root)
                           found |= matching(op->getName());
                         return found == wanted ? WalkResult::interrupt()
                                                : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (present && failed(runPipeline(*nested, root)))
      signalPassFailure();
  }

  std::optional<OpPassManager> nested;
  llvm::StringSet<> namespaces, alongsideNamespaces;
};
} // namespace
