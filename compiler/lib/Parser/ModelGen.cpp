//===- ModelGen.cpp - .nn syntax trees to nn dialect IR -------------------===//
//
// Part of nnc. Walks the statements in order: constants, inputs and labels,
// layers (Layers.cpp) and block instances (Blocks.cpp) into @forward, then
// the loss into @loss, which calls @forward and adds weight-decay terms.
//
//===----------------------------------------------------------------------===//

#include "ModelGenImpl.h"

#include "nn/IR/ShapeFunctions.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/GlobPattern.h"

#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace mlir;
using namespace nnc;
using namespace nnc::detail;
using llvm::SMLoc;
using llvm::StringRef;

ModelGen::ModelGen(const SourceLocator &locator, const ModelOptions &options)
    : locator(locator), options(options), eval(locator),
      builder(locator.getContext()) {}

OwningOpRef<ModuleOp> ModelGen::generate(const ast::Module &model) {
  Location fileLoc = locator.get(SMLoc());
  module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  // @forward is created up front; its signature grows as inputs appear.
  forward = func::FuncOp::create(builder, fileLoc, "forward",
                                 builder.getFunctionType({}, {}));
  forward.addEntryBlock();
  builder.setInsertionPointToEnd(module->getBody());

  for (const ast::Statement &stmt : model.statements)
    if (failed(genStatement(stmt)))
      return nullptr;

  if (failed(checkComplete(fileLoc)) || failed(finishForward()) ||
      (lossStmt && failed(genLoss())))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return std::move(module);
}

LogicalResult ModelGen::checkComplete(Location fileLoc) {
  if (!modelStmt)
    return emitError(fileLoc)
           << "the model has no name; start the file with 'model NAME'";
  if (lastLayer.empty())
    return emitError(locator.get(modelStmt->loc))
           << "model '" << modelStmt->name << "' has no layers";
  if (optimizerStmt && !lossStmt)
    return emitError(locator.get(optimizerStmt->loc))
           << "the model has an optimizer but no loss; add 'loss ...(...)'";
  if (!labels.empty() && !lossStmt)
    return emitError(locator.get(labels.front().loc))
           << "the model declares labels but no loss; add 'loss ...(...)'";
  if ((!decays.empty() || decayStmt) && !lossStmt)
    return emitError(decays.empty() ? locator.get(decayStmt->loc)
                                    : decays.front().loc)
           << "weight_decay adds to the loss, but the model has no loss; add "
              "'loss ...(...)'";
  for (const auto &[name, value] : options.overrides)
    if (!usedOverrides.count(name)) {
      if (name == "batch")
        return emitError(locator.get(modelStmt->loc))
               << "--batch: model '" << modelStmt->name
               << "' has no 'batch' statement";
      return emitError(locator.get(modelStmt->loc))
             << "--set " << name << ": model '" << modelStmt->name
             << "' defines no constant '" << name << "'";
    }
  return success();
}

LogicalResult ModelGen::genStatement(const ast::Statement &stmt) {
  auto once = [&](const ast::Statement *&slot, StringRef what) {
    if (!slot) {
      slot = &stmt;
      return success();
    }
    return LogicalResult(emitError(locator.get(stmt.loc))
                         << "a model has one '" << what << "' statement"
                         << "; the first is at " << where(slot->loc));
  };
  if (stmt.kind != ast::Statement::Model && !modelStmt)
    return emitError(locator.get(stmt.loc))
           << "the file must start with 'model NAME'";
  switch (stmt.kind) {
  case ast::Statement::Model:
    if (failed(once(modelStmt, "model")))
      return failure();
    module->setSymName(stmt.name);
    return success();
  case ast::Statement::Batch:
    if (failed(once(batchStmt, "batch")))
      return failure();
    return genConstant(stmt);
  case ast::Statement::Let:
    return genConstant(stmt);
  case ast::Statement::Input:
  case ast::Statement::Labels:
    return genTensorDecl(stmt);
  case ast::Statement::Layer:
    return genLayer(stmt);
  case ast::Statement::Loss:
    return once(lossStmt, "loss");
  case ast::Statement::Optimizer:
    if (failed(once(optimizerStmt, "optimizer")))
      return failure();
    return genOptimizer(stmt);
  case ast::Statement::Block:
    return genBlockDef(stmt);
  case ast::Statement::WeightDecay:
    if (failed(once(decayStmt, "weight_decay")))
      return failure();
    return genModelDecay(stmt);
  case ast::Statement::Benchmark:
    if (failed(once(benchmarkStmt, "benchmark")))
      return failure();
    return genBenchmark(stmt);
  case ast::Statement::Output:
    if (failed(once(outputStmt, "output")))
      return failure();
    for (const auto &[name, loc] : stmt.names) {
      auto it = tensors.find(name);
      if (it == tensors.end())
        return emitError(locator.get(loc))
               << "'" << name << "' is not a layer or input defined above";
      if (it->second.isLabels)
        return emitError(locator.get(loc))
               << "'" << name << "' are labels; outputs are layers or inputs";
    }
    return success();
  }
  return failure();
}

std::string ModelGen::where(SMLoc loc) const {
  auto fileLoc = cast<FileLineColLoc>(locator.get(loc));
  return (fileLoc.getFilename().getValue() + ":" +
          llvm::Twine(fileLoc.getLine()) + ":" +
          llvm::Twine(fileLoc.getColumn()))
      .str();
}

LogicalResult ModelGen::checkDefinable(StringRef name, SMLoc loc) {
  auto it = tensors.find(name);
  if (it != tensors.end())
    return emitError(locator.get(loc))
           << "'" << name << "' is already defined at "
           << where(it->second.loc);
  if (eval.isDefined(name))
    return emitError(locator.get(loc))
           << "'" << name << "' is already defined as a constant";
  return success();
}

LogicalResult ModelGen::genConstant(const ast::Statement &stmt) {
  std::string name =
      stmt.kind == ast::Statement::Batch ? std::string("batch") : stmt.name;
  SMLoc loc = stmt.kind == ast::Statement::Batch ? stmt.loc : stmt.nameLoc;
  if (failed(checkDefinable(name, loc)))
    return failure();
  // The written value is checked even when the command line replaces it.
  FailureOr<Number> written = eval.eval(*stmt.value);
  if (failed(written))
    return failure();
  Number value = *written;
  auto it = options.overrides.find(name);
  if (it != options.overrides.end()) {
    usedOverrides[name] = true;
    value.value = it->second;
    value.isInteger = std::fabs(it->second) <= kMaxExactInteger &&
                      it->second == std::trunc(it->second);
  }
  if (stmt.kind == ast::Statement::Batch) {
    if (!value.isInteger || value.value < 1)
      return emitError(locator.get(stmt.value->loc))
             << "the batch size must be a positive integer, got "
             << nn::formatNumber(value.value);
    nn::NNDialect::BatchSizeAttrHelper(builder.getContext())
        .setAttr(*module, builder.getI64IntegerAttr((int64_t)value.value));
  }
  eval.define(name, value);
  return success();
}

FailureOr<Type> ModelGen::evalDType(const ast::TensorDecl &decl,
                                    bool isLabels) {
  MLIRContext *ctx = builder.getContext();
  Type type = llvm::StringSwitch<Type>(decl.dtype)
                  .Case("f32", Float32Type::get(ctx))
                  .Case("f16", Float16Type::get(ctx))
                  .Case("bf16", BFloat16Type::get(ctx))
                  .Case("f64", Float64Type::get(ctx))
                  .Case("i32", IntegerType::get(ctx, 32))
                  .Case("i64", IntegerType::get(ctx, 64))
                  .Default(Type());
  if (!type)
    return emitError(locator.get(decl.dtypeLoc))
           << "unknown element type '" << decl.dtype
           << "'; expected f32, f16, bf16, f64, i32 or i64";
  if (isLabels && !isa<IntegerType>(type))
    return emitError(locator.get(decl.dtypeLoc))
           << "labels hold class ids: their type must be i32 or i64, not "
           << decl.dtype;
  if (!isLabels && !isa<FloatType>(type))
    return emitError(locator.get(decl.dtypeLoc))
           << "inputs must have a floating-point type (f32, f16, bf16, "
              "f64), not "
           << decl.dtype;
  return type;
}

LogicalResult ModelGen::genTensorDecl(const ast::Statement &stmt) {
  const ast::TensorDecl &decl = *stmt.tensor;
  bool isLabels = stmt.kind == ast::Statement::Labels;
  if (failed(checkDefinable(decl.name, decl.loc)))
    return failure();
  FailureOr<Type> elt = evalDType(decl, isLabels);
  if (failed(elt))
    return failure();
  if (decl.dims.empty())
    return emitError(locator.get(decl.shapeLoc))
           << "the shape must have at least one dimension (the batch)";
  SmallVector<int64_t> shape;
  for (const auto &dim : decl.dims) {
    FailureOr<int64_t> d = eval.evalInt(*dim, "a dimension", 1);
    if (failed(d))
      return failure();
    shape.push_back(*d);
  }
  if (failed(nn::checkElementCount(locator.get(decl.shapeLoc),
                                   isLabels ? "labels" : "input", shape)))
    return failure();
  auto type = RankedTensorType::get(shape, *elt);
  if (isLabels) {
    if (shape.size() != 1)
      return emitError(locator.get(decl.shapeLoc))
             << "labels are one class id per example: the shape must be "
                "[batch]";
    FailureOr<int64_t> classes = eval.evalInt(*decl.classes, "classes", 2);
    if (failed(classes))
      return failure();
    // Labels become arguments of @loss (genLoss).
    labels.push_back(Labels{decl.name, type, *classes, decl.loc});
    tensors[decl.name] = Tensor{Value(), decl.loc, /*isLabels=*/true};
    return success();
  }
  if (!lastLayer.empty())
    return emitError(locator.get(stmt.loc))
           << "inputs must be declared before the first layer";
  // Images are NHWC (the default for rank 4); NC marks a flat input.
  std::string layout = decl.layout;
  if (layout.empty())
    layout = shape.size() == 4 ? "NHWC" : "";
  if (layout == "NCHW")
    return emitError(locator.get(decl.layoutLoc))
           << "nnc's layers work on NHWC images; store the input as "
              "[batch, height, width, channels] and declare it NHWC";
  if (!decl.layout.empty() && layout.size() != shape.size())
    return emitError(locator.get(decl.layoutLoc))
           << "layout " << layout << " needs a rank-" << layout.size()
           << " shape, got rank " << shape.size();
  Block &entry = forward.front();
  BlockArgument arg = entry.addArgument(type, locator.get(decl.loc));
  inputs.emplace_back(decl.name, type);
  forward.setType(builder.getFunctionType(entry.getArgumentTypes(), {}));
  nn::setArgName(forward, arg.getArgNumber(), decl.name);
  if (!layout.empty())
    nn::setArgLayout(forward, arg.getArgNumber(), layout);
  tensors[decl.name] = Tensor{arg, decl.loc};
  return success();
}

FailureOr<Value> ModelGen::lookupTensor(const ast::Expr &expr) {
  if (expr.kind != ast::Expr::Name)
    return emitError(eval.loc(expr.loc))
           << "expected the name of a layer or input";
  auto it = tensors.find(expr.name);
  if (it == tensors.end()) {
    if (eval.isDefined(expr.name))
      return emitError(eval.loc(expr.loc))
             << "'" << expr.name << "' is a constant, not a layer or input";
    return emitError(eval.loc(expr.loc))
           << "'" << expr.name
           << "' is not defined; layers can only use "
              "inputs and layers defined above them";
  }
  if (it->second.isLabels)
    return emitError(eval.loc(expr.loc))
           << "labels '" << expr.name << "' can only be used by the loss";
  return it->second.value;
}

LogicalResult ModelGen::genLayer(const ast::Statement &stmt) {
  if (failed(checkDefinable(stmt.name, stmt.nameLoc)))
    return failure();
  if (inputs.empty())
    return emitError(locator.get(stmt.loc))
           << "declare the model's inputs ('input NAME: f32[...]') before "
              "its layers";
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&forward.front());
  Scope model;
  model.visibleBlocks = blocks.size();
  FailureOr<Value> value = genCall(stmt, model);
  if (failed(value))
    return failure();
  tensors[stmt.name] = Tensor{*value, stmt.nameLoc};
  lastLayer = stmt.name;
  return success();
}

Value ModelGen::createParameter(StringRef layer, StringRef suffix,
                                RankedTensorType type, Attribute init,
                                bool trainable, Location loc) {
  std::string name = (layer + "." + suffix).str();
  {
    OpBuilder::InsertionGuard guard(builder);
    // Parameters go before the functions, in declaration order.
    builder.setInsertionPoint(forward);
    auto param = nn::ParameterOp::create(builder, loc, name, type, init,
                                         /*non_trainable=*/!trainable);
    (void)param;
  }
  return nn::GetParamOp::create(
      builder, loc, type, FlatSymbolRefAttr::get(builder.getContext(), name));
}

void ModelGen::addWeightDecay(StringRef parameter, double scale, Location loc) {
  decays.push_back(Decay{parameter.str(), scale, loc});
}

LogicalResult ModelGen::finishForward() {
  SmallVector<Value> results;
  if (outputStmt) {
    for (const auto &[name, loc] : outputStmt->names)
      results.push_back(tensors[name].value);
  } else {
    results.push_back(tensors[lastLayer].value);
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&forward.front());
  func::ReturnOp::create(builder, forward.getLoc(), results);
  forward.setType(builder.getFunctionType(forward.front().getArgumentTypes(),
                                          ValueRange(results).getTypes()));

  warnUnused();
  warnUnusedBlocks();
  if (options.taps.empty())
    return success();

  // Taps come after the outputs, so the loss's uses of them keep their
  // result numbers, and do not count as uses in the warnings above.
  unsigned numOutputs = results.size();
  SmallVector<std::string> names;
  if (failed(collectTaps(results, names)))
    return failure();
  forward.front().getTerminator()->setOperands(results);
  forward.setType(builder.getFunctionType(forward.front().getArgumentTypes(),
                                          ValueRange(results).getTypes()));
  for (auto [i, name] : llvm::enumerate(names))
    nn::setResultName(forward, numOutputs + i, name);
  return success();
}

LogicalResult ModelGen::collectTaps(SmallVectorImpl<Value> &results,
                                    SmallVectorImpl<std::string> &names) {
  SmallVector<llvm::GlobPattern> patterns;
  for (const std::string &tap : options.taps) {
    llvm::Expected<llvm::GlobPattern> pattern = llvm::GlobPattern::create(tap);
    if (!pattern)
      return emitError(locator.get(modelStmt->loc))
             << "--tap " << tap << ": " << llvm::toString(pattern.takeError());
    patterns.push_back(std::move(*pattern));
  }
  SmallVector<bool> matched(patterns.size(), false);
  for (const std::string &layer : layerNames) {
    bool tapped = false;
    for (auto [pattern, hit] : llvm::zip(patterns, matched))
      if (pattern.match(layer))
        hit = tapped = true;
    if (!tapped)
      continue;
    results.push_back(tensors[layer].value);
    names.push_back(layer);
  }
  for (auto [tap, hit] : llvm::zip(options.taps, matched))
    if (!hit)
      return emitError(locator.get(modelStmt->loc))
             << "--tap " << tap << ": no layer of model '" << modelStmt->name
             << "' matches";
  return success();
}

void nnc::detail::addLiveValues(ValueRange roots, llvm::DenseSet<Value> &live) {
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!live.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp())
      llvm::append_range(worklist, def->getOperands());
  }
}

void ModelGen::warnUnused() {
  // Values the outputs depend on, found backwards from the return.
  llvm::DenseSet<Value> live;
  addLiveValues(forward.front().getTerminator()->getOperands(), live);
  // A layer or input no output depends on is almost always a slip in the
  // model. Report them in file order.
  SmallVector<std::pair<const char *, StringRef>> unused;
  for (const auto &entry : tensors)
    if (!entry.second.isLabels && !entry.second.isInner &&
        !live.contains(entry.second.value))
      unused.emplace_back(entry.second.loc.getPointer(), entry.getKey());
  llvm::sort(unused);
  for (auto [pos, name] : unused)
    emitWarning(locator.get(SMLoc::getFromPointer(pos)))
        << "'" << name << "' is not used by any output"
        << (outputStmt
                ? ""
                : " (the output is the last layer, '" + lastLayer + "')");
}

LogicalResult ModelGen::genLoss() {
  Location loc = locator.get(lossStmt->loc);
  SmallVector<Type> argTypes;
  for (auto &[name, type] : inputs)
    argTypes.push_back(type);
  for (const Labels &l : labels)
    argTypes.push_back(l.type);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module->getBody());
  auto lossFunc = func::FuncOp::create(builder, loc, "loss",
                                       builder.getFunctionType(argTypes, {}));
  Block *entry = lossFunc.addEntryBlock();
  unsigned i = 0;
  // Inputs carry the same attributes (name, layout) as in @forward.
  for (unsigned a = 0; a < inputs.size(); ++a)
    lossFunc.setArgAttrs(i++, forward.getArgAttrDict(a));
  for (const Labels &l : labels) {
    nn::setArgName(lossFunc, i, l.name);
    nn::setArgClasses(lossFunc, i++, l.classes);
  }
  builder.setInsertionPointToEnd(entry);
  auto call = func::CallOp::create(
      builder, loc, forward, entry->getArguments().take_front(inputs.size()));

  // Loss arguments are outputs of @forward or labels.
  auto lookup = [&](const ast::Expr &expr) -> FailureOr<Value> {
    if (expr.kind == ast::Expr::Name) {
      for (unsigned l = 0; l < labels.size(); ++l)
        if (labels[l].name == expr.name)
          return Value(entry->getArgument(inputs.size() + l));
      SmallVector<StringRef> outputs;
      if (outputStmt)
        for (const auto &[name, loc] : outputStmt->names)
          outputs.push_back(name);
      else
        outputs.push_back(lastLayer);
      for (unsigned o = 0; o < outputs.size(); ++o)
        if (outputs[o] == expr.name)
          return Value(call.getResult(o));
      if (tensors.count(expr.name))
        return emitError(locator.get(expr.loc))
               << "the loss can only use the model's outputs and labels; '"
               << expr.name << "' is not an output (list it in 'output')";
    }
    return emitError(locator.get(expr.loc))
           << "expected the name of a model output or of the labels";
  };
  FailureOr<Value> loss = emitLossCall(*this, *lossStmt->call, lookup);
  if (failed(loss))
    return failure();
  Value total = *loss;
  for (const Decay &d : decays) {
    auto param = module->lookupSymbol<nn::ParameterOp>(
        builder.getStringAttr(d.parameter));
    Value w = nn::GetParamOp::create(builder, d.loc, param.getTensorType(),
                                     FlatSymbolRefAttr::get(param));
    Value term = nn::WeightDecayOp::create(
        builder, d.loc, cast<RankedTensorType>(total.getType()), w,
        builder.getF64FloatAttr(d.scale));
    total = nn::AddOp::create(builder, d.loc, total.getType(), total, term);
  }
  total = addModelDecay(total);
  func::ReturnOp::create(builder, loc, total);
  lossFunc.setType(builder.getFunctionType(argTypes, total.getType()));
  for (unsigned l = 0; l < labels.size(); ++l)
    if (entry->getArgument(inputs.size() + l).use_empty())
      emitWarning(locator.get(labels[l].loc))
          << "labels '" << labels[l].name << "' are not used by the loss";
  return success();
}

LogicalResult ModelGen::genModelDecay(const ast::Statement &stmt) {
  FailureOr<double> scale = eval.evalFloat(*stmt.value, "weight_decay");
  if (failed(scale))
    return failure();
  if (!(*scale >= 0))
    return emitError(locator.get(stmt.value->loc))
           << "weight_decay must be >= 0, got " << nn::formatNumber(*scale);
  modelDecay = *scale;
  return success();
}

/// Batch normalisation's scale and offset are not decayed.
static bool isBatchNormParameter(func::FuncOp forward, nn::ParameterOp param) {
  bool found = false;
  forward.walk([&](nn::GetParamOp read) {
    if (read.getName() != param.getSymName())
      return;
    for (OpOperand &use : read->getUses())
      found |= isa<nn::BatchNormOp>(use.getOwner()) &&
               (use.getOperandNumber() == 1 || use.getOperandNumber() == 2);
  });
  return found;
}

Value ModelGen::addModelDecay(Value total) {
  if (modelDecay == 0)
    return total;
  Location loc = NameLoc::get(builder.getStringAttr("weight_decay"),
                              locator.get(decayStmt->loc));
  for (auto param : module->getOps<nn::ParameterOp>()) {
    if (param.getNonTrainable() || isBatchNormParameter(forward, param))
      continue;
    Value w = nn::GetParamOp::create(builder, loc, param.getTensorType(),
                                     FlatSymbolRefAttr::get(param));
    Value term = nn::WeightDecayOp::create(
        builder, loc, cast<RankedTensorType>(total.getType()), w,
        builder.getF64FloatAttr(modelDecay));
    total = nn::AddOp::create(builder, loc, total.getType(), total, term);
  }
  return total;
}

LogicalResult ModelGen::genBenchmark(const ast::Statement &stmt) {
  ArrayRef<StringLiteral> known = nn::knownBenchmarks();
  if (!llvm::is_contained(known, stmt.name))
    return emitError(locator.get(stmt.nameLoc))
           << "unknown benchmark '" << stmt.name << "'; expected "
           << llvm::join(SmallVector<StringRef>(known.begin(), known.end()),
                         ", ");
  nn::NNDialect::BenchmarkAttrHelper(builder.getContext())
      .setAttr(*module, builder.getStringAttr(stmt.name));
  return success();
}

LogicalResult ModelGen::genOptimizer(const ast::Statement &stmt) {
  const ast::Call &call = *stmt.call;
  CallArgs args(eval, call);
  Location loc = locator.get(call.loc);
  std::optional<nn::OptimizerKind> kind =
      nn::symbolizeOptimizerKind(call.callee);
  if (!kind)
    return emitError(loc) << "unknown optimizer '" << call.callee
                          << "'; expected sgd or adam";
  bool isSGD = *kind == nn::OptimizerKind::SGD;
  SmallVector<StringRef> keys = {"learning_rate", "weight_decay", "schedule",
                                 "warmup_steps"};
  if (isSGD)
    keys.append({"momentum", "nesterov"});
  else
    keys.append({"beta1", "beta2", "epsilon"});
  if (failed(args.check(keys, 0, 0, "no positional arguments")))
    return failure();
  auto lr = args.getFloat("learning_rate", isSGD ? 0.01 : 0.001);
  auto wd = args.getFloat("weight_decay", 0.0);
  auto momentum = args.getFloat("momentum", 0.0);
  auto nesterov = args.getBool("nesterov", false);
  auto beta1 = args.getFloat("beta1", 0.9);
  auto beta2 = args.getFloat("beta2", 0.999);
  auto epsilon = args.getFloat("epsilon", 1e-7);
  auto warmup = args.getInt("warmup_steps", 0, 0);
  if (failed(lr) || failed(wd) || failed(momentum) || failed(nesterov) ||
      failed(beta1) || failed(beta2) || failed(epsilon) || failed(warmup))
    return failure();

  Attribute schedule;
  if (const ast::Expr *s = args.get("schedule")) {
    FailureOr<Attribute> parsed = genSchedule(*s);
    if (failed(parsed))
      return failure();
    schedule = *parsed;
  }
  if (failed(nn::verifyOptimizerConfig(loc, *kind, *lr, *momentum, *nesterov,
                                       *wd, *beta1, *beta2, *epsilon,
                                       schedule, *warmup)))
    return failure();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(forward);
  nn::OptimizerOp::create(
      builder, loc, nn::OptimizerKindAttr::get(builder.getContext(), *kind),
      builder.getF64FloatAttr(*lr), builder.getF64FloatAttr(*momentum),
      builder.getBoolAttr(*nesterov), builder.getF64FloatAttr(*wd),
      builder.getF64FloatAttr(*beta1), builder.getF64FloatAttr(*beta2),
      builder.getF64FloatAttr(*epsilon), schedule,
      builder.getI64IntegerAttr(*warmup));
  return success();
}

FailureOr<Attribute> ModelGen::genSchedule(const ast::Expr &s) {
  MLIRContext *ctx = builder.getContext();
  if (s.kind == ast::Expr::CallExpr &&
      s.call->callee == "piecewise_constant") {
    CallArgs args(eval, *s.call);
    if (failed(args.check({"boundaries", "values"}, 0, 0,
                          "no positional arguments")))
      return failure();
    auto boundaries = args.getIntList("boundaries", /*allowInfer=*/false);
    auto values = succeeded(boundaries) ? args.getFloatList("values")
                                        : FailureOr<SmallVector<double>>();
    if (failed(boundaries) || failed(values) ||
        failed(nn::verifyPiecewiseConstant(locator.get(s.loc), *boundaries,
                                           *values)))
      return failure();
    return Attribute(nn::PiecewiseConstantAttr::get(
        ctx, DenseI64ArrayAttr::get(ctx, *boundaries),
        DenseF64ArrayAttr::get(ctx, *values)));
  }
  if (s.kind != ast::Expr::CallExpr || s.call->callee != "exponential_decay")
    return emitError(locator.get(s.loc))
           << "'schedule' must be exponential_decay(rate=..., steps=..., "
              "staircase=...) or piecewise_constant(boundaries=[...], "
              "values=[...])";
  CallArgs args(eval, *s.call);
  if (failed(args.check({"rate", "steps", "staircase"}, 0, 0,
                        "no positional arguments")))
    return failure();
  auto rate = args.getFloat("rate", std::nullopt);
  auto steps = args.getInt("steps", std::nullopt, 1);
  auto staircase = args.getBool("staircase", false);
  if (failed(rate) || failed(steps) || failed(staircase))
    return failure();
  return Attribute(nn::ExponentialDecayAttr::get(
      ctx, llvm::APFloat(*rate), *steps, builder.getBoolAttr(*staircase)));
}

OwningOpRef<ModuleOp> nnc::genModel(const SourceLocator &locator,
                                    const ast::Module &model,
                                    const ModelOptions &options) {
  return ModelGen(locator, options).generate(model);
}

OwningOpRef<ModuleOp> nnc::parseModel(llvm::SourceMgr &sourceMgr,
                                      MLIRContext *context,
                                      const ModelOptions &options) {
  unsigned id = sourceMgr.getMainFileID();
  SourceLocator locator(sourceMgr, id, context);
  std::unique_ptr<ast::Module> ast =
      parseModelFile(locator, sourceMgr.getMemoryBuffer(id)->getBuffer());
  if (!ast)
    return nullptr;
  return genModel(locator, *ast, options);
}
