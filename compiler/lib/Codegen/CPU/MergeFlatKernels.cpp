//===- MergeFlatKernels.cpp - the nnc-cpu-merge-flat-kernels pass ---------===//
//
// Part of nnc. nnc-cpu-merge-kernels merges kernels that differ in
// constants alone once they are in the LLVM dialect; this pass merges the
// kernels whose buffers are flat so before their lowering, which then
// lowers each merged kernel once. Such a kernel (a contraction kernel of
// nnc-cpu-contractions, or any other once nnc-cpu-flatten-kernel-buffers
// has made its buffers flat) reads and writes its buffers through flat
// views, element by element at the offsets it computes, so two of them
// that differ in their constants and in the sizes of their buffers alone
// compute the same thing given the same constants. It runs once, after
// nnc-cpu-flatten-kernel-buffers, on every kernel: Inception-v3's 149
// contraction kernels are 51 to lower, its other kernels 129 (86, then 79
// once nnc-cpu-merge-kernels had merged the rest, before the contraction
// kernels divided by multiplying and added offsets of 0, and before K
// slices' views and 32 arguments were allowed here). Run on the contraction
// kernels as soon as outlined too, it merged fewer: their scf.forall's
// bounds (the number of C blocks) are attributes, made constants only by
// scf-forall-to-parallel, and the groups it made took arguments that the
// later merges' kernels did not (100 contraction kernels, then 93, 86).
//
//===----------------------------------------------------------------------===//

#include "KernelShape.h"

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_MERGEFLATKERNELSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;
using namespace nnc::cpu;

namespace {

/// A one-dimensional buffer of static size and no offset: the kernel
/// addresses its elements itself.
bool isFlat(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getRank() == 1 && memref.hasStaticShape() &&
         memref.getLayout().isIdentity() && !memref.getMemorySpace();
}

/// Whether `use`, a use of a buffer, only reads or writes elements of it.
bool isElementAccess(OpOperand &use) {
  return isa<memref::LoadOp, memref::StoreOp, memref::PrefetchOp,
             vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
             vector::MaskedStoreOp>(use.getOwner());
}

/// Whether `use` only reads or writes elements of the buffer, itself or
/// through a view of a dynamic size (a K slice's partial sums, in a
/// contraction kernel whose K is split).
bool isFlatUse(OpOperand &use) {
  if (isElementAccess(use))
    return true;
  auto view = dyn_cast<memref::ReinterpretCastOp>(use.getOwner());
  return view && use.getOperandNumber() == 0 &&
         view.getType().isDynamicDim(0) &&
         llvm::all_of(view->getUses(), isElementAccess);
}

/// Whether `f`, a function with a body, is a kernel this pass may merge:
/// one whose buffers are all flat and only accessed element by element, so
/// that their sizes matter nowhere in it.
bool isFlatKernel(func::FuncOp f) {
  if (!f.getName().starts_with(kKernelPrefix) || !f->hasAttr(kBarePtrAttr) ||
      f.getNumResults() != 0)
    return false;
  for (BlockArgument arg : f.getArguments()) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    if (!isFlat(arg.getType()) || !llvm::all_of(arg.getUses(), isFlatUse))
      return false;
  }
  return true;
}

/// The arith constants; an index read by an addition, subtraction,
/// multiplication, comparison, minimum or maximum, selection, loop bound or
/// step, shift or mask, or as an element's index may become an argument. A
/// divisor or a cast keeps its value: the kernels that differ in one stay
/// apart. Unlike nnc-cpu-merge-kernels, shift amounts and masks may
/// differ: a kernel's rows of C split into image positions by them when
/// the sizes are powers of two, once per register tile, and a shift or a
/// mask by a register costs what one by a constant does (BMI2's shlx and
/// shrx). Merged so, Inception-v3's training step ran as fast (six
/// alternated rounds, 3.66 against 3.68 images/s), and so did ResNet-50's
/// (5.10 against 5.08), whose contraction kernels merge only so; the
/// parameters of both after two steps were bit for bit the same.
class FlatKernelPolicy : public KernelPolicy {
public:
  bool isConstant(Operation *op) const override {
    return isa<arith::ConstantOp>(op);
  }
  Attribute constantValue(Operation *op) const override {
    return cast<arith::ConstantOp>(op).getValue();
  }
  bool isParameter(OpOperand &use) const override {
    auto c = use.get().getDefiningOp<arith::ConstantOp>();
    if (!c.getType().isIndex())
      return false;
    Operation *user = use.getOwner();
    if (isa<arith::SelectOp>(user))
      return use.getOperandNumber() != 0;
    return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::CmpIOp,
               arith::MinSIOp, arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp,
               arith::ShLIOp, arith::ShRUIOp, arith::AndIOp, scf::ForOp,
               scf::ParallelOp, memref::ReinterpretCastOp>(user) ||
           isElementAccess(use);
  }
  Value multiply(OpBuilder &b, Value value, int64_t factor) const override {
    Location loc = value.getLoc();
    return arith::MulIOp::create(
        b, loc, value, arith::ConstantIndexOp::create(b, loc, factor));
  }
  /// A flat buffer of any size.
  Type argumentType(Type type) const override {
    if (!isFlat(type))
      return type;
    auto memref = cast<MemRefType>(type);
    return MemRefType::get({ShapedType::kDynamic}, memref.getElementType());
  }
  /// More than nnc-cpu-merge-kernels' 12: a contraction kernel's
  /// divisions (a multiplier, a shift and the divisor each), blocks,
  /// prefetch schedules and strides make many, and the arguments past the
  /// sixth, on the stack, are read once per call of a kernel that runs for
  /// a millisecond. Inception-v3's contraction kernels were 72 within 12,
  /// 61 within 32 (none of its groups needed more than 24).
  unsigned maxParameters() const override { return 32; }
  /// The argument types are the entry block's.
  ArrayRef<StringRef> ignoredProperties() const override { return names; }

private:
  StringRef names[1] = {"function_type"};
};

/// How the calls to a kernel of a merged group change: their new callee,
/// and the values of the index constants they append to their arguments.
struct Redirect {
  func::FuncOp callee;
  SmallVector<Attribute> arguments;
};

/// Merges `group`, kernels of one shape, into its first: the uses of
/// constants whose values differ between them read its trailing index
/// arguments instead, one per distinct column of values that is no
/// multiple of another (columnsOf). Fills `redirects` and returns the
/// kernels merged away.
SmallVector<func::FuncOp> merge(ArrayRef<KernelShape *> group,
                                const KernelPolicy &policy,
                                DenseMap<StringAttr, Redirect> &redirects) {
  KernelShape &first = *group.front();
  Columns columns = columnsOf(group);
  auto kernel = cast<func::FuncOp>(first.function);
  unsigned numArgs = kernel.getNumArguments();
  unsigned count = columns.numArguments();
  Type index = IndexType::get(kernel.getContext());
  SmallVector<unsigned> positions(count, numArgs);
  SmallVector<Type> types(count, index);
  SmallVector<DictionaryAttr> attrs(count,
                                    DictionaryAttr::get(kernel.getContext()));
  SmallVector<Location> locs(count, kernel.getLoc());
  if (failed(kernel.insertArguments(positions, types, attrs, locs)))
    llvm::report_fatal_error("nnc: cannot add a merged kernel's arguments");
  for (auto [i, shape] : llvm::enumerate(group)) {
    Redirect &redirect =
        redirects[cast<func::FuncOp>(shape->function).getSymNameAttr()];
    redirect.callee = kernel;
    redirect.arguments = columnValues(columns, i);
  }
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  SmallVector<Value> scalars = columnScalars(
      columns, kernel.getArguments().drop_front(numArgs), b, policy);
  bindParameters(first, columns,
                 [&](unsigned c, OpOperand &) { return scalars[c]; });
  return llvm::map_to_vector(group.drop_front(), [](KernelShape *shape) {
    return cast<func::FuncOp>(shape->function);
  });
}

/// Points `call` at its kernel's merged function: each buffer viewed as the
/// merged function's (the same elements, another static size), and the
/// constants of its kernel appended.
void redirectCall(func::CallOp call, const Redirect &redirect) {
  OpBuilder b(call);
  Location loc = call.getLoc();
  func::FuncOp callee = redirect.callee;
  SmallVector<Value> operands;
  // The merged function's own arguments, before the constants appended.
  ArrayRef<Type> types =
      callee.getArgumentTypes().take_front(call.getNumOperands());
  for (auto [operand, type] : llvm::zip_equal(call.getOperands(), types)) {
    if (operand.getType() == type) {
      operands.push_back(operand);
      continue;
    }
    auto memref = cast<MemRefType>(type);
    operands.push_back(memref::ReinterpretCastOp::create(
        b, loc, memref, operand, /*offset=*/0, memref.getShape(),
        /*strides=*/{1}));
  }
  for (Attribute value : redirect.arguments)
    operands.push_back(
        arith::ConstantOp::create(b, loc, cast<TypedAttr>(value)));
  call.getOperandsMutable().assign(operands);
  call.setCallee(callee.getSymName());
}

struct MergeFlatKernelsPass
    : nnc::cpu::impl::MergeFlatKernelsPassBase<MergeFlatKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FunctionOpInterface> kernels;
    SmallVector<func::FuncOp> callers;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      if (isFlatKernel(f))
        kernels.push_back(f);
      else if (!f.getName().starts_with(kKernelPrefix))
        callers.push_back(f);
    }
    FlatKernelPolicy policy;
    KernelGroups groups = groupKernels(&getContext(), kernels, policy);
    DenseMap<StringAttr, Redirect> redirects;
    SmallVector<func::FuncOp> merged;
    for (ArrayRef<KernelShape *> group : groups.groups)
      llvm::append_range(merged, merge(group, policy, redirects));
    if (redirects.empty())
      return;
    // Kernels call no kernel: the model's functions make every call.
    for (func::FuncOp f : callers)
      f.walk([&](func::CallOp call) {
        auto it = redirects.find(call.getCalleeAttr().getAttr());
        if (it != redirects.end())
          redirectCall(call, it->second);
      });
    for (func::FuncOp f : merged)
      f.erase();
  }
};

} // namespace
