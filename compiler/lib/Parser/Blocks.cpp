//===- Blocks.cpp - block definitions, calls and repeats ------------------===//
//
// Part of nnc. A block call is expanded in place: each body statement is
// copied with the block's options and `let` constants substituted and its
// tensor names made full (`res3.2.conv1`), then generated like a model-level
// layer. Ops of an instance are located at
// `callsite(<position in the block> at <the call>)`, nested for nested
// instances, so diagnostics show the block line and each call.
//
//===----------------------------------------------------------------------===//

#include "ModelGenImpl.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::detail;
using llvm::SMLoc;
using llvm::StringRef;

namespace {
/// Deeper nesting of block calls is rejected.
constexpr unsigned kMaxBlockDepth = 32;
/// An option's value, substituted through nested calls, stays this small.
constexpr unsigned kMaxOptionNodes = 10000;

/// The number of nodes of `expr`, counted up to just past `kMaxOptionNodes`.
unsigned countNodes(const ast::Expr &expr, unsigned count = 0) {
  ++count;
  for (const auto &operand : expr.operands)
    if ((count = countNodes(*operand, count)) > kMaxOptionNodes)
      return count;
  if (expr.call)
    for (const ast::Arg &arg : expr.call->args)
      if ((count = countNodes(*arg.value, count)) > kMaxOptionNodes)
        return count;
  return count;
}

/// A copy of `expr` whose names bound in `values` are replaced by copies of
/// their values. Replacements are taken verbatim (their names belong to the
/// caller) and moved to the position of the name they replace.
std::unique_ptr<ast::Expr>
substitute(const ast::Expr &expr,
           const llvm::StringMap<const ast::Expr *> *values,
           std::optional<SMLoc> at = std::nullopt);

std::unique_ptr<ast::Call>
substituteCall(const ast::Call &call,
               const llvm::StringMap<const ast::Expr *> *values,
               std::optional<SMLoc> at) {
  auto copy = std::make_unique<ast::Call>();
  copy->callee = call.callee;
  copy->loc = at.value_or(call.loc);
  for (const ast::Arg &arg : call.args)
    copy->args.push_back(ast::Arg{arg.key, at.value_or(arg.keyLoc),
                                  substitute(*arg.value, values, at)});
  return copy;
}

std::unique_ptr<ast::Expr>
substitute(const ast::Expr &expr,
           const llvm::StringMap<const ast::Expr *> *values,
           std::optional<SMLoc> at) {
  if (values && expr.kind == ast::Expr::Name)
    if (auto it = values->find(expr.name); it != values->end())
      return substitute(*it->second, nullptr, expr.loc);
  auto copy = std::make_unique<ast::Expr>(expr.kind, at.value_or(expr.loc));
  copy->number = expr.number;
  copy->isInteger = expr.isInteger;
  copy->name = expr.name;
  copy->op = expr.op;
  for (const auto &operand : expr.operands)
    copy->operands.push_back(substitute(*operand, values, at));
  if (expr.call)
    copy->call = substituteCall(*expr.call, values, at);
  return copy;
}

/// The positional arguments of a call, in order.
SmallVector<const ast::Expr *> positionalArgs(const ast::Call &call) {
  SmallVector<const ast::Expr *> positional;
  for (const ast::Arg &arg : call.args)
    if (arg.key.empty())
      positional.push_back(arg.value.get());
  return positional;
}

/// "x, y" for messages.
std::string joinNames(ArrayRef<ast::BlockParam> params) {
  SmallVector<StringRef> names;
  for (const ast::BlockParam &p : params)
    names.push_back(p.name);
  return llvm::join(names, ", ");
}

/// Checks the names of a definition: parameters and body names are unique,
/// and the block returns one of its layers.
LogicalResult checkBlockNames(Evaluator &eval, const ast::BlockDef &block) {
  llvm::StringMap<SMLoc> seen;
  auto define = [&](StringRef name, SMLoc loc) -> LogicalResult {
    if (seen.try_emplace(name, loc).second)
      return success();
    return eval.error(loc) << "'" << name << "' is defined twice in block '"
                           << block.name << "'";
  };
  for (const ast::BlockParam &p : block.inputs)
    if (failed(define(p.name, p.loc)))
      return failure();
  for (const ast::BlockParam &p : block.options)
    if (failed(define(p.name, p.loc)))
      return failure();
  for (const ast::Statement &stmt : block.body)
    if (failed(define(stmt.name, stmt.nameLoc)))
      return failure();
  bool isLayer = llvm::any_of(block.body, [&](const ast::Statement &stmt) {
    return stmt.kind == ast::Statement::Layer && stmt.name == block.result;
  });
  if (!isLayer)
    return eval.error(block.resultLoc)
           << "block '" << block.name << "' must return one of its layers; '"
           << block.result << "' is not a layer of the block";
  return success();
}
} // namespace

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

Location Evaluator::loc(SMLoc loc) const {
  Location file = locator.get(loc);
  if (!caller)
    return file;
  return CallSiteLoc::get(file, *caller);
}

Location Evaluator::namedLoc(StringRef name, SMLoc loc) const {
  Location named = NameLoc::get(StringAttr::get(locator.getContext(), name),
                                locator.get(loc));
  if (!caller)
    return named;
  return CallSiteLoc::get(named, *caller);
}

//===----------------------------------------------------------------------===//
// Definitions
//===----------------------------------------------------------------------===//

LogicalResult ModelGen::genBlockDef(const ast::Statement &stmt) {
  const ast::BlockDef &block = *stmt.block;
  if (auto it = blocks.find(block.name); it != blocks.end())
    return emitError(locator.get(block.loc))
           << "block '" << block.name << "' is already defined at "
           << where(it->second.def->loc);
  if (block.name == "repeat" || isLayerKind(block.name))
    return emitError(locator.get(block.loc))
           << "'" << block.name << "' is a layer kind; name the block "
           << "differently";
  if (failed(checkBlockNames(eval, block)))
    return failure();
  unsigned index = blocks.size();
  blocks.try_emplace(block.name, BlockInfo{&block, index});
  return success();
}

const ast::BlockDef *ModelGen::findBlock(StringRef name,
                                         const Scope &scope) const {
  auto it = blocks.find(name);
  if (it == blocks.end() || it->second.index >= scope.visibleBlocks)
    return nullptr;
  return it->second.def;
}

void ModelGen::warnUnusedBlocks() {
  SmallVector<const ast::BlockDef *> unused;
  for (const auto &entry : blocks)
    if (!entry.second.used)
      unused.push_back(entry.second.def);
  llvm::sort(unused, [](const ast::BlockDef *a, const ast::BlockDef *b) {
    return a->loc.getPointer() < b->loc.getPointer();
  });
  for (const ast::BlockDef *block : unused)
    emitWarning(locator.get(block->loc))
        << "block '" << block->name << "' is never used";
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

FailureOr<Value> ModelGen::genCall(const ast::Statement &stmt, Scope &scope) {
  StringRef callee = stmt.call->callee;
  if (callee == "repeat")
    return genRepeat(stmt, scope);
  if (const ast::BlockDef *block = findBlock(callee, scope)) {
    FailureOr<SmallVector<std::string>> inputs =
        lookupInputs(positionalArgs(*stmt.call));
    if (failed(inputs) ||
        failed(checkBlockCall(*block, *stmt.call, inputs->size())))
      return failure();
    return genInstance(*block, *stmt.call, stmt.name, stmt.nameLoc, *inputs,
                       scope);
  }
  if (scope.block && callee == scope.block->name)
    return eval.error(stmt.call->loc)
           << "block '" << callee << "' cannot call itself";
  if (scope.block && blocks.count(callee))
    return eval.error(stmt.call->loc)
           << "block '" << callee << "' is defined after block '"
           << scope.block->name
           << "'; a block can only call the blocks defined above it";
  if (++layerCount > options.maxLayers)
    return eval.error(stmt.nameLoc) << "the model expands to more than "
                                    << options.maxLayers << " layers";
  FailureOr<Value> value = emitLayer(*this, stmt);
  if (succeeded(value))
    layerNames.push_back(stmt.name);
  return value;
}

FailureOr<SmallVector<std::string>>
ModelGen::lookupInputs(ArrayRef<const ast::Expr *> positional) {
  SmallVector<std::string> names;
  for (const ast::Expr *input : positional) {
    if (failed(lookupTensor(*input)))
      return failure();
    names.push_back(input->name);
  }
  return names;
}

LogicalResult ModelGen::checkBlockCall(const ast::BlockDef &block,
                                       const ast::Call &call,
                                       unsigned positional) {
  if (positional != block.inputs.size())
    return eval.error(call.loc)
           << "block '" << block.name << "' takes " << block.inputs.size()
           << " input" << (block.inputs.size() == 1 ? "" : "s") << " ("
           << joinNames(block.inputs) << "), got " << positional;
  return checkBlockOptions(block, call);
}

LogicalResult ModelGen::checkBlockOptions(const ast::BlockDef &block,
                                          const ast::Call &call) {
  llvm::StringSet<> given;
  for (const ast::Arg &arg : call.args) {
    if (arg.key.empty())
      continue;
    bool known = llvm::any_of(block.options, [&](const ast::BlockParam &p) {
      return p.name == arg.key;
    });
    if (!known) {
      auto diag = eval.error(arg.keyLoc)
                  << "block '" << block.name << "' has no option '" << arg.key
                  << "'";
      if (block.options.empty())
        diag << "; it takes no options";
      else
        diag << "; its options are " << joinNames(block.options);
      return diag;
    }
    if (!given.insert(arg.key).second)
      return eval.error(arg.keyLoc) << "option '" << arg.key << "' of block '"
                                    << block.name << "' is given twice";
  }
  for (const ast::BlockParam &option : block.options)
    if (!option.defaultValue && !given.count(option.name))
      return eval.error(call.loc)
             << "block '" << block.name << "' needs the option '" << option.name
             << "'";
  return success();
}

FailureOr<Value> ModelGen::genRepeat(const ast::Statement &stmt, Scope &scope) {
  const ast::Call &call = *stmt.call;
  SmallVector<const ast::Expr *> positional = positionalArgs(call);
  if (positional.size() < 3)
    return eval.error(call.loc)
           << "'repeat' takes a count, a block and the block's inputs: "
              "repeat(N, BLOCK, inputs..., options...)";
  FailureOr<int64_t> count =
      eval.evalInt(*positional[0], "the repeat count", 1);
  if (failed(count))
    return failure();
  const ast::Expr &name = *positional[1];
  const ast::BlockDef *block =
      name.kind == ast::Expr::Name ? findBlock(name.name, scope) : nullptr;
  if (!block)
    return eval.error(name.loc)
           << "the second argument of 'repeat' must be a block defined above";
  FailureOr<SmallVector<std::string>> inputs =
      lookupInputs(ArrayRef(positional).drop_front(2));
  if (failed(inputs) || failed(checkBlockCall(*block, call, inputs->size())))
    return failure();
  FailureOr<Value> result = failure();
  for (int64_t k = 1; k <= *count; ++k) {
    std::string instance = stmt.name + "." + std::to_string(k);
    result = genInstance(*block, call, instance, stmt.nameLoc, *inputs, scope);
    if (failed(result))
      return failure();
    tensors[instance] = Tensor{*result, stmt.nameLoc, false, true};
    (*inputs)[0] = instance;
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Instances
//===----------------------------------------------------------------------===//

FailureOr<Value> ModelGen::genInstance(const ast::BlockDef &block,
                                       const ast::Call &call, StringRef name,
                                       SMLoc nameLoc,
                                       ArrayRef<std::string> inputs,
                                       Scope &scope) {
  if (scope.depth >= kMaxBlockDepth)
    return eval.error(call.loc)
           << "block calls nest more than " << kMaxBlockDepth << " deep";
  blocks.find(block.name)->second.used = true;
  Scope inner;
  inner.block = &block;
  inner.visibleBlocks = blocks.find(block.name)->second.index;
  inner.prefix = (name + ".").str();
  inner.depth = scope.depth + 1;
  for (auto [param, input] : llvm::zip_equal(block.inputs, inputs))
    inner.tensors[param.name] = input;
  if (failed(bindOptions(block, call, inner)))
    return failure();
  // Everything inside is located at a call site of this call.
  std::optional<Location> outer = eval.getCaller();
  eval.setCaller(eval.namedLoc(name, nameLoc));
  FailureOr<Value> result = genBody(block, inner);
  eval.setCaller(outer);
  return result;
}

LogicalResult ModelGen::bindOptions(const ast::BlockDef &block,
                                    const ast::Call &call, Scope &inner) {
  for (const ast::BlockParam &option : block.options) {
    auto given = llvm::find_if(
        call.args, [&](const ast::Arg &a) { return a.key == option.name; });
    const ast::Expr *value;
    if (given != call.args.end()) {
      value = given->value.get();
    } else {
      // A default may use the options before it.
      inner.owned.push_back(substitute(*option.defaultValue, &inner.values));
      value = inner.owned.back().get();
    }
    // Values passed down through nested calls could grow without bound.
    if (countNodes(*value) > kMaxOptionNodes)
      return eval.error(given != call.args.end() ? given->keyLoc : call.loc)
             << "the value of option '" << option.name << "' of block '"
             << block.name << "' has more than " << kMaxOptionNodes << " terms";
    inner.values[option.name] = value;
  }
  return success();
}

FailureOr<Value> ModelGen::genBody(const ast::BlockDef &block, Scope &inner) {
  SmallVector<std::pair<const ast::Statement *, Value>> layers;
  for (const ast::Statement &stmt : block.body) {
    if (stmt.kind == ast::Statement::Let) {
      if (failed(genBodyLet(stmt, inner)))
        return failure();
      continue;
    }
    FailureOr<ast::Statement> layer = instantiate(stmt, inner);
    if (failed(layer))
      return failure();
    FailureOr<Value> value = genCall(*layer, inner);
    if (failed(value))
      return failure();
    tensors[layer->name] = Tensor{*value, stmt.nameLoc, false, true};
    inner.tensors[stmt.name] = layer->name;
    layers.emplace_back(&stmt, *value);
  }
  Value result = tensors[inner.tensors[block.result]].value;
  warnDeadBodyLayers(block, inner, layers, result);
  return result;
}

LogicalResult ModelGen::genBodyLet(const ast::Statement &stmt, Scope &inner) {
  std::unique_ptr<ast::Expr> expr = substitute(*stmt.value, &inner.values);
  FailureOr<Number> value = eval.eval(*expr);
  if (failed(value))
    return failure();
  auto number = std::make_unique<ast::Expr>(ast::Expr::Number, expr->loc);
  number->number = value->value;
  number->isInteger = value->isInteger;
  inner.values[stmt.name] = number.get();
  inner.owned.push_back(std::move(number));
  return success();
}

void ModelGen::warnDeadBodyLayers(
    const ast::BlockDef &block, const Scope &inner,
    ArrayRef<std::pair<const ast::Statement *, Value>> layers, Value result) {
  // Values the result depends on, found backwards down to the inputs.
  llvm::DenseSet<Value> live;
  for (const ast::BlockParam &input : block.inputs)
    live.insert(tensors[inner.tensors.lookup(input.name)].value);
  addLiveValues(result, live);
  // Reported once per layer of the definition.
  for (auto [stmt, value] : layers)
    if (!live.contains(value) && deadBodyLayers.insert(stmt).second)
      emitWarning(locator.get(stmt->nameLoc))
          << "'" << stmt->name << "' does not contribute to the result of "
          << "block '" << block.name << "'";
}

FailureOr<ast::Statement> ModelGen::instantiate(const ast::Statement &stmt,
                                                Scope &scope) {
  ast::Statement copy;
  copy.kind = stmt.kind;
  copy.loc = stmt.loc;
  copy.name = scope.prefix + stmt.name;
  copy.nameLoc = stmt.nameLoc;
  copy.call = substituteCall(*stmt.call, &scope.values, std::nullopt);
  // Positional arguments are tensors, except the count and the block of a
  // repeat; their names become full names.
  bool isRepeat = stmt.call->callee == "repeat";
  unsigned position = 0;
  for (auto [arg, original] :
       llvm::zip_equal(copy.call->args, stmt.call->args)) {
    if (!arg.key.empty())
      continue;
    unsigned p = position++;
    if (isRepeat && p < 2) {
      if (p == 1) // the block's name, which no option replaces
        arg.value = substitute(*original.value, nullptr);
      continue;
    }
    if (original.value->kind != ast::Expr::Name)
      continue;
    FailureOr<std::string> full = resolveInput(*original.value, scope);
    if (failed(full))
      return failure();
    arg.value = substitute(*original.value, nullptr);
    arg.value->name = *full;
  }
  return copy;
}

FailureOr<std::string> ModelGen::resolveInput(const ast::Expr &expr,
                                              Scope &scope) {
  StringRef name = expr.name;
  if (auto it = scope.tensors.find(name); it != scope.tensors.end())
    return it->second;
  const ast::BlockDef &block = *scope.block;
  auto diag = eval.error(expr.loc);
  if (scope.values.count(name))
    diag << "'" << name << "' is a value of block '" << block.name
         << "', not a layer or input";
  else if (tensors.count(name))
    diag << "'" << name << "' is defined outside block '" << block.name
         << "'; a block's layers can only use its inputs ("
         << joinNames(block.inputs) << ") and the layers above them";
  else
    diag << "'" << name << "' is not defined in block '" << block.name
         << "'; a block's layers can only use its inputs ("
         << joinNames(block.inputs) << ") and the layers above them";
  return diag;
}
