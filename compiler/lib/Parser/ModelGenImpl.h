//===- ModelGenImpl.h - ModelGen internals ----------------------*- C++ -*-===//
//
// Part of nnc. Shared by ModelGen.cpp (model structure), Arguments.cpp
// (constant expressions and call arguments), Functions.cpp (sqrt, min, ...),
// Layers.cpp (one emitter per layer kind) and Blocks.cpp (block instances).
//
//===----------------------------------------------------------------------===//

#ifndef NNC_LIB_PARSER_MODELGENIMPL_H
#define NNC_LIB_PARSER_MODELGENIMPL_H

#include "nnc/Parser/ModelGen.h"

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace nnc::detail {

/// Integers are exact up to 2^53; larger ones are rejected.
constexpr double kMaxExactInteger = 9007199254740992.0;

/// A constant's value: integers stay exact as long as the arithmetic allows.
struct Number {
  double value = 0;
  bool isInteger = false;
};

/// Evaluates constant expressions against the model's `let` constants.
class Evaluator {
public:
  explicit Evaluator(const SourceLocator &locator) : locator(locator) {}

  mlir::InFlightDiagnostic error(llvm::SMLoc loc) {
    return mlir::emitError(this->loc(loc));
  }
  /// The location of a source position. Inside a block instance it is the
  /// call site `callsite(position at caller)`.
  mlir::Location loc(llvm::SMLoc loc) const;
  /// The location of the layer `name` written at `loc`: a NameLoc, inside a
  /// block instance the call site of one.
  mlir::Location namedLoc(llvm::StringRef name, llvm::SMLoc loc) const;
  /// The call of the block instance being generated, if any.
  std::optional<mlir::Location> getCaller() const { return caller; }
  void setCaller(std::optional<mlir::Location> loc) { caller = loc; }

  mlir::FailureOr<Number> eval(const ast::Expr &expr);
  /// An integer >= `min`; `what` names the value in messages.
  mlir::FailureOr<int64_t> evalInt(const ast::Expr &expr, llvm::StringRef what,
                                   int64_t min);
  mlir::FailureOr<double> evalFloat(const ast::Expr &expr,
                                    llvm::StringRef what);

  bool isDefined(llvm::StringRef name) const { return constants.count(name); }
  void define(llvm::StringRef name, Number value) { constants[name] = value; }

private:
  /// `sqrt(e)`, `floor(e)`, `ceil(e)`, `min(a, b)`, `max(a, b)`.
  mlir::FailureOr<Number> evalFunction(const ast::Expr &expr);

  const SourceLocator &locator;
  llvm::StringMap<Number> constants;
  std::optional<mlir::Location> caller;
};

/// The arguments of one call (`conv2d(x, filters=64, ...)`), checked against
/// what the callee accepts and read with typed getters that report errors at
/// the offending argument.
class CallArgs {
public:
  CallArgs(Evaluator &eval, const ast::Call &call) : eval(eval), call(call) {}

  /// Rejects unknown and repeated keywords and a wrong number of positional
  /// arguments. `positionalWhat` describes them ("one input").
  mlir::LogicalResult check(llvm::ArrayRef<llvm::StringRef> keywords,
                            unsigned minPositional, unsigned maxPositional,
                            llvm::StringRef positionalWhat);

  llvm::ArrayRef<const ast::Expr *> positional() const { return positionals; }
  const ast::Expr *get(llvm::StringRef key) const;
  bool has(llvm::StringRef key) const { return get(key) != nullptr; }

  /// Typed getters. Without a default the keyword is required.
  mlir::FailureOr<int64_t> getInt(llvm::StringRef key,
                                  std::optional<int64_t> def, int64_t min);
  mlir::FailureOr<double> getFloat(llvm::StringRef key,
                                   std::optional<double> def);
  mlir::FailureOr<bool> getBool(llvm::StringRef key, bool def);
  /// `N` (both axes) or `[height, width]`, each >= 1.
  mlir::FailureOr<llvm::SmallVector<int64_t, 2>>
  getPair(llvm::StringRef key,
          std::optional<llvm::SmallVector<int64_t, 2>> def);
  /// A list of integers (`[batch, 2304]`); `-1` allowed when `allowInfer`.
  mlir::FailureOr<llvm::SmallVector<int64_t>> getIntList(llvm::StringRef key,
                                                         bool allowInfer);
  /// A non-empty list of real numbers (`[0.1, 0.01]`).
  mlir::FailureOr<llvm::SmallVector<double>> getFloatList(llvm::StringRef key);
  /// One of `choices`, written as a bare name.
  mlir::FailureOr<llvm::StringRef>
  getChoice(llvm::StringRef key, llvm::ArrayRef<llvm::StringRef> choices,
            llvm::StringRef def);
  /// An initialiser (`zeros`, `truncated_normal(stddev=0.1)`, ...); `none`
  /// gives a null attribute when `allowNone`.
  mlir::FailureOr<mlir::Attribute> getInit(llvm::StringRef key,
                                           mlir::Attribute def, bool allowNone);

  mlir::InFlightDiagnostic error(llvm::SMLoc loc) { return eval.error(loc); }
  const ast::Call &getCall() const { return call; }
  Evaluator &getEvaluator() { return eval; }

private:
  mlir::LogicalResult missing(llvm::StringRef key);
  /// The expression of a numeric option; nullptr when absent with a default.
  /// Reports a missing required option and a bare name that is no constant.
  mlir::FailureOr<const ast::Expr *>
  numeric(llvm::StringRef key, bool hasDefault, llvm::StringRef kind);

  Evaluator &eval;
  const ast::Call &call;
  llvm::SmallVector<const ast::Expr *> positionals;
};

/// Reads an initialiser call such as `truncated_normal(stddev=0.1)`.
mlir::FailureOr<mlir::Attribute>
evalInitializer(Evaluator &eval, const ast::Expr &expr, bool allowNone);

/// Where statements are generated: the model, or one block instance with
/// the names its body sees (Blocks.cpp).
struct Scope {
  const ast::BlockDef *block = nullptr; // null at the model level
  unsigned visibleBlocks = ~0u;         // blocks defined before this one
  std::string prefix;                   // the instance's `res3.2.`
  unsigned depth = 0;
  /// Inputs and layers of the body: their full names.
  llvm::StringMap<std::string> tensors;
  /// Options and `let` constants of the body: their values.
  llvm::StringMap<const ast::Expr *> values;
  std::vector<std::unique_ptr<ast::Expr>> owned;
};

/// Builds the module. Layer emitters (Layers.cpp) call back into it for
/// inputs, parameters and weight decay.
class ModelGen {
public:
  ModelGen(const SourceLocator &locator, const ModelOptions &options);
  mlir::OwningOpRef<mlir::ModuleOp> generate(const ast::Module &model);

  Evaluator &getEvaluator() { return eval; }
  mlir::OpBuilder &getBuilder() { return builder; }
  mlir::MLIRContext *getContext() { return builder.getContext(); }

  /// The tensor a positional argument names, in @forward.
  mlir::FailureOr<mlir::Value> lookupTensor(const ast::Expr &expr);
  /// Declares `<layer>.<suffix>` and reads it in the function being built.
  mlir::Value createParameter(llvm::StringRef layer, llvm::StringRef suffix,
                              mlir::RankedTensorType type, mlir::Attribute init,
                              bool trainable, mlir::Location loc);
  /// Adds `scale * l2(parameter)` to the loss.
  void addWeightDecay(llvm::StringRef parameter, double scale,
                      mlir::Location loc);

private:
  mlir::LogicalResult genStatement(const ast::Statement &stmt);
  mlir::LogicalResult genModelDecay(const ast::Statement &stmt);
  mlir::LogicalResult genBenchmark(const ast::Statement &stmt);
  /// Adds the model-level weight decay terms to `total`, in @loss.
  mlir::Value addModelDecay(mlir::Value total);

  // Blocks (Blocks.cpp).
  mlir::LogicalResult genBlockDef(const ast::Statement &stmt);
  /// Generates the layer, block call or repeat `stmt` in `scope`.
  mlir::FailureOr<mlir::Value> genCall(const ast::Statement &stmt,
                                       Scope &scope);
  mlir::FailureOr<mlir::Value> genRepeat(const ast::Statement &stmt,
                                         Scope &scope);
  mlir::FailureOr<mlir::Value>
  genInstance(const ast::BlockDef &block, const ast::Call &call,
              llvm::StringRef name, llvm::SMLoc nameLoc,
              llvm::ArrayRef<std::string> inputs, Scope &scope);
  mlir::FailureOr<mlir::Value> genBody(const ast::BlockDef &block,
                                       Scope &inner);
  mlir::LogicalResult genBodyLet(const ast::Statement &stmt, Scope &inner);
  /// Warns about the body's layers the block's result does not use.
  void warnDeadBodyLayers(
      const ast::BlockDef &block, const Scope &inner,
      llvm::ArrayRef<std::pair<const ast::Statement *, mlir::Value>> layers,
      mlir::Value result);
  mlir::LogicalResult bindOptions(const ast::BlockDef &block,
                                  const ast::Call &call, Scope &inner);
  /// The full names of the tensors a call passes to a block.
  mlir::FailureOr<llvm::SmallVector<std::string>>
  lookupInputs(llvm::ArrayRef<const ast::Expr *> positional);
  mlir::LogicalResult checkBlockCall(const ast::BlockDef &block,
                                     const ast::Call &call,
                                     unsigned positional);
  mlir::LogicalResult checkBlockOptions(const ast::BlockDef &block,
                                        const ast::Call &call);
  mlir::FailureOr<ast::Statement> instantiate(const ast::Statement &stmt,
                                              Scope &scope);
  mlir::FailureOr<std::string> resolveInput(const ast::Expr &expr,
                                            Scope &scope);
  const ast::BlockDef *findBlock(llvm::StringRef name,
                                 const Scope &scope) const;
  void warnUnusedBlocks();
  mlir::LogicalResult genConstant(const ast::Statement &stmt);
  mlir::LogicalResult genTensorDecl(const ast::Statement &stmt);
  mlir::LogicalResult genLayer(const ast::Statement &stmt);
  mlir::LogicalResult genOptimizer(const ast::Statement &stmt);
  mlir::FailureOr<mlir::Attribute> genSchedule(const ast::Expr &schedule);
  mlir::LogicalResult checkComplete(mlir::Location fileLoc);
  mlir::LogicalResult finishForward();
  /// Appends the outputs of the layers `options.taps` matches to `results`
  /// and their names to `names`, in the order the layers were generated.
  mlir::LogicalResult collectTaps(llvm::SmallVectorImpl<mlir::Value> &results,
                                  llvm::SmallVectorImpl<std::string> &names);
  mlir::LogicalResult genLoss();
  mlir::LogicalResult checkDefinable(llvm::StringRef name, llvm::SMLoc loc);
  /// `file:line:col` of a position, for "first defined at" notes.
  std::string where(llvm::SMLoc loc) const;
  void warnUnused();
  mlir::FailureOr<mlir::Type> evalDType(const ast::TensorDecl &decl,
                                        bool isLabels);

  const SourceLocator &locator;
  const ModelOptions &options;
  Evaluator eval;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp forward;

  struct Tensor {
    mlir::Value value;
    llvm::SMLoc loc;
    bool isLabels = false; // labels have no value in @forward
    bool isInner = false;  // a layer inside a block instance (`res2.conv1`)
  };
  struct Labels {
    std::string name;
    mlir::Type type;
    int64_t classes;
    llvm::SMLoc loc;
  };
  llvm::StringMap<Tensor> tensors;
  llvm::SmallVector<std::pair<std::string, mlir::Type>> inputs;
  llvm::SmallVector<Labels> labels;
  std::string lastLayer;
  const ast::Statement *modelStmt = nullptr, *batchStmt = nullptr,
                       *lossStmt = nullptr, *optimizerStmt = nullptr,
                       *outputStmt = nullptr, *decayStmt = nullptr,
                       *benchmarkStmt = nullptr;
  double modelDecay = 0;
  struct BlockInfo {
    const ast::BlockDef *def;
    unsigned index; // definition order: a block sees the blocks before it
    bool used = false;
  };
  llvm::StringMap<BlockInfo> blocks;
  llvm::DenseSet<const ast::Statement *> deadBodyLayers;
  /// Layers generated so far, instances included.
  unsigned layerCount = 0;
  /// The full names of the layers generated so far, in order (block
  /// instances expanded; their own names are not layers).
  llvm::SmallVector<std::string> layerNames;
  struct Decay {
    std::string parameter;
    double scale;
    mlir::Location loc;
  };
  llvm::SmallVector<Decay> decays;
  llvm::StringMap<bool> usedOverrides;
};

/// True when `name` is a layer kind (`conv2d`, `dense`, ...).
bool isLayerKind(llvm::StringRef name);

/// Emits the layer `stmt` (`name = kind(...)`) into @forward. Unknown kinds
/// are reported with a suggestion.
mlir::FailureOr<mlir::Value> emitLayer(ModelGen &gen,
                                       const ast::Statement &stmt);

/// Emits the loss call of a `loss` statement into @loss. `lookup` resolves
/// its positional arguments (outputs of @forward, or labels).
mlir::FailureOr<mlir::Value> emitLossCall(
    ModelGen &gen, const ast::Call &call,
    llvm::function_ref<mlir::FailureOr<mlir::Value>(const ast::Expr &)> lookup);

/// Adds to `live` every value `roots` depend on, walking back through
/// defining ops; values already in `live` stop the walk (a block's inputs).
void addLiveValues(mlir::ValueRange roots, llvm::DenseSet<mlir::Value> &live);

} // namespace nnc::detail

#endif // NNC_LIB_PARSER_MODELGENIMPL_H
