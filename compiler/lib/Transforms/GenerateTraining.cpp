//===- GenerateTraining.cpp - the nn-generate-training pass ---------------===//
//
// Part of nnc. forward_backward, eval and train_step, derived in the nn
// dialect so every target shares them.
//
//===----------------------------------------------------------------------===//

#include "Flops.h"
#include "OptimizerUpdates.h"
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
/// The private function that the training entry points call.
constexpr StringLiteral kTrainingPassName = "training_pass";

/// A copy of @loss named `name`, with @forward inlined or, for a function
/// that keeps the inference forms, still called. `logits` is what @forward
/// returned, when it was called once with one output. The layers
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

/// What the calls of @forward in `func` return, in order.
SmallVector<Value> forwardResults(func::FuncOp func) {
  SmallVector<Value> results;
  for (auto call : func.getOps<func::CallOp>())
    if (call.getCallee() == "forward")
      llvm::append_range(results, call.getResults());
  return results;
}

/// Fails, at @loss, when the module already has a symbol `name`.
LogicalResult checkNameFree(ModuleOp module, func::FuncOp loss,
                            StringRef name) {
  if (module.lookupSymbol(name))
    return loss.emitOpError("cannot derive @") << name << ": the symbol exists";
  return success();
}

FailureOr<LossCopy> copyLoss(ModuleOp module, func::FuncOp loss, StringRef name,
                             bool inlineForward = true) {
  if (failed(checkNameFree(module, loss, name)))
    return failure();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto copy = cast<func::FuncOp>(b.clone(*loss));
  copy.setSymName(name);
  FailureOr<SmallVector<Value>> forward =
      inlineForward ? nnc::inlineCalls(copy, "forward") : forwardResults(copy);
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

/// A copy of @loss with its layers in their training forms and every
/// trainable parameter's gradient, before anything is assigned: the step
/// (read when the layers or the optimizer need it), the correct count when
/// the model classifies, and the batch norms' new moving averages when
/// they were asked for.
struct Backward {
  LossCopy copy;
  Value step, correct;
  SmallVector<Value> grads;
  SmallVector<nnc::MovingStatistic> moving;
};

/// The forward and backward pass that forward_backward and gradients share,
/// derived once: a private function returning the loss, the correct count,
/// the gradients and the new moving averages, which it does not assign.
/// Both call it, so the stages after this one see that graph once, not
/// once per entry point. train_step calls it too, or keeps a copy of its
/// own (fuseUpdates), where each gradient's contraction applies the
/// optimizer's update as it finishes (nnc-cpu-contractions' epilogue)
/// instead of writing the gradient out.
struct TrainingPass {
  func::FuncOp func;
  bool hasCorrect = false;
  unsigned numGrads = 0;
  SmallVector<StringAttr> moving;

  unsigned gradsStart() const { return hasCorrect ? 2 : 1; }
  unsigned movingStart() const { return gradsStart() + numGrads; }
};

/// The first results of a training function: the loss, and the correct
/// count when the model classifies (`correct` is set).
void appendLossAndCorrect(Value loss, Value correct,
                          SmallVector<Value> &results,
                          SmallVector<std::string> &names) {
  results.push_back(loss);
  names.push_back("loss");
  if (correct) {
    results.push_back(correct);
    names.push_back("correct");
  }
}

/// The call's gradients, in the order of the trainable parameters.
SmallVector<Value> gradientsOf(const TrainingPass &p, func::CallOp call) {
  ResultRange grads = call.getResults().slice(p.gradsStart(), p.numGrads);
  return SmallVector<Value>(grads.begin(), grads.end());
}

/// Bytes that a gradient's round trip through memory moves per element:
/// written out by the training pass, read back by the update.
constexpr int64_t kRoundTripBytes = 8;
/// FLOPs a core does in the time it moves a byte to or from memory: about
/// 9 for the AMD EPYC of docs/bench.md (180 GFLOP/s, 20 GB/s on two
/// cores), 14 for the Intel Xeon.
constexpr int64_t kFlopsPerByte = 10;
/// The share of a training step, in percent, that train_step's own fused
/// copy of the training pass must save to be worth compiling.
constexpr int64_t kWorthPercent = 1;

/// Whether train_step should have its own copy of the training pass, with
/// the updates fused into the gradients' contractions, rather than call
/// it: when the gradients' round trip through memory would cost at least
/// kWorthPercent of the step (estimated as three times @loss's FLOPs), when
/// that is unknown, and when the step returns tapped layers, which the
/// training pass does not.
bool fuseUpdates(ModuleOp module, func::FuncOp loss,
                 ArrayRef<nn::ParameterOp> trainable) {
  unsigned numOutputs;
  if (!forwardTaps(module, numOutputs).empty())
    return true;
  nnc::FlopCounts known;
  std::optional<int64_t> flops = nnc::countFlops(loss, module, known);
  if (!flops)
    return true;
  int64_t elements = 0;
  for (nn::ParameterOp p : trainable)
    elements += cast<ShapedType>(p.getType()).getNumElements();
  return elements * kRoundTripBytes * kFlopsPerByte * 100 >=
         3 * *flops * kWorthPercent;
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
    // What the model defines under a derived name stays if derivation fails.
    const StringRef kDerived[] = {"forward_backward", "eval",
                                  "train_step",       "gradients",
                                  "apply_update",     kTrainingPassName};
    llvm::SmallPtrSet<Operation *, 2> given;
    for (StringRef name : kDerived)
      if (Operation *f = module.lookupSymbol(name))
        given.insert(f);
    {
      ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
        if (d.getSeverity() != DiagnosticSeverity::Error || reason)
          return failure();
        reason.emplace(d.getLocation(), d.str());
        return success();
      });
      auto optimizers = module.getOps<nn::OptimizerOp>();
      nn::OptimizerOp opt =
          optimizers.empty() ? nn::OptimizerOp() : *optimizers.begin();
      bool fused = fusedUpdates == nnc::FusedUpdates::Always ||
                   (fusedUpdates == nnc::FusedUpdates::Auto &&
                    fuseUpdates(module, loss, trainable));
      // The moving averages are the training pass's for @gradients, and
      // for a train_step that calls it.
      FailureOr<TrainingPass> pass = buildTrainingPass(
          module, loss, trainable,
          /*movingStatistics=*/opt && (dataParallel || !fused));
      built = success(
          succeeded(pass) &&
          succeeded(buildForwardBackward(module, loss, *pass, trainable)) &&
          succeeded(buildEval(module, loss)) &&
          (!opt ||
           (succeeded(fused ? buildTrainStep(module, loss, trainable, opt)
                            : buildTrainStepCall(module, loss, *pass, trainable,
                                                 opt)) &&
            (!dataParallel || succeeded(buildDataParallelStep(
                                  module, loss, *pass, trainable, opt))))));
    }
    if (succeeded(built))
      return;
    for (StringRef name : kDerived)
      if (Operation *f = module.lookupSymbol(name); f && !given.contains(f))
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

  FailureOr<Backward> deriveBackward(ModuleOp module, func::FuncOp loss,
                                     MutableArrayRef<nn::ParameterOp> trainable,
                                     StringRef name, bool movingStatistics) {
    FailureOr<LossCopy> c = copyLoss(module, loss, name);
    if (failed(c))
      return failure();
    Backward out{*c, Value(), Value(), {}, {}};
    if (nnc::needsStep(c->func) || movingStatistics)
      out.step = readStep(module, *c);
    if (failed(nnc::useTrainingForms(c->func, out.step, out.copy.logits,
                                     movingStatistics ? &out.moving : nullptr)))
      return failure();
    OpBuilder b = OpBuilder::atBlockTerminator(&c->func.getBody().front());
    FailureOr<SmallVector<Value>> grads = gradients(b, out.copy, trainable);
    if (failed(grads))
      return failure();
    out.grads = std::move(*grads);
    out.correct = correctCount(b, out.copy);
    return out;
  }

  FailureOr<TrainingPass>
  buildTrainingPass(ModuleOp module, func::FuncOp loss,
                    MutableArrayRef<nn::ParameterOp> trainable,
                    bool movingStatistics) {
    FailureOr<Backward> d = deriveBackward(module, loss, trainable,
                                           kTrainingPassName, movingStatistics);
    if (failed(d))
      return failure();
    TrainingPass pass{
        d->copy.func, bool(d->correct), unsigned(d->grads.size()), {}};
    SmallVector<Value> results;
    SmallVector<std::string> names;
    appendLossAndCorrect(d->copy.loss, d->correct, results, names);
    appendGradients(trainable, d->grads, results, names);
    for (const nnc::MovingStatistic &m : d->moving) {
      pass.moving.push_back(m.param);
      results.push_back(m.value);
      names.push_back(m.param.str());
    }
    setResults(pass.func, results, names);
    pass.func.setPrivate();
    return pass;
  }

  /// A public function `name` taking the training pass's arguments, whose
  /// body calls it; the caller adds the rest and returns.
  FailureOr<std::pair<func::FuncOp, func::CallOp>>
  callTrainingPass(ModuleOp module, func::FuncOp loss, const TrainingPass &p,
                   StringRef name) {
    if (failed(checkNameFree(module, loss, name)))
      return failure();
    func::FuncOp callee = p.func;
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto func = func::FuncOp::create(
        mb, callee.getLoc(), name,
        FunctionType::get(&getContext(), callee.getArgumentTypes(), {}));
    func.setAllArgAttrs(callee.getAllArgAttrs());
    Block *body = func.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(body);
    auto call =
        func::CallOp::create(b, callee.getLoc(), callee, body->getArguments());
    func::ReturnOp::create(b, callee.getLoc());
    return std::make_pair(func, call);
  }

  /// Assigns the moving averages the training pass returned to their
  /// parameters.
  void assignMovingStatistics(OpBuilder &b, const TrainingPass &p,
                              func::CallOp call) {
    for (auto [i, param] : llvm::enumerate(p.moving))
      nn::AssignParamOp::create(b, call.getLoc(), param,
                                call.getResult(p.movingStart() + i));
  }

  /// forward_backward(inputs, labels) -> (loss, <param>.grad...): the
  /// gradients with the layers in their training form, changing nothing.
  LogicalResult buildForwardBackward(ModuleOp module, func::FuncOp loss,
                                     const TrainingPass &p,
                                     ArrayRef<nn::ParameterOp> trainable) {
    auto fc = callTrainingPass(module, loss, p, "forward_backward");
    if (failed(fc))
      return failure();
    auto [func, call] = *fc;
    SmallVector<Value> results;
    SmallVector<std::string> names;
    appendLossAndCorrect(call.getResult(0), /*correct=*/Value(), results,
                         names);
    appendGradients(trainable, gradientsOf(p, call), results, names);
    setResults(func, results, names);
    return success();
  }

  LogicalResult buildEval(ModuleOp module, func::FuncOp loss) {
    // @forward stays a call: its inference forms are eval's.
    FailureOr<LossCopy> c =
        copyLoss(module, loss, "eval", /*inlineForward=*/false);
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

  /// The global step, an i64 counter, read at the start of the copy.
  Value readStep(ModuleOp module, const LossCopy &c) {
    func::FuncOp func = c.func;
    auto b = OpBuilder::atBlockBegin(&func.getBody().front());
    return nnc::readStep(b, module, c.loss.getLoc());
  }

  LogicalResult buildTrainStep(ModuleOp module, func::FuncOp loss,
                               MutableArrayRef<nn::ParameterOp> trainable,
                               nn::OptimizerOp opt) {
    FailureOr<Backward> d =
        deriveBackward(module, loss, trainable, "train_step",
                       /*movingStatistics=*/true);
    if (failed(d))
      return failure();
    func::FuncOp func = d->copy.func;
    Operation *ret = func.getBody().front().getTerminator();
    OpBuilder b(ret);
    for (const nnc::MovingStatistic &m : d->moving)
      nn::AssignParamOp::create(b, m.value.getLoc(), m.param, m.value);
    nnc::applyUpdates(b, module, trainable, d->grads, d->step, opt);

    SmallVector<Value> results;
    SmallVector<std::string> names;
    appendLossAndCorrect(d->copy.loss, d->correct, results, names);
    // The tapped layers as this step computed them (training forms).
    for (auto [i, name] : llvm::enumerate(d->copy.tapNames)) {
      results.push_back(ret->getOperand(1 + i));
      names.push_back(name);
    }
    setResults(func, results, names);
    return success();
  }

  /// train_step(inputs, labels) -> (loss, correct) as a call of the
  /// training pass, then the moving averages it returns assigned and the
  /// updates applied to its gradients.
  LogicalResult buildTrainStepCall(ModuleOp module, func::FuncOp loss,
                                   const TrainingPass &p,
                                   MutableArrayRef<nn::ParameterOp> trainable,
                                   nn::OptimizerOp opt) {
    auto fc = callTrainingPass(module, loss, p, "train_step");
    if (failed(fc))
      return failure();
    auto [func, call] = *fc;
    OpBuilder b = OpBuilder::atBlockTerminator(&func.getBody().front());
    assignMovingStatistics(b, p, call);
    nnc::applyUpdates(b, module, trainable, gradientsOf(p, call),
                      nnc::readStep(b, module, opt.getLoc()), opt);
    SmallVector<Value> results;
    SmallVector<std::string> names;
    appendLossAndCorrect(call.getResult(0),
                         p.hasCorrect ? call.getResult(1) : Value(), results,
                         names);
    setResults(func, results, names);
    return success();
  }

  /// train_step in two halves for data-parallel training, where the
  /// gradients are summed across processes in between:
  /// @gradients(inputs, labels) -> (loss, correct, <param>.grad...) updates
  /// the moving statistics but no parameter, and
  /// @apply_update(<param>.grad..., grad_scale) updates the parameters from
  /// the gradients times `grad_scale` and counts the step.
  LogicalResult buildDataParallelStep(
      ModuleOp module, func::FuncOp loss, const TrainingPass &p,
      MutableArrayRef<nn::ParameterOp> trainable, nn::OptimizerOp opt) {
    auto fc = callTrainingPass(module, loss, p, "gradients");
    if (failed(fc))
      return failure();
    auto [func, call] = *fc;
    OpBuilder cb = OpBuilder::atBlockTerminator(&func.getBody().front());
    assignMovingStatistics(cb, p, call);
    SmallVector<Value> results;
    SmallVector<std::string> names;
    appendLossAndCorrect(call.getResult(0),
                         p.hasCorrect ? call.getResult(1) : Value(), results,
                         names);
    appendGradients(trainable, gradientsOf(p, call), results, names);
    setResults(func, results, names);

    if (failed(checkNameFree(module, loss, "apply_update")))
      return failure();
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
    nnc::applyUpdates(b, module, trainable, grads,
                      nnc::readStep(b, module, loc), opt);
    func::ReturnOp::create(b, loc);
    return success();
  }
};
} // namespace
