//===- Functions.cpp - functions in constant expressions ------------------===//
//
// Part of nnc. `sqrt(e)`, `floor(e)`, `ceil(e)`, `min(a, b)` and `max(a, b)`
// inside constant expressions: `stddev=sqrt(2 / 9)`, `units=max(n / 4, 1)`.
//
//===----------------------------------------------------------------------===//

#include "ModelGenImpl.h"

#include "nn/IR/ShapeFunctions.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace nnc;
using namespace nnc::detail;
using llvm::StringRef;

namespace {
struct Function {
  StringRef name;
  unsigned arity;
};
const Function kFunctions[] = {
    {"sqrt", 1}, {"floor", 1}, {"ceil", 1}, {"min", 2}, {"max", 2}};

/// An integer result when `value` is exactly representable.
Number integral(double value) {
  return Number{value, std::fabs(value) < kMaxExactInteger};
}
} // namespace

FailureOr<Number> Evaluator::evalFunction(const ast::Expr &expr) {
  const ast::Call &call = *expr.call;
  const Function *fn = llvm::find_if(
      kFunctions, [&](const Function &f) { return f.name == call.callee; });
  if (fn == std::end(kFunctions))
    return error(expr.loc) << "expected a number, got a call of '"
                           << call.callee
                           << "' (the functions are sqrt, floor, ceil, min "
                              "and max)";
  if (call.args.size() != fn->arity)
    return error(expr.loc) << "'" << fn->name << "' takes " << fn->arity
                           << " argument" << (fn->arity == 1 ? "" : "s")
                           << ", got " << call.args.size();
  SmallVector<Number, 2> args;
  for (const ast::Arg &arg : call.args) {
    if (!arg.key.empty())
      return error(arg.keyLoc)
             << "'" << fn->name << "' takes positional arguments only";
    FailureOr<Number> v = eval(*arg.value);
    if (failed(v))
      return failure();
    args.push_back(*v);
  }
  StringRef name = fn->name;
  double x = args[0].value;
  if (name == "sqrt") {
    if (x < 0)
      return error(expr.loc)
             << "sqrt of a negative number, " << nn::formatNumber(x);
    // The root of a perfect square stays an integer: sqrt(16) is 4.
    double root = std::sqrt(x);
    return Number{root, args[0].isInteger && root * root == x &&
                            root == std::trunc(root)};
  }
  if (name == "floor")
    return integral(std::floor(x));
  if (name == "ceil")
    return integral(std::ceil(x));
  // min and max: an integer when both arguments are.
  const Number &pick =
      (name == "min") == (args[1].value < x) ? args[1] : args[0];
  return Number{pick.value, args[0].isInteger && args[1].isInteger};
}
