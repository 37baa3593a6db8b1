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

struct PackedEntryPointsPass
    : nnc::impl::PackedEntryPointsPassBase<PackedEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
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
