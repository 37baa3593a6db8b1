//===- PackedEntryPoints.cpp - the nnc-packed-entry-points pass -----------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace nnc {
#define GEN_PASS_DEF_PACKEDENTRYPOINTSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kCInterfacePrefix = "_mlir_ciface_";

/// Moves the body of `f`, a function of one block that only `call` calls,
/// into the caller in place of the call, and erases `f`.
void inlineInto(LLVM::CallOp call, LLVM::LLVMFuncOp f) {
  Block &body = f.getBody().front();
  for (auto [arg, value] :
       llvm::zip_equal(body.getArguments(), call.getArgOperands()))
    arg.replaceAllUsesWith(value);
  Operation *wrapperReturn = call->getNextNode();
  call->getBlock()->getOperations().splice(call->getIterator(),
                                           body.getOperations());
  call.erase();
  wrapperReturn->erase();
  f.erase();
}

/// Adds `_mlir_ciface_<name>(ptr, ..., ptr)` for `f`, which takes its
/// buffers as bare pointers (kBareCInterfaceAttr): each argument points at
/// a memref descriptor, whose aligned pointer moved by its offset is the
/// buffer's bare pointer. When nothing else calls `f` (`onlyCall`: an entry
/// point no other calls, and of one block, as nnc-cpu-lower-entry-points
/// makes them), its body moves into the C interface: a model's entry
/// points take hundreds of buffers, most of them on the stack, and each
/// function that takes them costs the code generator about 0.1 G
/// instructions for them (SelectionDAG's scheduling of its entry block,
/// quadratic in their number), a call passing them more.
void addBareCInterface(LLVM::LLVMFuncOp f, ArrayAttr elements, bool onlyCall) {
  MLIRContext *ctx = f.getContext();
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  // The fields every descriptor starts with: allocated, aligned, offset.
  auto head = LLVM::LLVMStructType::getLiteral(ctx, {ptr, ptr, i64});
  OpBuilder b(f);
  Location loc = f.getLoc();
  SmallVector<Type> params(elements.size(), ptr);
  auto wrapper = LLVM::LLVMFuncOp::create(
      b, loc, (kCInterfacePrefix + f.getName()).str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params));
  // Compiled as the entry point is (an optnone sequencer's wrapper of
  // hundreds of loads and arguments took seconds of Inception-v3's code
  // generation at -O3).
  if (std::optional<ArrayAttr> passthrough = f.getPassthrough())
    wrapper.setPassthroughAttr(*passthrough);
  Block *body = wrapper.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  SmallVector<Value> args;
  for (auto [i, element] : llvm::enumerate(elements)) {
    Value descriptor = body->getArgument(i);
    auto field = [&](int32_t index, Type type) -> Value {
      Value at = LLVM::GEPOp::create(b, loc, ptr, head, descriptor,
                                     ArrayRef<LLVM::GEPArg>{0, index});
      return LLVM::LoadOp::create(b, loc, type, at);
    };
    Value aligned = field(1, ptr), offset = field(2, i64);
    args.push_back(
        LLVM::GEPOp::create(b, loc, ptr, cast<TypeAttr>(element).getValue(),
                            aligned, ArrayRef<LLVM::GEPArg>{offset}));
  }
  auto call = LLVM::CallOp::create(b, loc, f, args);
  LLVM::ReturnOp::create(b, loc, ValueRange());
  if (onlyCall)
    inlineInto(call, f);
}

struct PackedEntryPointsPass
    : nnc::impl::PackedEntryPointsPassBase<PackedEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    // The functions something calls: the entry points the others call keep
    // a body of their own.
    DenseSet<StringAttr> called;
    module.walk([&](LLVM::CallOp call) {
      if (FlatSymbolRefAttr callee = call.getCalleeAttr())
        called.insert(callee.getAttr());
    });
    for (auto f : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>()))
      if (auto elements =
              f->getAttrOfType<ArrayAttr>(nnc::kBareCInterfaceAttr)) {
        f->removeAttr(nnc::kBareCInterfaceAttr);
        if (!f.isExternal())
          addBareCInterface(f, elements,
                            f.getBody().hasOneBlock() &&
                                !called.contains(f.getSymNameAttr()));
      }
    SmallVector<LLVM::LLVMFuncOp> entries;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func.getName().starts_with(kCInterfacePrefix) && !func.isExternal())
        entries.push_back(func);
    for (LLVM::LLVMFuncOp entry : entries) {
      LLVM::LLVMFunctionType type = entry.getFunctionType();
      if (!isa<LLVM::LLVMVoidType>(type.getReturnType()) ||
          llvm::any_of(type.getParams(), [&](Type t) { return t != ptr; })) {
        entry.emitOpError("is not a descriptor-pointer C interface");
        return signalPassFailure();
      }
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      Location loc = entry.getLoc();
      std::string name =
          ("nnc_" + entry.getName().drop_front(kCInterfacePrefix.size())).str();
      auto packed = LLVM::LLVMFuncOp::create(
          b, loc, name,
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr}));
      if (std::optional<ArrayAttr> passthrough = entry.getPassthrough())
        packed.setPassthroughAttr(*passthrough);
      Block *body = packed.addEntryBlock(b);
      b.setInsertionPointToStart(body);
      SmallVector<Value> args;
      for (unsigned i = 0; i < type.getNumParams(); ++i) {
        Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, body->getArgument(0),
                                         ArrayRef<LLVM::GEPArg>{int32_t(i)});
        args.push_back(LLVM::LoadOp::create(b, loc, ptr, slot));
      }
      LLVM::CallOp::create(b, loc, entry, args);
      LLVM::ReturnOp::create(b, loc, ValueRange());
    }
  }
};
} // namespace
