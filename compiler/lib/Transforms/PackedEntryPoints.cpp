//===- PackedEntryPoints.cpp - the nnc-packed-entry-points pass -----------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace nnc {
#define GEN_PASS_DEF_PACKEDENTRYPOINTSPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kCInterfacePrefix = "_mlir_ciface_";

/// Adds `_mlir_ciface_<name>(ptr, ..., ptr)` for `f`, which takes its
/// buffers as bare pointers (kBareCInterfaceAttr): each argument points at
/// a memref descriptor, whose aligned pointer moved by its offset is the
/// buffer's bare pointer.
void addBareCInterface(LLVM::LLVMFuncOp f, ArrayAttr elements) {
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
  LLVM::CallOp::create(b, loc, f, args);
  LLVM::ReturnOp::create(b, loc, ValueRange());
}

struct PackedEntryPointsPass
    : nnc::impl::PackedEntryPointsPassBase<PackedEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    for (auto f : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>()))
      if (auto elements =
              f->getAttrOfType<ArrayAttr>(nnc::kBareCInterfaceAttr)) {
        f->removeAttr(nnc::kBareCInterfaceAttr);
        if (!f.isExternal())
          addBareCInterface(f, elements);
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
