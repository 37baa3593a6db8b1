//===- OutlineKernels.cpp - the nnc-cpu-outline-kernels pass --------------===//
//
// Part of nnc. One private function per loop nest; identical nests
// (repeated blocks of a model, a layer's forward in every entry point)
// share one, which is compiled once.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Transforms/Passes.h"
#include "nnc/Utils/LoopUtils.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {

bool isKernel(Operation *op) {
  return op->getNumResults() == 0 &&
         isa<scf::ForallOp, scf::ForOp, linalg::LinalgOp>(op);
}

/// The values `op` uses that are defined outside it, in first-use order.
llvm::SetVector<Value> capturedValues(Operation *op) {
  llvm::SetVector<Value> values(op->getOperands().begin(),
                                op->getOperands().end());
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, values);
  return values;
}

/// Whether `type` can cross a call as its aligned pointer alone: not a
/// memref, or one the LLVM lowering passes bare (static sizes, strides and
/// offset, from which the callee rebuilds the descriptor). Upstream's
/// LLVMTypeConverter::canConvertToBarePtr answers the same, but derives an
/// identity layout's strides through its affine map: a third of outlining
/// Inception-v3's 5,643 kernels, on one thread.
bool passableAsPointer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return !isa<BaseMemRefType>(type);
  if (!memref.hasStaticShape())
    return false;
  if (memref.getLayout().isIdentity())
    return true;
  if (auto strided = dyn_cast<StridedLayoutAttr>(memref.getLayout()))
    return !ShapedType::isDynamic(strided.getOffset()) &&
           llvm::none_of(strided.getStrides(), ShapedType::isDynamic);
  return LLVMTypeConverter::canConvertToBarePtr(memref);
}

/// A kernel and the hash of what it computes: its type and attributes but
/// the name, and its body up to value names and locations.
struct Kernel {
  func::FuncOp func;
  unsigned hash = 0;

  static Kernel of(func::FuncOp f) {
    // The attributes include the function type.
    llvm::hash_code hash = {};
    for (NamedAttribute attr : f->getAttrs())
      if (attr.getName() != f.getSymNameAttrName())
        hash = llvm::hash_combine(hash, attr);
    f.getBody().walk([&](Operation *op) {
      hash = llvm::hash_combine(hash,
                                OperationEquivalence::computeHash(
                                    op, OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::IgnoreLocations));
    });
    return {f, static_cast<unsigned>(hash)};
  }

  /// Whether the two compute the same. By value: a FuncOp's accessors are
  /// not const.
  static bool same(Kernel x, Kernel y) {
    if (x.hash != y.hash)
      return false;
    auto withoutName = [](func::FuncOp f) {
      NamedAttrList attrs(f->getAttrDictionary());
      attrs.erase(f.getSymNameAttrName());
      return attrs.getDictionary(f.getContext());
    };
    return withoutName(x.func) == withoutName(y.func) &&
           OperationEquivalence::isRegionEquivalentTo(
               &x.func.getBody(), &y.func.getBody(),
               OperationEquivalence::IgnoreLocations);
  }
};

/// Replaces `op` by a call to a new private function and moves `op` into
/// it (cloning and erasing the training step's thousands of nests took
/// seconds of ResNet-50's compilation). Returns the call and the function.
std::pair<func::CallOp, func::FuncOp> outline(Operation *op, StringRef name,
                                              OpBuilder &moduleBuilder) {
  llvm::SetVector<Value> captured = capturedValues(op);
  SmallVector<Value> args;
  SmallVector<Operation *> constants;
  for (Value v : captured) {
    Operation *def = v.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      args.push_back(v);
  }
  SmallVector<Type> types;
  for (Value v : args)
    types.push_back(v.getType());
  auto func =
      func::FuncOp::create(moduleBuilder, op->getLoc(), name,
                           FunctionType::get(op->getContext(), types, {}));
  func.setPrivate();
  // A kernel takes its buffers as bare pointers (the LLVM lowering's
  // `llvm.bareptr`): a descriptor passed whole is two pointers and 2r + 1
  // integers for a rank-r memref, which the entry points' sequencers build,
  // take apart and pass at every call (most of ResNet-50's LLVM IR).
  if (llvm::all_of(types, passableAsPointer))
    func->setAttr(nnc::cpu::kBarePtrAttr, moduleBuilder.getUnitAttr());
  SmallVector<Attribute> passthrough = {
      moduleBuilder.getStringAttr("noinline")};
  if (op->hasAttr(nnc::cpu::kContractionAttr))
    passthrough.push_back(
        moduleBuilder.getStringAttr(nnc::cpu::kContractionFnAttr));
  func->setAttr("passthrough", moduleBuilder.getArrayAttr(passthrough));
  Block *body = func.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  IRMapping map;
  map.map(args, body->getArguments());
  for (Operation *c : constants)
    b.clone(*c, map);
  auto ret = func::ReturnOp::create(b, op->getLoc());

  OpBuilder callBuilder(op);
  auto call = func::CallOp::create(callBuilder, op->getLoc(), func, args);
  op->moveBefore(ret);
  // Only `op`'s own uses of the captured values change: a walk over `op`,
  // where replacing each value's uses would scan every use in the entry
  // point (a constant used by thousands of nests).
  op->walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands())
      if (Value inside = map.lookupOrNull(operand.get()))
        operand.set(inside);
  });
  return {call, func};
}

/// An entry point left with straight-line code only (kernel calls,
/// allocations, descriptor plumbing) is compiled without optimisation:
/// ResNet-50's training step is one block of thousands of calls, which
/// LLVM's SelectionDAG and schedulers take seconds over, while its run time
/// is nothing beside the kernels'.
void markSequencer(func::FuncOp f) {
  if (!nnc::isStraightLine(f.getBody()))
    return;
  Builder b(f.getContext());
  f->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline"),
                                            b.getStringAttr("optnone")}));
}

/// A model function whose buffers all have static layouts takes them as
/// bare pointers, like its kernels: as descriptors, ResNet-50's training
/// pass took over a thousand scalars, and every entry point calling it as
/// many, which the code generator lowers through SelectionDAG even at -O0
/// (the sequencers' instruction selection: 1.8 s of CPU, 0.2 s with bare
/// pointers). An entry point's C interface, one
/// descriptor pointer per buffer (docs/interface.md), is then built by
/// nnc-packed-entry-points from the element types recorded here.
void passBuffersBare(func::FuncOp f) {
  if (f.getNumResults() != 0 ||
      !llvm::all_of(f.getArgumentTypes(), passableAsPointer))
    return;
  StringRef cInterface = LLVM::LLVMDialect::getEmitCWrapperAttrName();
  Builder b(f.getContext());
  if (f->hasAttr(cInterface)) {
    SmallVector<Attribute> elements;
    for (Type type : f.getArgumentTypes()) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref)
        return;
      elements.push_back(TypeAttr::get(memref.getElementType()));
    }
    f->removeAttr(cInterface);
    f->setAttr(nnc::kBareCInterfaceAttr, b.getArrayAttr(elements));
  }
  f->setAttr(nnc::cpu::kBarePtrAttr, b.getUnitAttr());
}

struct OutlineKernelsPass
    : nnc::cpu::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
    unsigned count = 0;
    SmallVector<func::FuncOp> entries;
    // The model's functions: entry points and the training pass they call.
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        entries.push_back(f);
    SmallVector<std::pair<func::CallOp, func::FuncOp>> calls;
    for (func::FuncOp f : entries) {
      SmallVector<Operation *> nests;
      for (Operation &op : f.getBody().getOps())
        if (isKernel(&op))
          nests.push_back(&op);
      for (Operation *op : nests)
        calls.push_back(
            outline(op, (nnc::cpu::kKernelPrefix + llvm::Twine(count++)).str(),
                    moduleBuilder));
      markSequencer(f);
      passBuffersBare(f);
    }
    // Identical kernels are one, the first: the calls to the others go to
    // it and they are erased. The entry points' calls are the kernels'
    // only uses, so no walk over the module replaces a symbol (upstream
    // duplicate-function-elimination does one per duplicate: 0.54 s for
    // ResNet-50's 6,940). Hashing (a walk over every op of a nest),
    // comparing kernels of equal hashes and emptying the duplicates run on
    // the pass manager's threads: of Inception-v3's 9,077 nests, 8,032 are
    // duplicates.
    SmallVector<Kernel> hashed(calls.size());
    parallelFor(&getContext(), 0, calls.size(),
                [&](size_t i) { hashed[i] = Kernel::of(calls[i].second); });
    llvm::MapVector<unsigned, SmallVector<size_t>> buckets;
    for (auto [i, kernel] : llvm::enumerate(hashed))
      buckets[kernel.hash].push_back(i);
    // The first kernel equal to each, in the order of the calls.
    SmallVector<size_t> first(calls.size());
    parallelForEach(&getContext(), buckets, [&](auto &bucket) {
      SmallVector<size_t> distinct;
      for (size_t i : bucket.second) {
        auto same = llvm::find_if(distinct, [&](size_t d) {
          return Kernel::same(hashed[d], hashed[i]);
        });
        first[i] = same == distinct.end() ? i : *same;
        if (same == distinct.end())
          distinct.push_back(i);
      }
    });
    SmallVector<func::FuncOp> duplicates;
    for (auto [i, call] : llvm::enumerate(llvm::make_first_range(calls))) {
      if (first[i] == i)
        continue;
      call.setCallee(hashed[first[i]].func.getSymName());
      duplicates.push_back(hashed[i].func);
    }
    // A kernel's body uses its own values only: the bodies are destroyed
    // in parallel (references across blocks first, as a region's
    // destructor does), the functions removed from the module after.
    parallelForEach(&getContext(), duplicates, [](func::FuncOp f) {
      f.getBody().dropAllReferences();
      f.getBody().getBlocks().clear();
    });
    for (func::FuncOp f : duplicates)
      f.erase();
  }
};

} // namespace
