//===- CheckModel.cpp - the nnc-check-model pass --------------------------===//
//
// Part of nnc. One rule for the sizes and element types of every input,
// .nn or .mlir, checked before anything is derived or lowered: the entry
// points take and return only what the bench program can pass.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"
#include "nn/IR/ShapeFunctions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

namespace nnc {
#define GEN_PASS_DEF_CHECKMODELPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {

/// The bits of one element of type `elt`, or 0 when it has no fixed size.
unsigned elementBits(Type elt) {
  if (elt.isIntOrFloat())
    return elt.getIntOrFloatBitWidth();
  if (isa<IndexType>(elt))
    return 64;
  if (auto complex = dyn_cast<ComplexType>(elt))
    return 2 * elementBits(complex.getElementType());
  return 0;
}

/// Whether `type` (a tensor or memref) is static and small enough; reports
/// at `loc` what `what` is when not.
LogicalResult checkSize(Location loc, Type type, StringRef what) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || isa<VectorType>(type))
    return success();
  if (!shaped.hasStaticShape())
    return emitError(loc) << what << " has the type " << type
                          << ": nnc compiles static shapes only";
  FailureOr<int64_t> count =
      nn::checkElementCount(loc, what, shaped.getShape());
  if (failed(count))
    return failure();
  unsigned bits = elementBits(shaped.getElementType());
  int64_t bytes;
  if (llvm::MulOverflow(*count, int64_t(llvm::divideCeil(bits, 8)), bytes) ||
      bytes > nn::kMaxElements)
    return emitError(loc) << what << " " << type << " has more than 2^53 bytes";
  return success();
}

/// Whether the floating-point element type of `type` is f32.
LogicalResult checkFloat(Location loc, Type type) {
  Type elt = getElementTypeOrSelf(type);
  if (!isa<FloatType>(elt) || elt.isF32())
    return success();
  return emitError(loc) << "element type " << elt
                        << ": nnc compiles f32 models (the runtime's data, "
                           "parameters and checkpoints are f32)";
}

/// Whether `type`, taken or returned by an entry point (a public
/// function), is one the bench program passes: a tensor of f32 (see
/// checkFloat), i32 or i64. `what` names it when it is not a tensor.
LogicalResult checkEntryType(Location loc, Type type, StringRef what) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || isa<VectorType>(type))
    return emitError(loc) << what << " has the type " << type
                          << ": entry points take and return tensors";
  Type elt = shaped.getElementType();
  if (isa<FloatType>(elt) || elt.isSignlessInteger(32) ||
      elt.isSignlessInteger(64))
    return checkFloat(loc, type);
  return emitError(loc) << "element type " << elt
                        << ": the entry points of nnc's models take and "
                           "return tensors of f32, i32 or i64";
}

struct CheckModelPass : nnc::impl::CheckModelPassBase<CheckModelPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    auto check = [&](LogicalResult result) { ok &= succeeded(result); };
    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            check(checkSize(arg.getLoc(), arg.getType(), "an argument"));
      for (Value result : op->getResults())
        check(checkSize(op->getLoc(), result.getType(),
                        "a result of '" + op->getName().getStringRef().str() +
                            "'"));
      if (auto param = dyn_cast<nn::ParameterOp>(op))
        check(checkSize(op->getLoc(), param.getType(), "the parameter"));
      if (auto func = dyn_cast<func::FuncOp>(op))
        for (Type type : func.getResultTypes())
          check(checkSize(op->getLoc(), type, "a result"));
    });
    // Element types: the first offender only; the inputs first, as the
    // parameters' types usually follow from them. The entry points' types
    // are checked whole: what the runtime cannot pass is refused here, not
    // when the program runs.
    struct Typed {
      Location loc;
      Type type;
      const char *entry; // "an argument" or "a result"; null: a parameter
    };
    SmallVector<Typed> typed;
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        for (BlockArgument arg : func.getArguments())
          typed.push_back({arg.getLoc(), arg.getType(), "an argument"});
    for (auto param : module.getOps<nn::ParameterOp>())
      typed.push_back({param.getLoc(), param.getType(), nullptr});
    for (auto func : module.getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        for (Type type : func.getResultTypes())
          typed.push_back({func.getLoc(), type, "a result"});
    for (const Typed &t : typed)
      if (failed(t.entry ? checkEntryType(t.loc, t.type, t.entry)
                         : checkFloat(t.loc, t.type))) {
        ok = false;
        break;
      }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
