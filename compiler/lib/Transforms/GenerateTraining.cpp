//===- GenerateTraining.cpp - the nn-generate-training pass ---------------===//
//
// Part of nnc. forward_backward, eval and train_step, derived in the nn
// dialect so every target shares them.
//
//===----------------------------------------------------------------------===//

#include "TrainingForms.h"
#include "nnc/Transforms/Autodiff.h"
#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace nnc {
#define GEN_PASS_DEF_GENERATETRAININGPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;

namespace {
/// A copy of @loss named `name`, with @forward inlined. `logits` is what
/// @forward returned, when it was called once with one output. The layers
/// @forward taps (its named results, after its outputs) are returned by the
/// copy after the loss, so they follow the layers' replacements, with their
/// names in `tapNames`.
struct LossCopy {
  func::FuncOp func;
  Value loss, logits, labels;
  SmallVector<std::string> tapNames;
};

/// The tapped layers of @forward: its results that carry a name.
SmallVector<std::string> forwardTaps(ModuleOp module, unsigned &numOutputs) {
  SmallVector<std::string> names;
  numOutputs = 0;
  auto forward = module.lookupSymbol<func::FuncOp>("forward");
  if (!forward)
    return names;
  for (unsigned i = 0; i < forward.getNumResults(); ++i) {
    if (auto name = nn::getResultName(forward, i))
      names.push_back(name.str());
    else if (names.empty())
      ++numOutputs;
  }
  return names;
}

FailureOr<LossCopy> copyLoss(ModuleOp module, func::FuncOp loss,
                             StringRef name) {
  if (module.lookupSymbol(name))
    return loss.emitOpError("cannot derive @") << name << ": the symbol exists";
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto copy = cast<func::FuncOp>(b.clone(*loss));
  copy.setSymName(name);
  FailureOr<SmallVector<Value>> forward = nnc::inlineCalls(copy, "forward");
  if (failed(forward))
    return failure();
  unsigned numOutputs;
  SmallVector<std::string> taps = forwardTaps(module, numOutputs);
  Operation *ret = copy.getBody().front().getTerminator();
  LossCopy out{copy,
               ret->getOperand(0),
               numOutputs == 1 && forward->size() == numOutputs + taps.size()
                   ? (*forward)[0]
                   : Value(),
               Value(),
               {}};
  if (forward->size() == numOutputs + taps.size()) {
    ret->insertOperands(1, ArrayRef(*forward).drop_front(numOutputs));
    out.tapNames = std::move(taps);
  }
  for (unsigned i = 0; i < copy.getNumArguments(); ++i)
    if (nn::getArgClasses(copy, i))
      out.labels = copy.getArgument(i);
  return out;
}

/// The name of a parameter's gradient among an entry point's arguments.
std::string gradientName(nn::ParameterOp p) {
  return (p.getSymName() + ".grad").str();
}

/// `grads` as results named `<param>.grad`, in the order of `trainable`.
void appendGradients(ArrayRef<nn::ParameterOp> trainable, ArrayRef<Value> grads,
                     SmallVector<Value> &results,
                     SmallVector<std::string> &names) {
  for (auto [p, g] : llvm::zip(trainable, grads)) {
    results.push_back(g);
    names.push_back(gradientName(p));
  }
}

/// The number of correctly classified rows, when the model classifies.
Value correctCount(OpBuilder &b, const LossCopy &c) {
  if (!c.logits || !c.labels ||
      cast<ShapedType>(c.logits.getType()).getRank() != 2 ||
      cast<ShapedType>(c.labels.getType()).getRank() != 1)
    return {};
  return nn::CorrectCountOp::create(b, c.loss.getLoc(),
                                    RankedTensorType::get({}, b.getI32Type()),
                                    c.logits, c.labels);
}

void setResults(func::FuncOp func, ArrayRef<Value> values,
                ArrayRef<std::string> names) {
  Operation *ret = func.getBody().front().getTerminator();
  ret->setOperands(values);
  SmallVector<Type> types;
  for (Value v : values)
    types.push_back(v.getType());
  func.setType(
      FunctionType::get(func.getContext(), func.getArgumentTypes(), types));
  func.setAllResultAttrs(SmallVector<DictionaryAttr>(values.size()));
  for (auto [i, name] : llvm::enumerate(names))
    nn::setResultName(func, i, name);
}

Value zerosLike(OpBuilder &b, Location loc, Type type) {
  auto t = cast<RankedTensorType>(type);
  return arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(t, b.getFloatAttr(t.getElementType(), 0.0)));
}

struct GenerateTrainingPass
    : nnc::impl::GenerateTrainingPassBase<GenerateTrainingPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto loss = module.lookupSymbol<func::FuncOp>("loss");
    if (!loss || loss.isExternal())
      return;
    SmallVector<nn::ParameterOp> trainable;
    for (auto p : module.getOps<nn::ParameterOp>())
      if (!p.getNonTrainable())
        trainable.push_back(p);

    // A model that cannot be differentiated (a layer without a gradient)
    // still compiles for inference: the reason becomes a warning and no
    // training function is added.
    std::optional<std::pair<Location, std::string>> reason;
    LogicalResult built = success();
    {
      ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
        if (d.getSeverity() != DiagnosticSeverity::Error || reason)
          return failure();
        reason.emplace(d.getLocation(), d.str());
        return success();
      });
      auto optimizers = module.getOps<nn::OptimizerOp>();
      built =
          success(succeeded(buildForwardBackward(module, loss, trainable)) &&
                  succeeded(buildEval(module, loss)) &&
                  (optimizers.empty() ||
                   (succeeded(buildTrainStep(module, loss, trainable,
                                             *optimizers.begin())) &&
                    (!dataParallel ||
                     succeeded(buildDataParallelStep(module, loss, trainable,
                                                     *optimizers.begin()))))));
    }
    if (succeeded(built))
      return;
    for (StringRef name : {"forward_backward", "eval", "train_step",
                           "gradients", "apply_update"})
      if (Operation *f = module.lookupSymbol(name))
        f->erase();
    if (!reason)
      return signalPassFailure();
    emitWarning(reason->first)
        << reason->second
        << "; the model is compiled without its training functions";
  }

  /// Gradients of every trainable parameter, zeros for those the loss does
  /// not reach.
  FailureOr<SmallVector<Value>>
  gradients(OpBuilder &b, const LossCopy &c,
            MutableArrayRef<nn::ParameterOp> trainable) {
    auto grads = nnc::buildParameterGradients(c.func, c.loss, lossScale);
    if (failed(grads))
      return failure();
    SmallVector<Value> out;
    Value one;
    for (nn::ParameterOp p : trainable) {
      Value g = grads->lookup(p.getSymName());
      if (g && lossScale != 1.0) {
        // Back from the scaled loss's gradient: g * 1 * (1 / S).
        if (!one)
          one = arith::ConstantOp::create(
              b, c.loss.getLoc(),
              DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                     b.getF32FloatAttr(1.0f)));
        g = nn::ScaleOp::create(b, g.getLoc(), g.getType(), g, one,
                                b.getF64FloatAttr(1.0 / lossScale));
      }
      out.push_back(g ? g : zerosLike(b, c.loss.getLoc(), p.getType()));
    }
    return out;
  }

  LogicalResult
  buildForwardBackward(ModuleOp module, func::FuncOp loss,
                       MutableArrayRef<nn::ParameterOp> trainable) {
    FailureOr<LossCopy> c = copyLoss(module, loss, "forward_backward");
    if (failed(c))
      return failure();
    Value step = nnc::needsStep(c->func) ? readStep(module, *c) : Value();
    if (failed(nnc::useTrainingForms(c->func, step, c->logits,
                                     /*updateMovingStatistics=*/false)))
      return failure();
    OpBuilder b = OpBuilder::atBlockTerminator(&c->func.getBody().front());
    FailureOr<SmallVector<Value>> grads = gradients(b, *c, trainable);
    if (failed(grads))
      return failure();
    SmallVector<Value> results = {c->loss};
    SmallVector<std::string> names = {"loss"};
    appendGradients(trainable, *grads, results, names);
    setResults(c->func, results, names);
    return success();
  }

  LogicalResult buildEval(ModuleOp module, func::FuncOp loss) {
    FailureOr<LossCopy> c = copyLoss(module, loss, "eval");
    if (failed(c))
      return failure();
    OpBuilder b = OpBuilder::atBlockTerminator(&c->func.getBody().front());
    Value correct = correctCount(b, *c);
    if (!correct) {
      c->func.erase(); // nothing to evaluate beyond @loss
      return success();
    }
    setResults(c->func, {c->loss, correct}, {"loss", "correct"});
    return success();
  }

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
    if (auto s = dyn_cast_or_null<nn::PiecewiseConstantAttr>(
            opt.getScheduleAttr())) {
      boundaries = s.getBoundaries();
      values = s.getValues();
    }
    return nn::LearningRateOp::create(
        b, loc, RankedTensorType::get({}, b.getF32Type()), step,
        opt.getLearningRateAttr(), decay, decaySteps, staircase, boundaries,
        values, opt.getWarmupStepsAttr());
  }

  /// The global step, an i64 counter, read at the start of the copy.
  Value readStep(ModuleOp module, const LossCopy &c) {
    func::FuncOp func = c.func;
    auto b = OpBuilder::atBlockBegin(&func.getBody().front());
    return readStep(b, module, c.loss.getLoc());
  }
  Value readStep(OpBuilder &b, ModuleOp module, Location loc) {
    auto scalar =
        RankedTensorType::get({}, IntegerType::get(&getContext(), 64));
    auto param = declareState(module, "global_step", scalar);
    return nn::GetParamOp::create(b, loc, scalar, param.getSymName());
  }

  /// The part of a training step before the update, in a copy of @loss
  /// named `name`: the training forms of the layers (moving statistics
  /// updated), the gradients, and the correct count taken before any
  /// parameter changes.
  struct StepCore {
    LossCopy copy;
    Value step, correct;
    SmallVector<Value> grads;

    /// The step's first results: the loss, and the correct count when the
    /// model classifies.
    void lossAndCorrect(SmallVector<Value> &results,
                        SmallVector<std::string> &names) const {
      results.push_back(copy.loss);
      names.push_back("loss");
      if (correct) {
        results.push_back(correct);
        names.push_back("correct");
      }
    }
  };
  FailureOr<StepCore> buildStepCore(ModuleOp module, func::FuncOp loss,
                                    MutableArrayRef<nn::ParameterOp> trainable,
                                    StringRef name) {
    FailureOr<LossCopy> c = copyLoss(module, loss, name);
    if (failed(c))
      return failure();
    Value step = readStep(module, *c);
    if (failed(nnc::useTrainingForms(c->func, step, c->logits,
                                     /*updateMovingStatistics=*/true)))
      return failure();
    OpBuilder b = OpBuilder::atBlockTerminator(&c->func.getBody().front());
    FailureOr<SmallVector<Value>> grads = gradients(b, *c, trainable);
    if (failed(grads))
      return failure();
    Value correct = correctCount(b, *c);
    return StepCore{*c, step, correct, std::move(*grads)};
  }

  /// Each trainable parameter updated in place from its gradient by the
  /// optimizer, at the rate of `step`, which then counts up.
  void applyUpdates(OpBuilder &b, ModuleOp module,
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

  LogicalResult buildTrainStep(ModuleOp module, func::FuncOp loss,
                               MutableArrayRef<nn::ParameterOp> trainable,
                               nn::OptimizerOp opt) {
    FailureOr<StepCore> core =
        buildStepCore(module, loss, trainable, "train_step");
    if (failed(core))
      return failure();
    LossCopy &c = core->copy;
    OpBuilder b = OpBuilder::atBlockTerminator(&c.func.getBody().front());
    applyUpdates(b, module, trainable, core->grads, core->step, opt);

    SmallVector<Value> results;
    SmallVector<std::string> names;
    core->lossAndCorrect(results, names);
    // The tapped layers as this step computed them (training forms).
    Operation *ret = c.func.getBody().front().getTerminator();
    for (auto [i, name] : llvm::enumerate(c.tapNames)) {
      results.push_back(ret->getOperand(1 + i));
      names.push_back(name);
    }
    setResults(c.func, results, names);
    return success();
  }

  /// train_step in two halves for data-parallel training, where the
  /// gradients are summed across processes in between:
  /// @gradients(inputs, labels) -> (loss, correct, <param>.grad...) updates
  /// the moving statistics but no parameter, and
  /// @apply_update(<param>.grad..., grad_scale) updates the parameters from
  /// the gradients times `grad_scale` and counts the step.
  LogicalResult
  buildDataParallelStep(ModuleOp module, func::FuncOp loss,
                        MutableArrayRef<nn::ParameterOp> trainable,
                        nn::OptimizerOp opt) {
    FailureOr<StepCore> core =
        buildStepCore(module, loss, trainable, "gradients");
    if (failed(core))
      return failure();
    SmallVector<Value> results;
    SmallVector<std::string> names;
    core->lossAndCorrect(results, names);
    appendGradients(trainable, core->grads, results, names);
    setResults(core->copy.func, results, names);

    if (module.lookupSymbol("apply_update"))
      return loss.emitOpError("cannot derive @apply_update: the symbol exists");
    Location loc = opt.getLoc();
    SmallVector<Type> argTypes;
    for (nn::ParameterOp p : trainable)
      argTypes.push_back(p.getType());
    auto scalar = RankedTensorType::get({}, Float32Type::get(&getContext()));
    argTypes.push_back(scalar);
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto apply =
        func::FuncOp::create(mb, loc, "apply_update",
                             FunctionType::get(&getContext(), argTypes, {}));
    Block *body = apply.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(body);
    Value scale = body->getArguments().back();
    SmallVector<Value> grads;
    for (auto [i, p] : llvm::enumerate(trainable)) {
      nn::setArgName(apply, i, gradientName(p));
      Value g = body->getArgument(i);
      grads.push_back(nn::ScaleOp::create(b, loc, g.getType(), g, scale,
                                          b.getF64FloatAttr(1.0)));
    }
    nn::setArgName(apply, trainable.size(), "grad_scale");
    applyUpdates(b, module, trainable, grads, readStep(b, module, loc), opt);
    func::ReturnOp::create(b, loc);
    return success();
  }
};
} // namespace
