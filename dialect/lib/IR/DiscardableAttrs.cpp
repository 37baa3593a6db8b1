//===- DiscardableAttrs.cpp - the nn dialect's discardable attributes -----===//
//
// Part of nnc. Accessors for the model interface attributes on function
// arguments and results, and the dialect's verifier of every `nn.` attribute
// on an op, an argument or a result (NNDialect.td documents the contract).
//
//===----------------------------------------------------------------------===//

#include "nn/IR/NNDialect.h"

using namespace mlir;
using namespace mlir::nn;

namespace {
using BatchSize = NNDialect::BatchSizeAttrHelper;
using Layers = NNDialect::LayersAttrHelper;
using Build = NNDialect::BuildAttrHelper;
using Benchmark = NNDialect::BenchmarkAttrHelper;
using Name = NNDialect::NameAttrHelper;
using Layout = NNDialect::LayoutAttrHelper;
using Classes = NNDialect::ClassesAttrHelper;
using Param = NNDialect::ParamAttrHelper;
using Updates = NNDialect::UpdatesAttrHelper;
} // namespace

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

StringAttr nn::getArgName(FunctionOpInterface func, unsigned arg) {
  return func.getArgAttrOfType<StringAttr>(arg, Name::getNameStr());
}

void nn::setArgName(FunctionOpInterface func, unsigned arg, StringRef name) {
  func.setArgAttr(arg, Name::getNameStr(),
                  StringAttr::get(func.getContext(), name));
}

StringAttr nn::getResultName(FunctionOpInterface func, unsigned result) {
  return func.getResultAttrOfType<StringAttr>(result, Name::getNameStr());
}

void nn::setResultName(FunctionOpInterface func, unsigned result,
                       StringRef name) {
  func.setResultAttr(result, Name::getNameStr(),
                     StringAttr::get(func.getContext(), name));
}

StringAttr nn::getArgLayout(FunctionOpInterface func, unsigned arg) {
  return func.getArgAttrOfType<StringAttr>(arg, Layout::getNameStr());
}

void nn::setArgLayout(FunctionOpInterface func, unsigned arg,
                      StringRef layout) {
  func.setArgAttr(arg, Layout::getNameStr(),
                  StringAttr::get(func.getContext(), layout));
}

IntegerAttr nn::getArgClasses(FunctionOpInterface func, unsigned arg) {
  return func.getArgAttrOfType<IntegerAttr>(arg, Classes::getNameStr());
}

void nn::setArgClasses(FunctionOpInterface func, unsigned arg,
                       int64_t classes) {
  func.setArgAttr(
      arg, Classes::getNameStr(),
      IntegerAttr::get(IntegerType::get(func.getContext(), 64), classes));
}

StringAttr nn::getArgParam(FunctionOpInterface func, unsigned arg) {
  return func.getArgAttrOfType<StringAttr>(arg, Param::getNameStr());
}

/// The attributes {`name` = `value`}.
static DictionaryAttr singleAttr(StringRef name, StringAttr value) {
  MLIRContext *context = value.getContext();
  return DictionaryAttr::get(
      context, {NamedAttribute(StringAttr::get(context, name), value)});
}

DictionaryAttr nn::argParamAttrs(StringAttr param) {
  return singleAttr(Param::getNameStr(), param);
}

StringAttr nn::getResultUpdates(FunctionOpInterface func, unsigned result) {
  return func.getResultAttrOfType<StringAttr>(result, Updates::getNameStr());
}

DictionaryAttr nn::resultUpdatesAttrs(StringAttr param) {
  return singleAttr(Updates::getNameStr(), param);
}

/// True when `name` is in the dialect's namespace (`nn.`).
static bool isNNAttrName(StringAttr name) {
  return name.strref().starts_with(NNDialect::getDialectNamespace()) &&
         name.strref()
             .drop_front(NNDialect::getDialectNamespace().size())
             .starts_with(".");
}

void nn::removeArgAttrs(FunctionOpInterface func,
                        ArrayRef<StringRef> alsoRemove) {
  ArrayAttr all = func.getArgAttrsAttr();
  if (!all)
    return;
  SmallVector<DictionaryAttr> dicts;
  for (Attribute dict : all) {
    SmallVector<NamedAttribute> kept;
    for (NamedAttribute attr : cast<DictionaryAttr>(dict))
      if (!isNNAttrName(attr.getName()) &&
          !llvm::is_contained(alsoRemove, attr.getName().strref()))
        kept.push_back(attr);
    dicts.push_back(DictionaryAttr::get(func->getContext(), kept));
  }
  func.setAllArgAttrs(dicts);
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

namespace {
/// Where an attribute may be placed.
struct Placement {
  StringLiteral name;
  bool module, argument, result;
};

constexpr Placement kPlacements[] = {
    {BatchSize::getNameStr(), true, false, false},
    {Layers::getNameStr(), true, false, false},
    {Build::getNameStr(), true, false, false},
    {Benchmark::getNameStr(), true, false, false},
    {Name::getNameStr(), false, true, true},
    {Layout::getNameStr(), false, true, false},
    {Classes::getNameStr(), false, true, false},
    {Param::getNameStr(), false, true, false},
    {Updates::getNameStr(), false, false, true},
};

const Placement *findPlacement(StringRef name) {
  for (const Placement &p : kPlacements)
    if (p.name == name)
      return &p;
  return nullptr;
}

StringRef describe(const Placement &p) {
  if (p.module)
    return "the module";
  if (p.argument && p.result)
    return "a function argument or result";
  return p.argument ? "a function argument" : "a function result";
}

/// Starts an error about one attribute: "<where>'nn.x' ".
using Emit = llvm::function_ref<InFlightDiagnostic()>;

/// An error unless the attribute is known and `allowed` (null: nowhere)
/// where it is, `here`.
LogicalResult checkPlacement(Emit emit, StringRef name,
                             bool Placement::*allowed, const Twine &here) {
  const Placement *p = findPlacement(name);
  if (!p)
    return emit() << "is not an attribute of the nn dialect";
  if (!allowed || !(p->*allowed))
    return emit() << "belongs on " << describe(*p) << ", not on " << here;
  return success();
}

LogicalResult verifyInteger(Emit emit, Attribute value, int64_t min) {
  auto integer = dyn_cast<IntegerAttr>(value);
  if (!integer || !integer.getType().isSignlessInteger(64))
    return emit() << "must be an i64 integer, got " << value;
  if (integer.getInt() < min)
    return emit() << "must be at least " << min << ", got " << integer.getInt();
  return success();
}

LogicalResult verifyLayers(Emit emit, Attribute value) {
  auto layers = dyn_cast<ArrayAttr>(value);
  if (!layers)
    return emit() << "must be an array of {name, op, shape} dictionaries, got "
                  << value;
  for (auto [i, entry] : llvm::enumerate(layers)) {
    auto layer = dyn_cast<DictionaryAttr>(entry);
    if (!layer)
      return emit() << "entry " << i
                    << " must be a dictionary {name, op, shape}, got " << entry;
    for (StringRef key : {"name", "op"})
      if (!layer.getAs<StringAttr>(key))
        return emit() << "entry " << i << " needs a string '" << key << "'";
    if (!layer.getAs<DenseI64ArrayAttr>("shape"))
      return emit() << "entry " << i << " needs an array<i64> 'shape'";
    for (NamedAttribute key : layer)
      if (!llvm::is_contained(ArrayRef<StringRef>{"name", "op", "shape"},
                              key.getName().getValue()))
        return emit() << "entry " << i << " has an unknown key '"
                      << key.getName().getValue() << "'";
  }
  return success();
}

LogicalResult verifyBuild(Emit emit, Attribute value) {
  auto build = dyn_cast<DictionaryAttr>(value);
  if (!build)
    return emit() << "must be a dictionary of strings, got " << value;
  for (NamedAttribute entry : build)
    if (!isa<StringAttr>(entry.getValue()))
      return emit() << "entry '" << entry.getName().getValue()
                    << "' must be a string, got " << entry.getValue();
  return success();
}

LogicalResult verifyBenchmark(Emit emit, Attribute value) {
  auto benchmark = dyn_cast<StringAttr>(value);
  if (!benchmark ||
      !llvm::is_contained(knownBenchmarks(), benchmark.getValue()))
    return emit() << "must be \"tf_cnn_benchmarks\", got " << value;
  return success();
}

LogicalResult verifyName(Emit emit, Attribute value) {
  auto name = dyn_cast<StringAttr>(value);
  if (!name || name.empty())
    return emit() << "must be a non-empty string, got " << value;
  return success();
}

LogicalResult verifyLayout(Emit emit, Attribute value, Type type) {
  auto layout = dyn_cast<StringAttr>(value);
  if (!layout || (layout.getValue() != "NHWC" && layout.getValue() != "NC"))
    return emit() << "must be \"NHWC\" or \"NC\", got " << value;
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() ||
      shaped.getRank() != (int64_t)layout.size())
    return emit() << layout << " needs a rank-" << layout.size()
                  << " argument, got " << type;
  return success();
}

LogicalResult verifyClasses(Emit emit, Attribute value, Type type) {
  if (failed(verifyInteger(emit, value, 2)))
    return failure();
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() || shaped.getRank() != 1 ||
      !isa<IntegerType>(shaped.getElementType()))
    return emit() << "marks labels, a rank-1 integer argument, not " << type;
  return success();
}

/// The nn.parameter `name` in the nearest symbol table around `func` that
/// has one of that name (a module nested in the model's, such as
/// nnc-nest-call-components makes, holds functions but no parameters).
/// Only the tables' nn.parameter ops are read: functions beside `func` may
/// be changing while it is verified.
ParameterOp lookupParameter(Operation *func, StringAttr name) {
  auto enclosingTable = [](Operation *op) -> Operation * {
    Operation *parent = op->getParentOp();
    return parent ? SymbolTable::getNearestSymbolTable(parent) : nullptr;
  };
  for (Operation *table = enclosingTable(func); table;
       table = enclosingTable(table))
    for (Block &block : table->getRegion(0))
      for (auto param : block.getOps<ParameterOp>())
        if (param.getSymNameAttr() == name)
          return param;
  return {};
}

/// `nn.param` and `nn.updates`: the name of an nn.parameter whose shape and
/// element type `type`, the type of the `what` (argument, result), has.
LogicalResult verifyParamRef(Emit emit, Operation *func, Attribute value,
                             Type type, StringRef what) {
  auto name = dyn_cast<StringAttr>(value);
  if (!name)
    return emit() << "must be a string, got " << value;
  ParameterOp param = lookupParameter(func, name);
  if (!param)
    return emit() << "names '" << name.getValue()
                  << "', which is no nn.parameter of the enclosing module";
  RankedTensorType expected = param.getTensorType();
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() ||
      shaped.getShape() != expected.getShape() ||
      shaped.getElementType() != expected.getElementType())
    return emit() << "names nn.parameter @" << name.getValue() << " of type "
                  << expected << ", but the " << what << " has type " << type;
  return success();
}
} // namespace

LogicalResult NNDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto emit = [&] { return op->emitOpError() << "'" << name << "' "; };
  if (!isa<ModuleOp>(op))
    return checkPlacement(emit, name, nullptr,
                          "'" + op->getName().getStringRef() + "'");
  if (failed(checkPlacement(emit, name, &Placement::module, "the module")))
    return failure();
  if (name == BatchSize::getNameStr())
    return verifyInteger(emit, attr.getValue(), 1);
  if (name == Layers::getNameStr())
    return verifyLayers(emit, attr.getValue());
  if (name == Benchmark::getNameStr())
    return verifyBenchmark(emit, attr.getValue());
  return verifyBuild(emit, attr.getValue());
}

LogicalResult NNDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto emit = [&] {
    return op->emitOpError()
           << "argument " << argIndex << ": '" << name << "' ";
  };
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0)
    return checkPlacement(emit, name, nullptr, "a region argument");
  if (failed(checkPlacement(emit, name, &Placement::argument,
                            "a function argument")))
    return failure();
  Attribute value = attr.getValue();
  Type type = func.getArgumentTypes()[argIndex];
  if (name == Name::getNameStr())
    return verifyName(emit, value);
  if (name == Layout::getNameStr())
    return verifyLayout(emit, value, type);
  if (name == Classes::getNameStr())
    return verifyClasses(emit, value, type);
  if (failed(verifyParamRef(emit, op, value, type, "argument")))
    return failure();
  for (NamedAttribute other : func.getArgAttrs(argIndex))
    if (isNNAttrName(other.getName()) && other.getName() != attr.getName())
      return emit() << "marks a parameter, which takes no '"
                    << other.getName().getValue() << "'";
  return success();
}

LogicalResult NNDialect::verifyRegionResultAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto emit = [&] {
    return op->emitOpError()
           << "result " << resultIndex << ": '" << name << "' ";
  };
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0)
    return checkPlacement(emit, name, nullptr, "a region result");
  if (failed(
          checkPlacement(emit, name, &Placement::result, "a function result")))
    return failure();
  if (name == Name::getNameStr())
    return verifyName(emit, attr.getValue());
  return verifyParamRef(emit, op, attr.getValue(),
                        func.getResultTypes()[resultIndex], "result");
}

ArrayRef<StringLiteral> mlir::nn::knownBenchmarks() {
  static constexpr StringLiteral kBenchmarks[] = {"tf_cnn_benchmarks"};
  return kBenchmarks;
}
