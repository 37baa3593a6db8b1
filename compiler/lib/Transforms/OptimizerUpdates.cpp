//===- OptimizerUpdates.cpp - the optimizer's updates in nn ---------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "OptimizerUpdates.h"

using namespace mlir;

namespace {
/// A non-trainable state parameter, zero-initialised, declared after the
/// model's own.
nn::ParameterOp declareState(ModuleOp module, StringRef name, Type type) {
  if (auto p = module.lookupSymbol<nn::ParameterOp>(name))
    return p;
  OpBuilder b(module.getContext());
  SmallVector<nn::ParameterOp> params(module.getOps<nn::ParameterOp>());
  if (params.empty())
    b.setInsertionPointToStart(module.getBody());
  else
    b.setInsertionPointAfter(params.back());
  return nn::ParameterOp::create(
      b, module.getLoc(), b.getStringAttr(name), TypeAttr::get(type),
      nn::ZerosInitAttr::get(module.getContext()), b.getUnitAttr());
}

/// The optimizer's learning rate at `step`.
Value learningRate(OpBuilder &b, Location loc, Value step,
                   nn::OptimizerOp opt) {
  FloatAttr decay;
  IntegerAttr decaySteps;
  UnitAttr staircase;
  DenseI64ArrayAttr boundaries;
  DenseF64ArrayAttr values;
  if (auto s =
          dyn_cast_or_null<nn::ExponentialDecayAttr>(opt.getScheduleAttr())) {
    decay = b.getF64FloatAttr(s.getRate().convertToDouble());
    decaySteps = b.getI64IntegerAttr(s.getSteps());
    if (s.getStaircase().getValue())
      staircase = b.getUnitAttr();
  }
  if (auto s =
          dyn_cast_or_null<nn::PiecewiseConstantAttr>(opt.getScheduleAttr())) {
    boundaries = s.getBoundaries();
    values = s.getValues();
  }
  return nn::LearningRateOp::create(
      b, loc, RankedTensorType::get({}, b.getF32Type()), step,
      opt.getLearningRateAttr(), decay, decaySteps, staircase, boundaries,
      values, opt.getWarmupStepsAttr());
}
} // namespace

Value nnc::readStep(OpBuilder &b, ModuleOp module, Location loc) {
  auto scalar =
      RankedTensorType::get({}, IntegerType::get(module.getContext(), 64));
  auto param = declareState(module, "global_step", scalar);
  return nn::GetParamOp::create(b, loc, scalar, param.getSymName());
}

void nnc::applyUpdates(OpBuilder &b, ModuleOp module,
                       MutableArrayRef<nn::ParameterOp> trainable,
                       ArrayRef<Value> grads, Value step, nn::OptimizerOp opt) {
  Location loc = opt.getLoc();
  auto stepParam = step.getDefiningOp<nn::GetParamOp>();
  Value lr = learningRate(b, loc, step, opt);
  bool adam = opt.getKind() == nn::OptimizerKind::Adam;
  double momentum = opt.getMomentum().convertToDouble();
  for (auto [p, g] : llvm::zip(trainable, grads)) {
    Type type = p.getType();
    StringRef name = p.getSymName();
    Value w = nn::GetParamOp::create(b, loc, type, name);
    auto state = [&](StringRef suffix) {
      auto s = declareState(module, (name + "." + suffix).str(), type);
      return std::make_pair(
          nn::GetParamOp::create(b, loc, type, s.getSymName()).getResult(),
          s.getSymName());
    };
    if (adam) {
      auto [m, mName] = state("adam_m");
      auto [v, vName] = state("adam_v");
      auto update = nn::AdamUpdateOp::create(
          b, loc, TypeRange{type, type, type}, w, g, m, v, lr, step,
          opt.getBeta1Attr(), opt.getBeta2Attr(), opt.getEpsilonAttr(),
          opt.getWeightDecayAttr());
      nn::AssignParamOp::create(b, loc, name, update.getNewParam());
      nn::AssignParamOp::create(b, loc, mName, update.getNewM());
      nn::AssignParamOp::create(b, loc, vName, update.getNewV());
    } else if (momentum != 0.0) {
      auto [v, vName] = state("momentum");
      auto update = nn::SGDUpdateOp::create(
          b, loc, type, type, w, g, lr, v, opt.getMomentumAttr(),
          opt.getNesterov() ? b.getUnitAttr() : UnitAttr(),
          opt.getWeightDecayAttr());
      nn::AssignParamOp::create(b, loc, name, update.getNewParam());
      nn::AssignParamOp::create(b, loc, vName, update.getNewVelocity());
    } else {
      auto update = nn::SGDUpdateOp::create(
          b, loc, type, Type(), w, g, lr, Value(), opt.getMomentumAttr(),
          UnitAttr(), opt.getWeightDecayAttr());
      nn::AssignParamOp::create(b, loc, name, update.getNewParam());
    }
  }
  nn::AssignParamOp::create(b, loc, stepParam.getName(),
                            nn::IncrementOp::create(b, loc, step));
}
