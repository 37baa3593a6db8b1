//===- Autodiff.cpp - reverse-mode differentiation of nn functions --------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Autodiff.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

FailureOr<SmallVector<Value>> nnc::inlineCalls(func::FuncOp func,
                                               StringRef tracked) {
  SmallVector<Value> trackedResults;
  auto module = func->getParentOfType<ModuleOp>();
  for (bool again = true; again;) {
    again = false;
    SmallVector<func::CallOp> calls(func.getOps<func::CallOp>());
    for (func::CallOp call : calls) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock())
        return call.emitOpError("calls a function nnc cannot inline");
      OpBuilder b(call);
      IRMapping map;
      Block &body = callee.getBody().front();
      map.map(body.getArguments(), call.getOperands());
      for (Operation &op : body.without_terminator())
        b.clone(op, map);
      SmallVector<Value> results;
      for (Value v : body.getTerminator()->getOperands())
        results.push_back(map.lookupOrDefault(v));
      if (call.getCallee() == tracked)
        trackedResults.append(results.begin(), results.end());
      call.replaceAllUsesWith(results);
      call.erase();
      again = true;
    }
  }
  return trackedResults;
}

FailureOr<llvm::StringMap<Value>>
nnc::buildParameterGradients(func::FuncOp func, Value loss, double lossScale) {
  Block &block = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockTerminator(&block);
  Location loc = loss.getLoc();
  auto lossType = cast<RankedTensorType>(loss.getType());

  // Gradients accumulate: a value used twice gets the sum of both.
  DenseMap<Value, Value> grads;
  auto accumulate = [&](Value v, Value g) {
    auto [it, inserted] = grads.try_emplace(v, g);
    if (!inserted)
      it->second = nn::AddOp::create(b, loc, it->second, g);
  };
  accumulate(loss, arith::ConstantOp::create(
                       b, loc,
                       DenseElementsAttr::get(
                           lossType, b.getFloatAttr(lossType.getElementType(),
                                                    lossScale))));

  llvm::StringMap<Value> paramGrads;
  SmallVector<Operation *> forward;
  for (Operation &op : block.without_terminator())
    forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward)) {
    // Constants carry no gradient; of several results (batch_norm_train's
    // statistics), only the first may reach the loss.
    if (op->getNumResults() == 0 || op->hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value extra : op->getResults().drop_front())
      if (grads.count(extra))
        return op->emitOpError("result #")
               << cast<OpResult>(extra).getResultNumber()
               << " is on the path to the loss but has no gradient";
    auto it = grads.find(op->getResult(0));
    if (it == grads.end())
      continue; // does not reach the loss
    Value dy = it->second;
    if (auto get = dyn_cast<nn::GetParamOp>(op)) {
      Value &slot = paramGrads[get.getName()];
      slot = slot ? nn::AddOp::create(b, loc, slot, dy).getResult() : dy;
      continue;
    }
    auto differentiable = dyn_cast<nn::DifferentiableOpInterface>(op);
    if (!differentiable)
      return op->emitOpError("is on the path to the loss but has no gradient");
    SmallVector<Value> operandGrads;
    if (failed(differentiable.buildGradients(b, dy, operandGrads)))
      return failure();
    for (auto [operand, g] : llvm::zip(op->getOperands(), operandGrads))
      if (g)
        accumulate(operand, g);
  }
  return paramGrads;
}
