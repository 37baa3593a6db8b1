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

/// A loop nest in its entry point, the values it uses from outside it (in
/// first-use order), and the hash of what it would compute as a kernel:
/// the constants it would clone and the types of the arguments it would
/// take, in that order, and its ops up to value names and locations.
struct Nest {
  Operation *op = nullptr;
  llvm::SetVector<Value> captured;
  unsigned hash = 0;

  static Operation *constant(Value v) {
    Operation *def = v.getDefiningOp();
    return def && def->hasTrait<OpTrait::ConstantLike>() ? def : nullptr;
  }

  static Nest of(Operation *op) {
    Nest nest;
    nest.op = op;
    nest.captured = capturedValues(op);
    auto hashOp = [](Operation *inner) {
      return OperationEquivalence::computeHash(
          inner, OperationEquivalence::ignoreHashValue,
          OperationEquivalence::ignoreHashValue,
          OperationEquivalence::IgnoreLocations);
    };
    llvm::hash_code hash = {};
    for (Value v : nest.captured) {
      Operation *c = constant(v);
      hash = llvm::hash_combine(hash, c != nullptr,
                                c ? hashOp(c) : hash_value(v.getType()));
    }
    op->walk([&](Operation *inner) {
      hash = llvm::hash_combine(hash, hashOp(inner));
    });
    nest.hash = static_cast<unsigned>(hash);
    return nest;
  }

  /// Whether the two would be the same kernel: the same constants and
  /// argument types at the same places, and ops that compute the same from
  /// them.
  static bool same(const Nest &x, const Nest &y) {
    if (x.hash != y.hash || x.captured.size() != y.captured.size())
      return false;
    DenseMap<Value, Value> map;
    for (auto [a, b] : llvm::zip_equal(x.captured, y.captured)) {
      Operation *ca = constant(a), *cb = constant(b);
      if ((ca != nullptr) != (cb != nullptr))
        return false;
      if (ca ? !OperationEquivalence::isEquivalentTo(
                   ca, cb, OperationEquivalence::IgnoreLocations)
             : a.getType() != b.getType())
        return false;
      map[a] = b;
    }
    return OperationEquivalence::isEquivalentTo(
               x.op, y.op,
               [&](Value a, Value b) {
                 return success(a == b || map.lookup(a) == b);
               },
               [&](Value a, Value b) { map[a] = b; },
               OperationEquivalence::IgnoreLocations) &&
           sameArguments(x, y);
  }

  /// Whether a value that `x` and `y`, of the same ops, use at the same
  /// place is the same argument of both kernels. The comparison above takes
  /// a value as equal to itself, whatever argument each would pass it as:
  /// `ins(%v, %x) outs(%x)` and `ins(%x, %x) outs(%w)` would pass it.
  static bool sameArguments(const Nest &x, const Nest &y) {
    SmallVector<Operation *> xs, ys;
    x.op->walk([&](Operation *op) { xs.push_back(op); });
    y.op->walk([&](Operation *op) { ys.push_back(op); });
    for (auto [a, b] : llvm::zip_equal(xs, ys))
      for (auto [u, v] : llvm::zip_equal(a->getOperands(), b->getOperands()))
        if (u == v && !constant(u) &&
            llvm::find(x.captured, u) - x.captured.begin() !=
                llvm::find(y.captured, u) - y.captured.begin())
          return false;
    return true;
  }
};

/// What the kernel of a nest that uses `captured` from outside it takes,
/// in order: every value but the constants, which it clones.
SmallVector<Value> kernelArguments(const llvm::SetVector<Value> &captured) {
  SmallVector<Value> args;
  for (Value v : captured)
    if (!Nest::constant(v))
      args.push_back(v);
  return args;
}

/// Replaces `op` by a call to a new private function and moves `op` into
/// it (cloning and erasing the training step's thousands of nests took
/// seconds of ResNet-50's compilation). `captured` are the values `op`
/// uses from outside it. Returns the function.
func::FuncOp outline(Operation *op, const llvm::SetVector<Value> &captured,
                     StringRef name, OpBuilder &moduleBuilder) {
  SmallVector<Value> args = kernelArguments(captured);
  SmallVector<Operation *> constants;
  for (Value v : captured)
    if (Operation *c = Nest::constant(v))
      constants.push_back(c);
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
  func::CallOp::create(callBuilder, op->getLoc(), func, args);
  op->moveBefore(ret);
  // Only `op`'s own uses of the captured values change: a walk over `op`,
  // where replacing each value's uses would scan every use in the entry
  // point (a constant used by thousands of nests).
  op->walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands())
      if (Value inside = map.lookupOrNull(operand.get()))
        operand.set(inside);
  });
  return func;
}

/// Replaces `nest` by a call to `kernel`, which computes the same, and
/// unlinks it, its uses of outside values dropped: what is left refers to
/// nothing outside it, so it can be destroyed on any thread.
void replaceByCall(const Nest &nest, func::FuncOp kernel) {
  OpBuilder callBuilder(nest.op);
  func::CallOp::create(callBuilder, nest.op->getLoc(), kernel,
                       kernelArguments(nest.captured));
  nest.op->walk([&](Operation *inner) {
    for (OpOperand &operand : inner->getOpOperands())
      if (nest.captured.contains(operand.get()))
        operand.drop();
  });
  nest.op->remove();
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
    // The model's functions: entry points and the training pass they call.
    SmallVector<func::FuncOp> entries;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        entries.push_back(f);
    SmallVector<Operation *> ops;
    SmallVector<size_t> ends; // each entry's nests end here in `ops`
    for (func::FuncOp f : entries) {
      for (Operation &op : f.getBody().getOps())
        if (isKernel(&op))
          ops.push_back(&op);
      ends.push_back(ops.size());
    }
    // Identical nests are one kernel, the first's: of Inception-v3's 9,077
    // nests, 8,032 are duplicates. They are found in place, before any is
    // outlined: hashing (a walk over every op of a nest) and comparing
    // nests of equal hashes run on the pass manager's threads.
    std::vector<Nest> nests(ops.size());
    parallelFor(&getContext(), 0, ops.size(),
                [&](size_t i) { nests[i] = Nest::of(ops[i]); });
    llvm::MapVector<unsigned, SmallVector<size_t>> buckets;
    for (auto [i, nest] : llvm::enumerate(nests))
      buckets[nest.hash].push_back(i);
    // The first nest equal to each, in the entry points' order.
    SmallVector<size_t> first(nests.size());
    parallelForEach(&getContext(), buckets, [&](auto &bucket) {
      SmallVector<size_t> distinct;
      for (size_t i : bucket.second) {
        auto same = llvm::find_if(
            distinct, [&](size_t d) { return Nest::same(nests[d], nests[i]); });
        first[i] = same == distinct.end() ? i : *same;
        if (same == distinct.end())
          distinct.push_back(i);
      }
    });
    // The first of each kind is outlined (kernel i for the i-th nest);
    // the others become calls to it. No walk over the module replaces a
    // symbol (upstream duplicate-function-elimination does one per
    // duplicate: 0.54 s for ResNet-50's 6,940).
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
    SmallVector<func::FuncOp> kernels(nests.size());
    SmallVector<Operation *> duplicates;
    size_t i = 0;
    for (auto [f, end] : llvm::zip_equal(entries, ends)) {
      for (; i < end; ++i) {
        if (first[i] != i) {
          replaceByCall(nests[i], kernels[first[i]]);
          duplicates.push_back(nests[i].op);
          continue;
        }
        kernels[i] = outline(nests[i].op, nests[i].captured,
                             (nnc::cpu::kKernelPrefix + llvm::Twine(i)).str(),
                             moduleBuilder);
      }
      markSequencer(f);
      passBuffersBare(f);
    }
    // The duplicates refer to nothing outside them any more: they are
    // destroyed in parallel (references across blocks first, as a
    // region's destructor does).
    parallelForEach(&getContext(), duplicates, [](Operation *op) {
      op->dropAllReferences();
      op->destroy();
    });
  }
};

} // namespace
