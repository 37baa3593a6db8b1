//===- InPlaceUpdates.cpp - the nnc-in-place-updates pass -----------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"

namespace nnc {
#define GEN_PASS_DEF_INPLACEUPDATESPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
struct InPlaceUpdatesPass
    : nnc::impl::InPlaceUpdatesPassBase<InPlaceUpdatesPass> {
  /// Per function, its update results and, for each, the argument of the
  /// parameter it updates.
  struct Updates {
    llvm::BitVector drop;
    llvm::DenseMap<unsigned, unsigned> param;
  };

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::MapVector<Operation *, Updates> updates;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      llvm::StringMap<unsigned> params;
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (auto name = nn::getArgParam(func, i))
          params[name.getValue()] = i;
      Updates u;
      u.drop.resize(func.getNumResults());
      for (unsigned i = 0; i < func.getNumResults(); ++i) {
        auto name = nn::getResultUpdates(func, i);
        if (!name)
          continue;
        auto at = params.find(name.getValue());
        if (at == params.end() ||
            !isa<MemRefType>(func.getArgument(at->second).getType())) {
          func.emitOpError("updates '")
              << name.getValue() << "', which it does not take as a buffer";
          return signalPassFailure();
        }
        u.drop.set(i);
        u.param[i] = at->second;
      }
      if (u.drop.any())
        updates[func] = std::move(u);
    }
    // A call loses those results: what used one uses the buffer the call
    // passed for the parameter, which holds the value once it returns.
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) { calls.push_back(call); });
    for (func::CallOp call : calls) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      auto it = callee ? updates.find(callee) : updates.end();
      if (it == updates.end())
        continue;
      const Updates &u = it->second;
      SmallVector<Type> types;
      for (unsigned i = 0; i < call.getNumResults(); ++i)
        if (!u.drop.test(i))
          types.push_back(call.getResult(i).getType());
      OpBuilder b(call);
      auto kept = func::CallOp::create(b, call.getLoc(), call.getCallee(),
                                       types, call.getOperands());
      unsigned next = 0;
      for (unsigned i = 0; i < call.getNumResults(); ++i)
        call.getResult(i).replaceAllUsesWith(
            u.drop.test(i) ? call.getOperand(u.param.lookup(i))
                           : kept.getResult(next++));
      call.erase();
    }
    // The function's own value goes to the buffer unless it is the buffer.
    for (auto &[op, u] : updates) {
      auto func = cast<func::FuncOp>(op);
      Operation *ret = func.getBody().back().getTerminator();
      for (auto [result, arg] : u.param) {
        Value value = ret->getOperand(result), param = func.getArgument(arg);
        if (value != param) {
          OpBuilder b(ret);
          memref::CopyOp::create(b, ret->getLoc(), value, param);
        }
      }
      ret->eraseOperands(u.drop);
      if (failed(func.eraseResults(u.drop)))
        return signalPassFailure();
    }
  }
};
} // namespace
