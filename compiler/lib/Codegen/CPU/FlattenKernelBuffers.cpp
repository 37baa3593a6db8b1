//===- FlattenKernelBuffers.cpp - the nnc-cpu-flatten-kernel-buffers pass -===//
//
// Part of nnc. Once a kernel is loops of element and vector accesses, the
// shapes of its buffers matter only through the addresses it computes: a
// batch normalisation's kernels for a 35x35x288 image and for a 17x17x768
// one differ in their constants alone, but their buffers' types differ
// too, and nnc-cpu-merge-flat-kernels cannot merge them. Here each such
// buffer becomes a flat one, its accesses addressed by index arithmetic on
// constants (strides and offset), which that pass can then turn into
// arguments. Inception-v3's 804 kernels other than the contractions were
// all lowered to the LLVM dialect, then merged into 157 by
// nnc-cpu-merge-kernels; now 152 are lowered, and its compile executes 3%
// fewer instructions (callgrind). An element's address is the same either
// way.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Utils/MemRefUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_FLATTENKERNELBUFFERSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
/// A buffer argument's static layout, and the flat type it takes.
struct Layout : nnc::StaticLayout {
  MemRefType flat;
};

/// `type`'s layout when it is static and not already flat: every element
/// lies in a flat buffer of `span` elements from its base.
std::optional<Layout> flatLayout(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getMemorySpace() ||
      (memref.getRank() == 1 && memref.getLayout().isIdentity()))
    return std::nullopt;
  std::optional<nnc::StaticLayout> layout = nnc::getStaticLayout(memref);
  if (!layout || memref.getNumElements() == 0)
    return std::nullopt;
  int64_t span = layout->offset + 1;
  for (auto [size, stride] :
       llvm::zip_equal(memref.getShape(), layout->strides))
    span += (size - 1) * stride;
  return Layout{{std::move(*layout)},
                MemRefType::get({span}, memref.getElementType())};
}

/// The buffer and the indices of `op`, an access of elements, or nullopt.
/// A vector access reads consecutive elements: a vector of one element, or
/// of one dimension along a unit-stride innermost one.
std::optional<std::pair<OpOperand *, MutableOperandRange>>
access(Operation *op, const Layout &layout) {
  auto vectorAlongRow = [&](VectorType type) {
    return type.getRank() == 0 ||
           (type.getRank() == 1 && !layout.strides.empty() &&
            layout.strides.back() == 1);
  };
  using Result = std::optional<std::pair<OpOperand *, MutableOperandRange>>;
  return TypeSwitch<Operation *, Result>(op)
      .Case([](memref::LoadOp load) -> Result {
        return {{&load.getMemrefMutable(), load.getIndicesMutable()}};
      })
      .Case([](memref::StoreOp store) -> Result {
        return {{&store.getMemrefMutable(), store.getIndicesMutable()}};
      })
      .Case<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
            vector::MaskedStoreOp>([&](auto vectorOp) -> Result {
        if (!vectorAlongRow(vectorOp.getVectorType()))
          return std::nullopt;
        return {{&vectorOp.getBaseMutable(), vectorOp.getIndicesMutable()}};
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether every use of `arg` is an access `access` rewrites, through its
/// buffer operand.
bool onlyAccessed(BlockArgument arg, const Layout &layout) {
  return llvm::all_of(arg.getUses(), [&](OpOperand &use) {
    auto found = access(use.getOwner(), layout);
    return found && found->first == &use;
  });
}

/// An element's flat index neither wraps nor goes negative: the access was
/// in bounds. As upstream's lowering of an access, the arithmetic says so,
/// and LLVM can then move a constant part of the address into the
/// instruction's displacement.
constexpr arith::IntegerOverflowFlags kInBounds =
    arith::IntegerOverflowFlags::nsw | arith::IntegerOverflowFlags::nuw;

/// Addresses each access of `arg` by its flat index: each index times its
/// stride, plus the offset and the constant indices' share, in index
/// arithmetic on constants. Every stride and the offset are multiplied and
/// added even when they are 1 or 0 (LLVM folds them), so that buffers of
/// other layouts give the same operations.
void flattenAccesses(BlockArgument arg, const Layout &layout) {
  for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
    Operation *op = use.getOwner();
    MutableOperandRange indices = access(op, layout)->second;
    OpBuilder b(op);
    Location loc = op->getLoc();
    int64_t constantPart = layout.offset;
    Value linear;
    for (auto [index, stride] : llvm::zip_equal(
             ValueRange(indices.getAsOperandRange()), layout.strides)) {
      if (std::optional<int64_t> value = getConstantIntValue(index)) {
        constantPart += *value * stride;
        continue;
      }
      Value term = arith::MulIOp::create(
          b, loc, index, arith::ConstantIndexOp::create(b, loc, stride),
          kInBounds);
      linear = linear ? arith::AddIOp::create(b, loc, linear, term, kInBounds)
                      : term;
    }
    Value constant = arith::ConstantIndexOp::create(b, loc, constantPart);
    linear = linear ? arith::AddIOp::create(b, loc, linear, constant, kInBounds)
                    : constant;
    indices.assign(linear);
  }
  arg.setType(layout.flat);
}

/// Flattens the buffers of kernel `f` that only its accesses use; returns
/// the flat layouts of its arguments, by position.
DenseMap<unsigned, MemRefType> flattenKernel(func::FuncOp f) {
  DenseMap<unsigned, MemRefType> flattened;
  for (BlockArgument arg : f.getArguments()) {
    std::optional<Layout> layout = flatLayout(arg.getType());
    if (!layout || !onlyAccessed(arg, *layout))
      continue;
    flattenAccesses(arg, *layout);
    flattened[arg.getArgNumber()] = layout->flat;
  }
  if (!flattened.empty())
    f.setType(FunctionType::get(f.getContext(),
                                f.getBody().front().getArgumentTypes(),
                                f.getResultTypes()));
  return flattened;
}

struct FlattenKernelBuffersPass
    : nnc::cpu::impl::FlattenKernelBuffersPassBase<FlattenKernelBuffersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DenseMap<StringAttr, DenseMap<unsigned, MemRefType>> kernels;
    SmallVector<func::FuncOp> callers;
    for (auto f : module.getOps<func::FuncOp>()) {
      if (f.isExternal())
        continue;
      if (!f.getName().starts_with(nnc::cpu::kKernelPrefix)) {
        callers.push_back(f);
        continue;
      }
      // A kernel that takes descriptors reads their fields, not only
      // elements: its types are its callers' views.
      if (!f->hasAttr(nnc::cpu::kBarePtrAttr))
        continue;
      DenseMap<unsigned, MemRefType> flattened = flattenKernel(f);
      if (!flattened.empty())
        kernels[f.getSymNameAttr()] = std::move(flattened);
    }
    if (kernels.empty())
      return;
    // Each call views its buffers as the flat ones (the same base).
    for (func::FuncOp f : callers)
      f.walk([&](func::CallOp call) {
        auto it = kernels.find(call.getCalleeAttr().getAttr());
        if (it == kernels.end())
          return;
        OpBuilder b(call);
        for (auto [position, type] : it->second) {
          OpOperand &operand = call->getOpOperand(position);
          operand.set(memref::ReinterpretCastOp::create(
              b, call.getLoc(), type, operand.get(), /*offset=*/0,
              type.getShape(), /*strides=*/{1}));
        }
      });
  }
};
} // namespace
