//===- LowerEntryPoints.cpp - the nnc-cpu-lower-entry-points pass ---------===//
//
// Part of nnc. Once the kernels are outlined, a model's entry points are
// straight lines of allocations, views and calls, all with static layouts.
// Upstream's lowering gives every buffer and view a descriptor built field
// by field and takes it apart at each call: most of the LLVM dialect of a
// training step, and a third of the MLIR passes' time on ResNet-50 once
// the kernels are out. Here a buffer is its two pointers alone, its layout
// being known from its type, so a view costs nothing and a call passes
// what the callee takes: the aligned pointer (`llvm.bareptr`), or the
// descriptor's fields, as `convert-func-to-llvm` passes them.
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"
#include "nnc/Utils/MemRefUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_LOWERENTRYPOINTSPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
/// A buffer: its descriptor's two pointers and its static layout.
struct Buffer {
  Value allocated, aligned;
  int64_t offset = 0;
  SmallVector<int64_t> sizes, strides;
};

/// Sets `buffer`'s layout to `type`'s; false when any of it is dynamic.
bool staticLayout(Type type, Buffer &buffer) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getMemorySpace())
    return false;
  std::optional<nnc::StaticLayout> layout = nnc::getStaticLayout(memref);
  if (!layout)
    return false;
  buffer.offset = layout->offset;
  buffer.sizes.assign(memref.getShape().begin(), memref.getShape().end());
  buffer.strides = std::move(layout->strides);
  return true;
}

bool isScalar(Type type) {
  return type.isIndex() || type.isSignlessInteger() || isa<FloatType>(type);
}

/// The LLVM dialect's type for scalar `type` (index is 64 bits, as on the
/// CPU targets' data layouts).
Type lowerScalar(Type type) {
  return type.isIndex() ? IntegerType::get(type.getContext(), 64) : type;
}

/// Appends the arguments that stand for a `type` parameter of a function
/// that takes bare pointers or not (`bare`), as `convert-func-to-llvm`
/// lowers it; false when this pass does not lower such a parameter.
bool appendLowered(Type type, bool bare, SmallVectorImpl<Type> &out) {
  if (isScalar(type)) {
    out.push_back(lowerScalar(type));
    return true;
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || memref.getMemorySpace())
    return false;
  auto ptr = LLVM::LLVMPointerType::get(type.getContext());
  if (bare) {
    Buffer layout;
    out.push_back(ptr);
    return staticLayout(memref, layout);
  }
  auto i64 = IntegerType::get(type.getContext(), 64);
  out.append({ptr, ptr, i64});
  out.append(2 * memref.getRank(), i64);
  return true;
}

/// The lowered parameter types of `f`, when its signature and attributes
/// are ones this pass lowers.
std::optional<SmallVector<Type>> loweredInputs(func::FuncOp f) {
  if (f.getNumResults() || f->hasAttr("llvm.emit_c_interface") ||
      f->hasAttr("llvm.linkage"))
    return std::nullopt;
  if (ArrayAttr attrs = f.getArgAttrsAttr())
    if (!llvm::all_of(
            attrs, [](Attribute a) { return cast<DictionaryAttr>(a).empty(); }))
      return std::nullopt;
  bool bare = f->hasAttr(nnc::cpu::kBarePtrAttr);
  SmallVector<Type> inputs;
  for (Type type : f.getArgumentTypes())
    if (!appendLowered(type, bare, inputs))
      return std::nullopt;
  return inputs;
}

/// The runtime's allocation functions, declared in the part once (a lookup
/// by name scans the part's ops), when its entry points use them.
struct Runtime {
  LLVM::LLVMFuncOp allocate, allocateAligned, free;
};

/// The values of an entry point's index computations: constants, a
/// static buffer's sizes (a fill's, nnc-cpu-generic-fills), its layout's
/// fields, and arithmetic on them, each known as the body is read in order.
using KnownIndices = DenseMap<Value, int64_t>;

/// The static size `d` of `buffer`, through casts to dynamic sizes.
std::optional<int64_t> staticSize(Value buffer, int64_t d) {
  while (true) {
    auto type = dyn_cast<MemRefType>(buffer.getType());
    if (!type || d < 0 || d >= type.getRank())
      return std::nullopt;
    if (!type.isDynamicDim(d))
      return type.getDimSize(d);
    auto cast = buffer.getDefiningOp<memref::CastOp>();
    if (!cast)
      return std::nullopt;
    buffer = cast.getSource();
  }
}

/// Records the values `op` computes in `known`; false when it computes an
/// index this pass cannot know.
bool foldIndices(Operation &op, KnownIndices &known) {
  auto operand = [&](unsigned i) { return known.lookup(op.getOperand(i)); };
  auto knownOperands = [&] {
    return llvm::all_of(op.getOperands(),
                        [&](Value v) { return known.contains(v); });
  };
  return TypeSwitch<Operation *, bool>(&op)
      .Case([&](arith::ConstantOp c) {
        if (c.getType().isIndex())
          known[c] = cast<IntegerAttr>(c.getValue()).getInt();
        return true;
      })
      .Case([&](memref::DimOp dim) {
        if (!known.contains(dim.getIndex()))
          return false;
        std::optional<int64_t> size =
            staticSize(dim.getSource(), known.lookup(dim.getIndex()));
        if (size)
          known[dim] = *size;
        return size.has_value();
      })
      .Case([&](memref::ExtractStridedMetadataOp metadata) {
        Buffer layout;
        if (!staticLayout(metadata.getSource().getType(), layout))
          return false;
        known[metadata.getOffset()] = layout.offset;
        for (auto [v, size] :
             llvm::zip_equal(metadata.getSizes(), layout.sizes))
          known[v] = size;
        for (auto [v, stride] :
             llvm::zip_equal(metadata.getStrides(), layout.strides))
          known[v] = stride;
        return true;
      })
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
            arith::RemUIOp, arith::CeilDivUIOp, arith::MinUIOp, arith::MaxUIOp>(
          [&](auto arith) {
            if (!arith.getType().isIndex() || !knownOperands())
              return false;
            uint64_t x = operand(0), y = operand(1);
            if (y == 0 &&
                isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(
                    arith.getOperation()))
              return false;
            known[arith] =
                TypeSwitch<Operation *, int64_t>(arith.getOperation())
                    .Case([&](arith::AddIOp) { return x + y; })
                    .Case([&](arith::SubIOp) { return x - y; })
                    .Case([&](arith::MulIOp) { return x * y; })
                    .Case([&](arith::DivUIOp) { return x / y; })
                    .Case([&](arith::RemUIOp) { return x % y; })
                    .Case([&](arith::CeilDivUIOp) {
                      return x / y + (x % y != 0);
                    })
                    .Case([&](arith::MinUIOp) { return std::min(x, y); })
                    .Default([&](Operation *) { return std::max(x, y); });
            return true;
          })
      .Default([](Operation *) { return true; });
}

/// Whether `op` is left out: nothing uses what it computes (a constant
/// that outlining copied into the kernels that use it).
bool unused(Operation &op) {
  return op.getNumResults() > 0 && op.use_empty() && isMemoryEffectFree(&op);
}

/// Whether this pass lowers `op`, an op of an entry point's body whose
/// index computations are `known`.
bool lowerableOp(Operation &op, const DenseSet<StringAttr> &functions,
                 const KnownIndices &known) {
  // An index computation whose value foldIndices knows is that value.
  if (unused(op) ||
      (op.getNumResults() == 1 && known.contains(op.getResult(0))))
    return true;
  Buffer layout;
  return TypeSwitch<Operation *, bool>(&op)
      .Case([](arith::ConstantOp c) { return isScalar(c.getType()); })
      .Case([&](memref::ExtractStridedMetadataOp metadata) {
        return known.contains(metadata.getOffset());
      })
      .Case([&](memref::AllocOp alloc) {
        MemRefType type = alloc.getType();
        Type element = type.getElementType();
        return type.getLayout().isIdentity() && staticLayout(type, layout) &&
               (element.isSignlessInteger() || isa<FloatType>(element)) &&
               element.getIntOrFloatBitWidth() % 8 == 0;
      })
      .Case([](memref::DeallocOp) { return true; })
      .Case<memref::SubViewOp, memref::ReinterpretCastOp,
            memref::CollapseShapeOp, memref::ExpandShapeOp>(
          [&](Operation *view) {
            return staticLayout(view->getResult(0).getType(), layout);
          })
      .Case([](memref::CastOp cast) {
        return isa<MemRefType>(cast.getType()) &&
               isa<MemRefType>(cast.getSource().getType());
      })
      .Case([&](func::CallOp call) {
        return call.getNumResults() == 0 &&
               functions.contains(call.getCalleeAttr().getAttr());
      })
      .Case([](func::ReturnOp ret) { return ret.getNumOperands() == 0; })
      .Default([](Operation *) { return false; });
}

/// Lowers the body of one entry point into its llvm.func.
class BodyLowering {
public:
  BodyLowering(ModuleOp part, LLVM::LLVMFuncOp target,
               const llvm::StringMap<LLVM::LLVMFuncOp> &lowered,
               const Runtime &runtime, const KnownIndices &known)
      : part(part), lowered(lowered), runtime(runtime), known(known),
        b(part.getContext()), i64(IntegerType::get(part.getContext(), 64)),
        ptr(LLVM::LLVMPointerType::get(part.getContext())) {
    b.setInsertionPointToStart(target.addEntryBlock(b));
  }

  void run(func::FuncOp f) {
    Block *entry = b.getInsertionBlock();
    for (auto [arg, pointer] :
         llvm::zip_equal(f.getArguments(), entry->getArguments())) {
      if (!isa<MemRefType>(arg.getType())) {
        scalars.map(arg, pointer);
        continue;
      }
      Buffer &buffer = buffers[arg];
      staticLayout(arg.getType(), buffer);
      buffer.allocated = buffer.aligned = pointer;
    }
    for (Operation &op : f.getBody().front())
      lower(op);
  }

private:
  /// An i64 constant, made once: each use comes after the first.
  Value constant(int64_t value) {
    Value &c = cache[value];
    if (!c)
      c = LLVM::ConstantOp::create(b, part.getLoc(), i64,
                                   b.getI64IntegerAttr(value));
    return c;
  }

  void lower(Operation &op) {
    if (unused(op))
      return;
    Location loc = op.getLoc();
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      Value value;
      if (c.getType().isIndex())
        value = constant(cast<IntegerAttr>(c.getValue()).getInt());
      else
        value = LLVM::ConstantOp::create(b, loc, c.getType(), c.getValue());
      scalars.map(c.getResult(), value);
      return;
    }
    // An index computation is its value.
    if (op.getNumResults() == 1 && known.contains(op.getResult(0))) {
      scalars.map(op.getResult(0), constant(known.lookup(op.getResult(0))));
      return;
    }
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(op)) {
      Buffer base = buffers[metadata.getSource()];
      staticLayout(metadata.getBaseBuffer().getType(), base);
      buffers[metadata.getBaseBuffer()] = std::move(base);
      for (Value v : metadata->getResults().drop_front())
        scalars.map(v, constant(known.lookup(v)));
      return;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      return lowerAlloc(alloc);
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      LLVM::CallOp::create(b, loc, runtime.free,
                           ValueRange{buffers[dealloc.getMemref()].allocated});
      return;
    }
    if (auto call = dyn_cast<func::CallOp>(op))
      return lowerCall(call);
    if (isa<func::ReturnOp>(op)) {
      LLVM::ReturnOp::create(b, loc, ValueRange{});
      return;
    }
    // A view: its source's pointers, and its own layout (a cast to
    // dynamic sizes keeps the source's).
    Buffer view = buffers[op.getOperand(0)];
    staticLayout(op.getResult(0).getType(), view);
    buffers[op.getResult(0)] = std::move(view);
  }

  /// The buffer from the runtime's allocator: an aligned one from its
  /// aligned allocation (the call of
  /// `finalize-memref-to-llvm{use-aligned-alloc}`), whose pointer the
  /// runtime's free takes as it is. A plain allocation's pointer rounded up
  /// in place was five more instructions for each of the thousands of
  /// buffers of a training step, in the code generator's largest function.
  void lowerAlloc(memref::AllocOp alloc) {
    Location loc = alloc.getLoc();
    MemRefType type = alloc.getType();
    int64_t bytes = type.getNumElements() * (type.getElementTypeBitWidth() / 8);
    int64_t alignment = alloc.getAlignment().value_or(0);
    Buffer &buffer = buffers[alloc.getResult()];
    staticLayout(type, buffer);
    auto call = alignment > 1
                    ? LLVM::CallOp::create(
                          b, loc, runtime.allocateAligned,
                          ValueRange{constant(alignment), constant(bytes)})
                    : LLVM::CallOp::create(b, loc, runtime.allocate,
                                           ValueRange{constant(bytes)});
    buffer.allocated = call.getResult();
    buffer.aligned = buffer.allocated;
  }

  void lowerCall(func::CallOp call) {
    LLVM::LLVMFuncOp callee = lowered.lookup(call.getCallee());
    bool bare = callee->hasAttr(nnc::cpu::kBarePtrAttr);
    SmallVector<Value> args;
    for (Value operand : call.getOperands()) {
      if (!isa<MemRefType>(operand.getType())) {
        args.push_back(scalars.lookup(operand));
        continue;
      }
      const Buffer &buffer = buffers[operand];
      if (bare) {
        args.push_back(buffer.aligned);
        continue;
      }
      args.append({buffer.allocated, buffer.aligned, constant(buffer.offset)});
      for (int64_t size : buffer.sizes)
        args.push_back(constant(size));
      for (int64_t stride : buffer.strides)
        args.push_back(constant(stride));
    }
    LLVM::CallOp::create(b, call.getLoc(), callee, args);
  }

  ModuleOp part;
  const llvm::StringMap<LLVM::LLVMFuncOp> &lowered;
  const Runtime &runtime;
  const KnownIndices &known;
  OpBuilder b;
  Type i64, ptr;
  DenseMap<Value, Buffer> buffers;
  IRMapping scalars;
  DenseMap<int64_t, Value> cache;
};

struct LowerEntryPointsPass
    : nnc::cpu::impl::LowerEntryPointsPassBase<LowerEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp part = getOperation();
    SmallVector<func::FuncOp> functions(part.getOps<func::FuncOp>());
    DenseSet<StringAttr> names;
    for (func::FuncOp f : functions)
      names.insert(f.getSymNameAttr());
    SmallVector<SmallVector<Type>> inputs;
    DenseMap<func::FuncOp, KnownIndices> known;
    bool anyBody = false, allocates = false, allocatesAligned = false,
         frees = false;
    for (func::FuncOp f : functions) {
      std::optional<SmallVector<Type>> lowered = loweredInputs(f);
      if (!lowered)
        return;
      inputs.push_back(std::move(*lowered));
      if (f.isDeclaration())
        continue;
      anyBody = true;
      if (!f->hasAttr(nnc::cpu::kBarePtrAttr) || !f.getBody().hasOneBlock())
        return;
      KnownIndices &indices = known[f];
      for (Operation &op : f.getBody().front()) {
        if (!foldIndices(op, indices) || !lowerableOp(op, names, indices))
          return;
        if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
          bool aligned = alloc.getAlignment().value_or(0) > 1;
          allocatesAligned |= aligned;
          allocates |= !aligned;
        }
        frees |= isa<memref::DeallocOp>(op);
      }
    }
    if (!anyBody)
      return;
    OpBuilder b(part.getContext());
    Runtime runtime;
    auto i64 = IntegerType::get(part.getContext(), 64);
    auto declare = [](FailureOr<LLVM::LLVMFuncOp> f, LLVM::LLVMFuncOp &into) {
      if (succeeded(f))
        into = *f;
      return succeeded(f);
    };
    if ((allocates && !declare(LLVM::lookupOrCreateGenericAllocFn(b, part, i64),
                               runtime.allocate)) ||
        (allocatesAligned &&
         !declare(LLVM::lookupOrCreateGenericAlignedAllocFn(b, part, i64),
                  runtime.allocateAligned)) ||
        (frees &&
         !declare(LLVM::lookupOrCreateGenericFreeFn(b, part), runtime.free)))
      return signalPassFailure();
    // Every signature first: a call may come before its callee.
    llvm::StringMap<LLVM::LLVMFuncOp> lowered;
    for (auto [f, params] : llvm::zip_equal(functions, inputs)) {
      b.setInsertionPoint(f);
      auto type = LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(part.getContext()), params);
      auto g = LLVM::LLVMFuncOp::create(b, f.getLoc(), f.getSymName(), type);
      for (NamedAttribute attr : f->getAttrs())
        if (!llvm::is_contained(
                {f.getSymNameAttrName(), f.getFunctionTypeAttrName(),
                 f.getArgAttrsAttrName(), f.getResAttrsAttrName()},
                attr.getName()))
          g->setAttr(attr.getName(), attr.getValue());
      lowered[f.getSymName()] = g;
    }
    for (func::FuncOp f : functions) {
      if (!f.isDeclaration())
        BodyLowering(part, lowered.lookup(f.getSymName()), lowered, runtime,
                     known[f])
            .run(f);
      f.erase();
    }
  }
};
} // namespace
