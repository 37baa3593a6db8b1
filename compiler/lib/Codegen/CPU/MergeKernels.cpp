//===- MergeKernels.cpp - the nnc-cpu-merge-kernels pass ------------------===//
//
// Part of nnc. Kernels that differ only in the values of some integer
// constants become one function, which takes those values as arguments.
// Layers of different sizes lower to such kernels: a batch normalisation
// or an activation over 64 or 192 channels, a pooling window over a 35x35
// or a 17x17 image, differ in their loop bounds and strides alone; so do
// a max pooling's gradients for each position of its window, which
// compare with a vector of the position's index. Each kernel costs LLVM's
// optimiser and code generator a fixed amount of work whatever its size.
// Kernels are compared use by use, whichever uses share a constant: merged,
// Inception-v3's 1,045 kernels are 352, ResNet-50's 437 are 222, VGG16's
// 226 are 124 and alexnet_tf_cnn's 174 are 107, and their training steps
// run as fast.
//
//===----------------------------------------------------------------------===//

#include "KernelShape.h"

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_MERGEKERNELSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;
using namespace nnc::cpu;
using LLVM::LLVMFuncOp;

namespace {

/// The integer a splat of 8- to 64-bit integers repeats, or null.
IntegerAttr splatInteger(Attribute value) {
  auto splat = dyn_cast<SplatElementsAttr>(value);
  auto type = splat ? dyn_cast<IntegerType>(splat.getElementType()) : nullptr;
  if (!type || type.getWidth() < 8 || type.getWidth() > 64)
    return {};
  return splat.getSplatValue<IntegerAttr>();
}

/// The constants of the LLVM dialect.
class LLVMKernelPolicy : public nnc::cpu::KernelPolicy {
public:
  bool isConstant(Operation *op) const override {
    return isa<LLVM::ConstantOp>(op);
  }
  Attribute constantValue(Operation *op) const override {
    return cast<LLVM::ConstantOp>(op).getValue();
  }

  /// Whether the constant `use` reads may become an argument: a 64-bit
  /// integer read by an addition, subtraction, multiplication, comparison,
  /// selection, address, or branch or loop bound, or a vector of one
  /// integer read by an element-wise comparison, addition, subtraction,
  /// multiplication or selection (a max pooling's gradient compares each
  /// window position with the position the forward pass chose). A divisor,
  /// a shift amount or a mask keeps its value, which instruction selection
  /// relies on (a division by a constant is a multiplication); so does an
  /// operand of a call or an intrinsic.
  bool isParameter(OpOperand &use) const override {
    auto c = use.get().getDefiningOp<LLVM::ConstantOp>();
    Operation *user = use.getOwner();
    if (isa<VectorType>(c.getType()) && splatInteger(c.getValue())) {
      if (isa<LLVM::SelectOp>(user))
        return use.getOperandNumber() != 0;
      return isa<LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::ICmpOp>(user);
    }
    auto type = dyn_cast<IntegerType>(c.getType());
    if (!type || type.getWidth() != 64 || !isa<IntegerAttr>(c.getValue()))
      return false;
    if (isa<LLVM::SelectOp, LLVM::GEPOp>(user))
      return use.getOperandNumber() != 0;
    if (auto insert = dyn_cast<LLVM::InsertValueOp>(user))
      return use.get() == insert.getValue();
    return isa<LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::ICmpOp,
               LLVM::SMinOp, LLVM::SMaxOp, LLVM::BrOp, LLVM::CondBrOp,
               omp::LoopNestOp>(user);
  }

  Value multiply(OpBuilder &b, Value value, int64_t factor) const override {
    Location loc = value.getLoc();
    return LLVM::MulOp::create(
        b, loc, value,
        LLVM::ConstantOp::create(b, loc, value.getType(), factor));
  }

  /// The value as an i64 (a vector's repeated integer, sign-extended).
  Attribute parameterValue(Operation *constant) const override {
    Attribute value = constantValue(constant);
    if (IntegerAttr element = splatInteger(value))
      return IntegerAttr::get(IntegerType::get(value.getContext(), 64),
                              element.getValue().getSExtValue());
    return value;
  }
};

/// How the calls to a kernel of a merged group change: their new callee,
/// and the values of the i64 constants they append to their arguments.
struct Redirect {
  FlatSymbolRefAttr callee;
  SmallVector<Attribute> arguments;
};

/// `attrs`, a function's or a call's argument attributes if it has any,
/// with `count` empty ones appended for new trailing arguments.
ArrayAttr withEmptyArgAttrs(ArrayAttr attrs, unsigned count) {
  if (!attrs)
    return attrs;
  SmallVector<Attribute> extended(attrs.getValue());
  extended.append(count, DictionaryAttr::get(attrs.getContext()));
  return ArrayAttr::get(attrs.getContext(), extended);
}

/// Appends `count` i64 arguments to `kernel`.
void appendArguments(LLVMFuncOp kernel, unsigned count) {
  auto i64 = IntegerType::get(kernel.getContext(), 64);
  LLVM::LLVMFunctionType type = kernel.getFunctionType();
  SmallVector<Type> params(type.getParams());
  params.append(count, i64);
  kernel.setFunctionType(LLVM::LLVMFunctionType::get(type.getReturnType(),
                                                     params, type.isVarArg()));
  if (ArrayAttr attrs = withEmptyArgAttrs(kernel.getArgAttrsAttr(), count))
    kernel.setArgAttrsAttr(attrs);
  Block &entry = kernel.getBody().front();
  for (unsigned i = 0; i < count; ++i)
    entry.addArgument(i64, kernel.getLoc());
}

/// A vector of `type` whose every element is `argument`, an i64,
/// truncated to the vector's integer type.
Value splatArgument(OpBuilder &b, Value argument, VectorType type) {
  Location loc = argument.getLoc();
  Value element = argument;
  if (type.getElementType() != argument.getType())
    element = LLVM::TruncOp::create(b, loc, type.getElementType(), argument);
  Value zero = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 0);
  Value vector = LLVM::InsertElementOp::create(
      b, loc, LLVM::PoisonOp::create(b, loc, type), element, zero);
  Value poison = LLVM::PoisonOp::create(b, loc, type);
  return LLVM::ShuffleVectorOp::create(
      b, loc, vector, poison, SmallVector<int32_t>(type.getNumElements(), 0));
}

/// Merges `group`, kernels of one shape, into its first. The uses of
/// constants whose values differ between them read its trailing arguments
/// instead, one per distinct column of values (a kernel often repeats a
/// value) that is no multiple of another (columnsOf). Fills `redirects` for the
/// calls to each of them. Returns the kernels merged away, for the caller to
/// erase once their calls are redirected.
SmallVector<LLVMFuncOp> merge(ArrayRef<KernelShape *> group,
                              const KernelPolicy &policy,
                              DenseMap<StringAttr, Redirect> &redirects) {
  KernelShape &first = *group.front();
  Columns columns = columnsOf(group);
  auto kernel = cast<LLVMFuncOp>(first.function);
  unsigned numArgs = kernel.getNumArguments();
  appendArguments(kernel, columns.numArguments());
  auto callee = FlatSymbolRefAttr::get(kernel.getSymNameAttr());
  for (auto [i, shape] : llvm::enumerate(group)) {
    Redirect &redirect =
        redirects[cast<LLVMFuncOp>(shape->function).getSymNameAttr()];
    redirect.callee = callee;
    redirect.arguments = columnValues(columns, i);
  }
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  SmallVector<Value> scalars = columnScalars(
      columns, kernel.getArguments().drop_front(numArgs), b, policy);
  DenseMap<std::pair<Value, Type>, Value> splats;
  bindParameters(first, columns, [&](unsigned c, OpOperand &use) {
    Value scalar = scalars[c];
    auto vector = dyn_cast<VectorType>(use.get().getType());
    if (!vector)
      return scalar;
    Value &splat = splats[{scalar, vector}];
    if (!splat)
      splat = splatArgument(b, scalar, vector);
    return splat;
  });
  return llvm::map_to_vector(group.drop_front(), [](KernelShape *shape) {
    return cast<LLVMFuncOp>(shape->function);
  });
}

/// Points `call` at its kernel's merged function, with the constants that
/// kernel had as trailing arguments.
void redirectCall(LLVM::CallOp call, const Redirect &redirect) {
  OpBuilder b(call);
  auto i64 = b.getI64Type();
  SmallVector<Value> arguments;
  for (Attribute value : redirect.arguments)
    arguments.push_back(LLVM::ConstantOp::create(b, call.getLoc(), i64, value));
  call.getCalleeOperandsMutable().append(arguments);
  if (ArrayAttr attrs =
          withEmptyArgAttrs(call.getArgAttrsAttr(), arguments.size()))
    call.setArgAttrsAttr(attrs);
  call.setCalleeAttr(redirect.callee);
}

struct MergeKernelsPass
    : nnc::cpu::impl::MergeKernelsPassBase<MergeKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVMFuncOp> kernels, callers;
    for (auto f : module.getOps<LLVMFuncOp>())
      if (!f.isExternal())
        (f.getName().starts_with(nnc::cpu::kKernelPrefix) ? kernels : callers)
            .push_back(f);
    LLVMKernelPolicy policy;
    KernelGroups groups = groupKernels(
        &getContext(),
        llvm::map_to_vector(
            kernels, [](LLVMFuncOp f) -> FunctionOpInterface { return f; }),
        policy);
    DenseMap<StringAttr, Redirect> redirects;
    SmallVector<LLVMFuncOp> merged;
    for (ArrayRef<KernelShape *> group : groups.groups)
      llvm::append_range(merged, merge(group, policy, redirects));
    if (redirects.empty())
      return;
    // Kernels call no kernel: the model's functions make every call.
    for (LLVMFuncOp f : callers)
      f.walk([&](LLVM::CallOp call) {
        FlatSymbolRefAttr callee = call.getCalleeAttr();
        if (!callee)
          return;
        auto it = redirects.find(callee.getAttr());
        if (it != redirects.end())
          redirectCall(call, it->second);
      });
    for (LLVMFuncOp f : merged)
      f.erase();
  }
};

} // namespace
