//===- TrainingForms.cpp - layers in their training form ------------------===//
//
// Part of nnc. batch_norm normalises with the batch's statistics in
// training and feeds them to the moving averages TensorFlow keeps (the
// variance with Bessel's correction); dropout draws its mask.
//
//===----------------------------------------------------------------------===//

#include "TrainingForms.h"

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace {

/// decay * moving + (1 - decay) * correction * value, appended to `out`,
/// when `moving` reads a parameter.
LogicalResult updateMovingAverage(OpBuilder &b, nn::BatchNormOp bn,
                                  Value moving, Value value, double correction,
                                  SmallVectorImpl<nnc::MovingStatistic> &out) {
  auto param = moving.getDefiningOp<nn::GetParamOp>();
  if (!param)
    return bn.emitOpError("needs its moving statistics to be parameters "
                          "to train");
  Location loc = bn.getLoc();
  Value average =
      nn::GetParamOp::create(b, loc, moving.getType(), param.getName());
  Value updated = nn::MovingAverageOp::create(b, loc, moving.getType(), average,
                                              value, bn.getDecayAttr(),
                                              b.getF64FloatAttr(correction));
  out.push_back({param.getNameAttr().getAttr(), updated});
  return success();
}

/// Replaces `op`'s result by `value`, and `follow` when it is that result.
void replace(Operation *op, Value value, Value &follow) {
  if (follow == op->getResult(0))
    follow = value;
  op->getResult(0).replaceAllUsesWith(value);
  op->erase();
}

LogicalResult
trainBatchNorm(nn::BatchNormOp bn, OpBuilder &atEnd, Value &follow,
               SmallVectorImpl<nnc::MovingStatistic> *movingStatistics) {
  OpBuilder b(bn);
  Type vector = bn.getScale().getType();
  auto train = nn::BatchNormTrainOp::create(
      b, bn.getLoc(), TypeRange{bn.getType(), vector, vector}, bn.getInput(),
      bn.getScale(), bn.getOffset(), bn.getEpsilonAttr());
  if (movingStatistics) {
    auto x = cast<ShapedType>(bn.getInput().getType());
    double n = double(x.getNumElements() / x.getShape().back());
    if (failed(updateMovingAverage(atEnd, bn, bn.getMean(), train.getMean(),
                                   1.0, *movingStatistics)) ||
        failed(updateMovingAverage(
            atEnd, bn, bn.getVariance(), train.getVariance(),
            n / std::max(n - 1.0, 1.0), *movingStatistics)))
      return failure();
  }
  replace(bn, train.getOutput(), follow);
  return success();
}

void trainDropout(nn::DropoutOp dropout, Value step, Value &follow) {
  OpBuilder b(dropout);
  Value y = nn::DropoutTrainOp::create(
      b, dropout.getLoc(), dropout.getType(), dropout.getInput(), step,
      dropout.getRateAttr(), dropout.getSeedAttr());
  replace(dropout, y, follow);
}

} // namespace

bool nnc::needsStep(func::FuncOp func) {
  return !func.getOps<nn::DropoutOp>().empty();
}

LogicalResult
nnc::useTrainingForms(func::FuncOp func, Value step, Value &follow,
                      SmallVectorImpl<MovingStatistic> *movingStatistics) {
  Block &block = func.getBody().front();
  OpBuilder atEnd = OpBuilder::atBlockTerminator(&block);
  for (auto bn : llvm::make_early_inc_range(block.getOps<nn::BatchNormOp>()))
    if (failed(trainBatchNorm(bn, atEnd, follow, movingStatistics)))
      return failure();
  for (auto d : llvm::make_early_inc_range(block.getOps<nn::DropoutOp>())) {
    if (!step)
      return d.emitOpError("needs the global step to train");
    trainDropout(d, step, follow);
  }
  return success();
}
