//===- ExportModelInterface.cpp - the nn-export-model-interface pass ------===//
//
// Part of nnc. The model's description for the runtime (docs/interface.md),
// as a JSON string in the object file.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/Passes.h"

#include "nn/IR/NNDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/JSON.h"

namespace nnc {
#define GEN_PASS_DEF_EXPORTMODELINTERFACEPASS
#include "nnc/Transforms/Passes.h.inc"
} // namespace nnc

using namespace mlir;
namespace json = llvm::json;

namespace {

/// Version of the description format; bump on incompatible changes.
constexpr int64_t kInterfaceVersion = 1;

/// Element types' names, as MLIR prints them, each printed once: the
/// description lists every parameter in every entry point (Inception-v3's,
/// 3,600 times).
class DtypeNames {
public:
  std::string operator()(Type type) {
    auto [it, inserted] = names.try_emplace(type);
    if (inserted) {
      llvm::raw_string_ostream os(it->second);
      type.print(os);
    }
    return it->second;
  }

private:
  llvm::DenseMap<Type, std::string> names;
};

json::Array shapeOf(ShapedType type) {
  json::Array shape;
  for (int64_t d : type.getShape())
    shape.push_back(d);
  return shape;
}

json::Object initializer(Attribute init) {
  auto num = [](const llvm::APFloat &v) { return v.convertToDouble(); };
  if (isa<nn::ZerosInitAttr>(init))
    return json::Object{{"kind", "zeros"}};
  if (auto c = dyn_cast<nn::ConstantInitAttr>(init))
    return json::Object{{"kind", "constant"}, {"value", num(c.getValue())}};
  if (auto n = dyn_cast<nn::NormalInitAttr>(init))
    return json::Object{{"kind", "normal"},
                        {"mean", num(n.getMean())},
                        {"stddev", num(n.getStddev())}};
  if (auto n = dyn_cast<nn::TruncatedNormalInitAttr>(init))
    return json::Object{{"kind", "truncated_normal"},
                        {"mean", num(n.getMean())},
                        {"stddev", num(n.getStddev())}};
  if (auto u = dyn_cast<nn::UniformInitAttr>(init))
    return json::Object{{"kind", "uniform"},
                        {"min", num(u.getMin())},
                        {"max", num(u.getMax())}};
  if (isa<nn::GlorotUniformInitAttr>(init))
    return json::Object{{"kind", "glorot_uniform"}};
  if (isa<nn::GlorotNormalInitAttr>(init))
    return json::Object{{"kind", "glorot_normal"}};
  if (auto v = dyn_cast<nn::VarianceScalingInitAttr>(init))
    return json::Object{{"kind", "variance_scaling"},
                        {"scale", num(v.getScale())},
                        {"mode", v.getMode()},
                        {"distribution", v.getDistribution()}};
  return json::Object{{"kind", "he_normal"}};
}

json::Value optimizer(nn::OptimizerOp op) {
  auto num = [](FloatAttr a) { return a.getValueAsDouble(); };
  json::Object o{{"kind", nn::stringifyOptimizerKind(op.getKind()).str()},
                 {"learning_rate", num(op.getLearningRateAttr())},
                 {"momentum", num(op.getMomentumAttr())},
                 {"nesterov", op.getNesterov()},
                 {"weight_decay", num(op.getWeightDecayAttr())},
                 {"beta1", num(op.getBeta1Attr())},
                 {"beta2", num(op.getBeta2Attr())},
                 {"epsilon", num(op.getEpsilonAttr())}};
  if (auto s = dyn_cast_or_null<nn::ExponentialDecayAttr>(op.getScheduleAttr()))
    o["schedule"] = json::Object{{"kind", "exponential_decay"},
                                 {"rate", s.getRate().convertToDouble()},
                                 {"steps", s.getSteps()},
                                 {"staircase", s.getStaircase().getValue()}};
  if (auto s =
          dyn_cast_or_null<nn::PiecewiseConstantAttr>(op.getScheduleAttr())) {
    json::Array boundaries, values;
    for (int64_t b : s.getBoundaries().asArrayRef())
      boundaries.push_back(b);
    for (double v : s.getValues().asArrayRef())
      values.push_back(v);
    o["schedule"] = json::Object{{"kind", "piecewise_constant"},
                                 {"boundaries", std::move(boundaries)},
                                 {"values", std::move(values)}};
  }
  if (int64_t warmup = op.getWarmupStepsAttr().getInt())
    o["warmup_steps"] = warmup;
  return o;
}

/// The layer table nn-record-layers left on the module, if any.
json::Array layers(ModuleOp module) {
  json::Array out;
  auto recorded =
      nn::NNDialect::LayersAttrHelper(module.getContext()).getAttr(module);
  if (!recorded)
    return out;
  // The dialect verifies each entry's keys and types.
  for (auto layer : recorded.getAsRange<DictionaryAttr>()) {
    auto name = layer.getAs<StringAttr>("name");
    auto op = layer.getAs<StringAttr>("op");
    auto shape = layer.getAs<DenseI64ArrayAttr>("shape");
    json::Array dims;
    for (int64_t d : shape.asArrayRef())
      dims.push_back(d);
    out.push_back(json::Object{{"name", name.getValue()},
                               {"op", op.getValue()},
                               {"shape", std::move(dims)}});
  }
  return out;
}

/// The driver's build information (`nn.build`, strings only).
json::Object buildInfo(ModuleOp module) {
  json::Object out;
  if (auto build =
          nn::NNDialect::BuildAttrHelper(module.getContext()).getAttr(module))
    for (NamedAttribute entry : build)
      out[entry.getName().getValue()] =
          cast<StringAttr>(entry.getValue()).getValue();
  return out;
}

/// One argument of an entry point: its role, name, shape and element type.
json::Object argument(func::FuncOp func, unsigned i, unsigned &outputs,
                      DtypeNames &dtypeName) {
  auto type = cast<ShapedType>(func.getArgument(i).getType());
  json::Object arg{{"shape", shapeOf(type)},
                   {"dtype", dtypeName(type.getElementType())}};
  if (auto p = nn::getArgParam(func, i)) {
    arg["role"] = "param";
    arg["name"] = p.getValue();
  } else if (func.getArgAttr(i, "bufferize.result")) {
    arg["role"] = "output";
    auto name = nn::getArgName(func, i);
    std::string fallback = "output" + std::to_string(outputs++);
    arg["name"] = name ? name.getValue().str() : fallback;
  } else {
    auto name = nn::getArgName(func, i);
    auto classes = nn::getArgClasses(func, i);
    arg["role"] = classes ? "labels" : "input";
    arg["name"] = name ? name.getValue() : ("arg" + std::to_string(i));
    if (classes)
      arg["classes"] = classes.getInt();
    if (auto layout = nn::getArgLayout(func, i))
      arg["layout"] = layout.getValue();
  }
  return arg;
}

struct ExportModelInterfacePass
    : nnc::impl::ExportModelInterfacePassBase<ExportModelInterfacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    json::Object model{{"interface", kInterfaceVersion},
                       {"name", module.getSymName().value_or("model")}};
    if (auto batch =
            nn::NNDialect::BatchSizeAttrHelper(&getContext()).getAttr(module))
      model["batch_size"] = batch.getInt();
    if (auto benchmark =
            nn::NNDialect::BenchmarkAttrHelper(&getContext()).getAttr(module))
      model["benchmark"] = benchmark.getValue();

    DtypeNames dtypeName;
    json::Array params;
    for (auto p : module.getOps<nn::ParameterOp>())
      params.push_back(
          json::Object{{"name", p.getSymName()},
                       {"shape", shapeOf(p.getTensorType())},
                       {"dtype", dtypeName(p.getTensorType().getElementType())},
                       {"init", initializer(p.getInitializer())},
                       {"trainable", !p.getNonTrainable()}});
    model["parameters"] = std::move(params);

    json::Array entries;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      if (!llvm::all_of(func.getArgumentTypes(), llvm::IsaPred<MemRefType>) ||
          func.getNumResults() != 0) {
        func.emitOpError("is not bufferized with out-parameters; run "
                         "nn-export-model-interface after bufferization");
        return signalPassFailure();
      }
      json::Array args;
      args.reserve(func.getNumArguments());
      unsigned outputs = 0;
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        args.push_back(argument(func, i, outputs, dtypeName));
      json::Object entry{
          {"name", func.getSymName()},
          {"symbol", ("_mlir_ciface_" + func.getSymName()).str()},
          {"packed", ("nnc_" + func.getSymName()).str()},
          {"args", std::move(args)}};
      // Optional: the floating-point operations nn-record-layers counted.
      if (auto flops = func->getAttrOfType<IntegerAttr>("nnc.flops")) {
        entry["flops"] = flops.getInt();
        func->removeAttr("nnc.flops");
      }
      entries.push_back(std::move(entry));
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(&getContext()));
    }
    model["entry_points"] = std::move(entries);
    model["layers"] = layers(module);
    model["build"] = buildInfo(module);
    auto optimizers = module.getOps<nn::OptimizerOp>();
    model["optimizer"] = optimizers.empty() ? json::Value(nullptr)
                                            : optimizer(*optimizers.begin());

    std::string text;
    llvm::raw_string_ostream(text) << json::Value(std::move(model));
    text.push_back('\0');
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
    LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                           LLVM::Linkage::External, "nnc_model_json",
                           b.getStringAttr(text));

    // The description now carries what the declarations and attributes
    // said; LLVM has no use for them.
    module->removeAttr(nn::NNDialect::LayersAttrHelper::getNameStr());
    module->removeAttr(nn::NNDialect::BuildAttrHelper::getNameStr());
    module->removeAttr(nn::NNDialect::BenchmarkAttrHelper::getNameStr());
    for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
      if (isa<nn::ParameterOp, nn::OptimizerOp>(op))
        op.erase();
    for (auto func : module.getOps<func::FuncOp>())
      nn::removeArgAttrs(func, {"bufferize.result"});
  }
};
} // namespace
