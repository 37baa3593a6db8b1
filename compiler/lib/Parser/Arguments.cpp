//===- Arguments.cpp - constant expressions and call arguments ------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "ModelGenImpl.h"

#include "nn/IR/ShapeFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace nnc;
using namespace nnc::detail;
using llvm::SMLoc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Evaluator
//===----------------------------------------------------------------------===//

static StringRef describe(const ast::Expr &expr) {
  switch (expr.kind) {
  case ast::Expr::List:
    return "a list";
  case ast::Expr::CallExpr:
    return "a call";
  default:
    return "a value";
  }
}

FailureOr<Number> Evaluator::eval(const ast::Expr &expr) {
  switch (expr.kind) {
  case ast::Expr::Number:
    return Number{expr.number, expr.isInteger};
  case ast::Expr::Name: {
    auto it = constants.find(expr.name);
    if (it == constants.end())
      return error(expr.loc)
             << "'" << expr.name << "' is not a constant (define it with 'let "
             << expr.name << " = ...')";
    return it->second;
  }
  case ast::Expr::Negate: {
    FailureOr<Number> v = eval(*expr.operands[0]);
    if (failed(v))
      return failure();
    return Number{-v->value, v->isInteger};
  }
  case ast::Expr::Binary: {
    FailureOr<Number> l = eval(*expr.operands[0]);
    if (failed(l))
      return failure();
    FailureOr<Number> r = eval(*expr.operands[1]);
    if (failed(r))
      return failure();
    Number result;
    result.isInteger = l->isInteger && r->isInteger;
    switch (expr.op) {
    case '+':
      result.value = l->value + r->value;
      break;
    case '-':
      result.value = l->value - r->value;
      break;
    case '*':
      result.value = l->value * r->value;
      break;
    default:
      if (r->value == 0)
        return error(expr.loc) << "division by zero";
      result.value = l->value / r->value;
      // Integer division that is exact stays an integer: 224 / 2.
      result.isInteger = result.isInteger && std::fmod(l->value, r->value) == 0;
      break;
    }
    if (!std::isfinite(result.value))
      return error(expr.loc) << "arithmetic overflow";
    if (result.isInteger && std::fabs(result.value) >= kMaxExactInteger)
      return error(expr.loc) << "integer arithmetic overflow";
    return result;
  }
  case ast::Expr::CallExpr:
    return evalFunction(expr);
  case ast::Expr::List:
    break;
  }
  return error(expr.loc) << "expected a number, got " << describe(expr);
}

FailureOr<int64_t> Evaluator::evalInt(const ast::Expr &expr, StringRef what,
                                      int64_t min) {
  FailureOr<Number> v = eval(expr);
  if (failed(v))
    return failure();
  if (!v->isInteger)
    return error(expr.loc) << what << " must be an integer, got "
                           << nn::formatNumber(v->value);
  if (v->value < static_cast<double>(min))
    return error(expr.loc) << what << " must be at least " << min << ", got "
                           << static_cast<int64_t>(v->value);
  return static_cast<int64_t>(v->value);
}

FailureOr<double> Evaluator::evalFloat(const ast::Expr &expr, StringRef what) {
  FailureOr<Number> v = eval(expr);
  if (failed(v))
    return failure();
  return v->value;
}

//===----------------------------------------------------------------------===//
// CallArgs
//===----------------------------------------------------------------------===//

LogicalResult CallArgs::check(ArrayRef<StringRef> keywords,
                              unsigned minPositional, unsigned maxPositional,
                              StringRef positionalWhat) {
  llvm::StringSet<> seen;
  for (const ast::Arg &arg : call.args) {
    if (arg.key.empty()) {
      positionals.push_back(arg.value.get());
      continue;
    }
    if (!llvm::is_contained(keywords, arg.key)) {
      auto diag = error(arg.keyLoc) << "'" << call.callee << "' has no option '"
                                    << arg.key << "'";
      if (keywords.empty())
        diag << "; it takes no options";
      else
        diag << "; its options are " << llvm::join(keywords, ", ");
      return diag;
    }
    if (!seen.insert(arg.key).second)
      return error(arg.keyLoc) << "option '" << arg.key << "' is given twice";
  }
  unsigned n = positionals.size();
  if (n < minPositional || n > maxPositional) {
    SMLoc at = n > maxPositional ? positionals[maxPositional]->loc : call.loc;
    return error(at) << "'" << call.callee << "' takes " << positionalWhat
                     << ", got " << n << " positional argument"
                     << (n == 1 ? "" : "s");
  }
  return success();
}

const ast::Expr *CallArgs::get(StringRef key) const {
  for (const ast::Arg &arg : call.args)
    if (arg.key == key)
      return arg.value.get();
  return nullptr;
}

/// A bare name where a number is needed: say what the option wants, not
/// how to define a constant ("'filters' must be an integer, got 'SAME'").
static bool isStrayName(const Evaluator &eval, const ast::Expr *expr) {
  return expr->kind == ast::Expr::Name && !eval.isDefined(expr->name);
}

LogicalResult CallArgs::missing(StringRef key) {
  return error(call.loc) << "'" << call.callee << "' needs the option '" << key
                         << "'";
}

FailureOr<const ast::Expr *> CallArgs::numeric(StringRef key, bool hasDefault,
                                               StringRef kind) {
  const ast::Expr *expr = get(key);
  if (!expr) {
    if (hasDefault)
      return nullptr;
    return missing(key);
  }
  if (isStrayName(eval, expr))
    return error(expr->loc) << "'" << key << "' must be " << kind << ", got '"
                            << expr->name << "' (not a defined constant)";
  return expr;
}

FailureOr<int64_t> CallArgs::getInt(StringRef key, std::optional<int64_t> def,
                                    int64_t min) {
  FailureOr<const ast::Expr *> expr =
      numeric(key, def.has_value(), "an integer");
  if (failed(expr))
    return failure();
  if (!*expr)
    return *def;
  return eval.evalInt(**expr, "'" + key.str() + "'", min);
}

FailureOr<double> CallArgs::getFloat(StringRef key, std::optional<double> def) {
  FailureOr<const ast::Expr *> expr = numeric(key, def.has_value(), "a number");
  if (failed(expr))
    return failure();
  if (!*expr)
    return *def;
  return eval.evalFloat(**expr, key);
}

FailureOr<bool> CallArgs::getBool(StringRef key, bool def) {
  const ast::Expr *expr = get(key);
  if (!expr)
    return def;
  if (expr->kind == ast::Expr::Name && expr->name == "true")
    return true;
  if (expr->kind == ast::Expr::Name && expr->name == "false")
    return false;
  return error(expr->loc) << "'" << key << "' must be true or false";
}

FailureOr<SmallVector<int64_t, 2>>
CallArgs::getPair(StringRef key, std::optional<SmallVector<int64_t, 2>> def) {
  const ast::Expr *expr = get(key);
  if (!expr) {
    if (def)
      return *def;
    return missing(key);
  }
  std::string what = "'" + key.str() + "'";
  if (expr->kind != ast::Expr::List) {
    FailureOr<int64_t> v = eval.evalInt(*expr, what, 1);
    if (failed(v))
      return failure();
    return SmallVector<int64_t, 2>{*v, *v};
  }
  if (expr->operands.size() != 2)
    return error(expr->loc)
           << what << " must be one number or [height, width], "
           << "got a list of " << expr->operands.size();
  SmallVector<int64_t, 2> result;
  for (const auto &element : expr->operands) {
    FailureOr<int64_t> v = eval.evalInt(*element, what, 1);
    if (failed(v))
      return failure();
    result.push_back(*v);
  }
  return result;
}

FailureOr<SmallVector<double>> CallArgs::getFloatList(StringRef key) {
  const ast::Expr *expr = get(key);
  if (!expr)
    return missing(key);
  if (expr->kind != ast::Expr::List || expr->operands.empty())
    return error(expr->loc) << "'" << key << "' must be a list of numbers "
                            << "such as [0.1, 0.01]";
  SmallVector<double> result;
  for (const auto &element : expr->operands) {
    FailureOr<double> v = eval.evalFloat(*element, key);
    if (failed(v))
      return failure();
    result.push_back(*v);
  }
  return result;
}

FailureOr<SmallVector<int64_t>> CallArgs::getIntList(StringRef key,
                                                     bool allowInfer) {
  const ast::Expr *expr = get(key);
  if (!expr)
    return missing(key);
  if (expr->kind != ast::Expr::List)
    return error(expr->loc) << "'" << key << "' must be a list such as "
                            << "[batch, 64]";
  SmallVector<int64_t> result;
  bool inferred = false;
  for (const auto &element : expr->operands) {
    FailureOr<Number> v = eval.eval(*element);
    if (failed(v))
      return failure();
    if (allowInfer && v->isInteger && v->value == -1 && !inferred) {
      inferred = true;
      result.push_back(-1);
      continue;
    }
    if (!v->isInteger || v->value < 1)
      return error(element->loc) << "dimensions must be positive integers"
                                 << (allowInfer ? " (one may be -1)" : "")
                                 << ", got " << nn::formatNumber(v->value);
    result.push_back(static_cast<int64_t>(v->value));
  }
  return result;
}

FailureOr<StringRef>
CallArgs::getChoice(StringRef key, ArrayRef<StringRef> choices, StringRef def) {
  const ast::Expr *expr = get(key);
  if (!expr)
    return def;
  if (expr->kind == ast::Expr::Name)
    for (StringRef choice : choices)
      if (expr->name == choice)
        return choice;
  return error(expr->loc) << "'" << key << "' must be one of "
                          << llvm::join(choices, ", ");
}

FailureOr<Attribute> CallArgs::getInit(StringRef key, Attribute def,
                                       bool allowNone) {
  const ast::Expr *expr = get(key);
  if (!expr)
    return def;
  return evalInitializer(eval, *expr, allowNone);
}

//===----------------------------------------------------------------------===//
// Initialisers
//===----------------------------------------------------------------------===//

namespace {
/// The initialiser kinds, each with its parameters in positional order.
struct InitKind {
  StringRef name;
  llvm::SmallVector<StringRef, 2> params;
};
const InitKind kInitKinds[] = {
    {"zeros", {}},
    {"ones", {}},
    {"constant", {"value"}},
    {"normal", {"stddev", "mean"}},
    {"truncated_normal", {"stddev", "mean"}},
    {"uniform", {"min", "max"}},
    {"glorot_uniform", {}},
    {"glorot_normal", {}},
    {"he_normal", {}},
    {"variance_scaling", {"scale", "mode", "distribution"}},
};

/// Arguments whose value is a name, with the names they accept.
struct NameArg {
  StringRef key;
  llvm::SmallVector<StringRef, 3> choices;
};
const NameArg kNameArgs[] = {
    {"mode", {"fan_in", "fan_out", "fan_avg"}},
    {"distribution", {"truncated_normal", "untruncated_normal", "uniform"}},
};

/// An initialiser's arguments: numbers, and names (variance_scaling's mode
/// and distribution).
struct InitArgs {
  llvm::StringMap<double> numbers;
  llvm::StringMap<std::string> names;
  bool has(StringRef key) const {
    return numbers.count(key) || names.count(key);
  }
};

/// Reads `value` as one of the names `arg` accepts.
LogicalResult readNameArg(Evaluator &eval, const NameArg &arg,
                          const ast::Expr &value, InitArgs &out) {
  if (value.kind != ast::Expr::Name ||
      !llvm::is_contained(arg.choices, StringRef(value.name)))
    return eval.error(value.loc) << "'" << arg.key << "' must be one of "
                                 << llvm::join(arg.choices, ", ");
  out.names[arg.key] = value.name;
  return success();
}

/// Reads the arguments of `call` (positional, then by keyword) into
/// `values`, keyed by parameter name.
LogicalResult readInitArgs(Evaluator &eval, const InitKind &kind,
                           const ast::Call &call, InitArgs &values) {
  unsigned position = 0;
  for (const ast::Arg &arg : call.args) {
    StringRef key = arg.key;
    SMLoc at = arg.key.empty() ? arg.value->loc : arg.keyLoc;
    if (key.empty()) {
      if (position >= kind.params.size())
        return eval.error(at)
               << "'" << kind.name << "' takes " << kind.params.size()
               << " argument" << (kind.params.size() == 1 ? "" : "s");
      key = kind.params[position++];
    } else if (!llvm::is_contained(kind.params, key)) {
      return eval.error(at)
             << "'" << kind.name << "' has no argument '" << key << "'";
    }
    if (values.has(key))
      return eval.error(at) << "argument '" << key << "' is given twice";
    const NameArg *named = llvm::find_if(
        kNameArgs, [&](const NameArg &n) { return n.key == key; });
    if (named != std::end(kNameArgs)) {
      if (failed(readNameArg(eval, *named, *arg.value, values)))
        return failure();
      continue;
    }
    FailureOr<double> v = eval.evalFloat(*arg.value, key);
    if (failed(v))
      return failure();
    values.numbers[key] = *v;
  }
  return success();
}

/// The attribute of an initialiser of `kind` with argument `values`.
FailureOr<Attribute> buildInitializer(Evaluator &eval, const ast::Expr &expr,
                                      const InitKind &kind,
                                      const InitArgs &args) {
  const llvm::StringMap<double> &values = args.numbers;
  MLIRContext *ctx = eval.loc(expr.loc).getContext();
  StringRef name = kind.name;
  auto value = [&](StringRef key,
                   std::optional<double> def) -> FailureOr<llvm::APFloat> {
    auto it = values.find(key);
    if (it != values.end())
      return llvm::APFloat(it->second);
    if (def)
      return llvm::APFloat(*def);
    return eval.error(expr.loc) << "'" << name << "' needs '" << key << "'";
  };
  if (name == "zeros")
    return Attribute(nn::ZerosInitAttr::get(ctx));
  if (name == "ones")
    return Attribute(nn::ConstantInitAttr::get(ctx, llvm::APFloat(1.0)));
  if (name == "glorot_uniform")
    return Attribute(nn::GlorotUniformInitAttr::get(ctx));
  if (name == "glorot_normal")
    return Attribute(nn::GlorotNormalInitAttr::get(ctx));
  if (name == "he_normal")
    return Attribute(nn::HeNormalInitAttr::get(ctx));
  if (name == "variance_scaling") {
    auto scale = value("scale", 1.0);
    if (failed(scale))
      return failure();
    if (!(scale->convertToDouble() > 0))
      return eval.error(expr.loc) << "'variance_scaling' needs a positive "
                                     "scale, got "
                                  << nn::formatNumber(scale->convertToDouble());
    auto name = [&](StringRef key, StringRef def) {
      auto it = args.names.find(key);
      return it == args.names.end() ? def : StringRef(it->second);
    };
    return Attribute(nn::VarianceScalingInitAttr::get(
        ctx, *scale, name("mode", "fan_in"),
        name("distribution", "truncated_normal")));
  }
  if (name == "constant") {
    auto v = value("value", std::nullopt);
    if (failed(v))
      return failure();
    return Attribute(nn::ConstantInitAttr::get(ctx, *v));
  }
  if (name == "uniform") {
    auto lo = value("min", std::nullopt);
    auto hi = succeeded(lo) ? value("max", std::nullopt) : lo;
    if (failed(lo) || failed(hi))
      return failure();
    if (!(*lo < *hi))
      return eval.error(expr.loc) << "uniform needs min < max";
    return Attribute(nn::UniformInitAttr::get(ctx, *lo, *hi));
  }
  auto stddev = value("stddev", std::nullopt);
  auto mean = succeeded(stddev) ? value("mean", 0.0) : stddev;
  if (failed(stddev) || failed(mean))
    return failure();
  if (!(stddev->convertToDouble() > 0))
    return eval.error(expr.loc)
           << "'" << name << "' needs a positive stddev, got "
           << nn::formatNumber(stddev->convertToDouble());
  if (name == "normal")
    return Attribute(nn::NormalInitAttr::get(ctx, *mean, *stddev));
  return Attribute(nn::TruncatedNormalInitAttr::get(ctx, *mean, *stddev));
}
} // namespace

FailureOr<Attribute> nnc::detail::evalInitializer(Evaluator &eval,
                                                  const ast::Expr &expr,
                                                  bool allowNone) {
  StringRef name;
  const ast::Call *call = nullptr;
  if (expr.kind == ast::Expr::Name)
    name = expr.name;
  else if (expr.kind == ast::Expr::CallExpr)
    name = expr.call->callee, call = expr.call.get();
  if (allowNone && name == "none" && !call)
    return Attribute();
  const InitKind *kind = llvm::find_if(
      kInitKinds, [&](const InitKind &k) { return k.name == name; });
  if (kind == std::end(kInitKinds)) {
    SmallVector<StringRef> names;
    for (const InitKind &k : kInitKinds)
      names.push_back(k.name);
    return eval.error(expr.loc)
           << "expected an initialiser (" << llvm::join(names, ", ")
           << (allowNone ? ", none" : "") << ")";
  }
  InitArgs values;
  if (call && failed(readInitArgs(eval, *kind, *call, values)))
    return failure();
  return buildInitializer(eval, expr, *kind, values);
}
