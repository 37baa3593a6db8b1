//===- Layers.cpp - one emitter per .nn layer kind ------------------------===//
//
// Part of nnc. Each emitter reads its options, declares the parameters the
// layer owns (`<layer>.weights`, `<layer>.biases`, ...), checks the result
// shape with the shared shape functions and builds the nn ops.
//
//===----------------------------------------------------------------------===//

#include "ModelGenImpl.h"

#include "nn/IR/ShapeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace nnc;
using namespace nnc::detail;
using llvm::SmallVector;
using llvm::StringRef;

namespace {

/// What an emitter works with.
struct Layer {
  ModelGen &gen;
  CallArgs args;
  StringRef name;
  Location loc;

  OpBuilder &b() { return gen.getBuilder(); }
  MLIRContext *ctx() { return gen.getContext(); }

  FailureOr<Value> input(unsigned i) {
    return gen.lookupTensor(*args.positional()[i]);
  }
  RankedTensorType typeOf(Value v) {
    return cast<RankedTensorType>(v.getType());
  }
  LogicalResult requireRank(Value v, unsigned i, int64_t rank, StringRef layout,
                            StringRef hint = "") {
    RankedTensorType t = typeOf(v);
    if (t.getRank() == rank)
      return success();
    auto diag = args.error(args.positional()[i]->loc)
                << "'" << args.getCall().callee << "' needs a rank-" << rank
                << " input (" << layout << "), but '"
                << args.positional()[i]->name << "' has shape [";
    llvm::interleaveComma(t.getShape(), diag);
    diag << "]" << hint;
    return diag;
  }
};

const StringRef kActivations[] = {"none", "relu", "sigmoid", "tanh", "softmax"};

Value applyActivation(Layer &l, Value x, StringRef act) {
  if (act == "relu")
    return nn::ReluOp::create(l.b(), l.loc, x);
  if (act == "sigmoid")
    return nn::SigmoidOp::create(l.b(), l.loc, x);
  if (act == "tanh")
    return nn::TanhOp::create(l.b(), l.loc, x);
  if (act == "softmax")
    return nn::SoftmaxOp::create(l.b(), l.loc, x.getType(), x,
                                 l.b().getI64IntegerAttr(-1));
  return x;
}

/// `padding=SAME | VALID | SAME_RESNET | [top, bottom, left, right]`.
struct PaddingSpec {
  nn::Padding kind;
  DenseI64ArrayAttr pad;
};

/// TensorFlow's SAME_RESNET (tf_cnn_benchmarks): SAME at stride 1; with a
/// larger stride, (k - 1) / 2 before and the rest after, then VALID.
PaddingSpec sameResNet(Layer &l, ArrayRef<int64_t> window,
                       ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation) {
  if (stride[0] == 1 && stride[1] == 1)
    return PaddingSpec{nn::Padding::Same, nullptr};
  SmallVector<int64_t, 4> pad;
  for (int i = 0; i < 2; ++i) {
    int64_t total = (window[i] - 1) * dilation[i];
    pad.push_back(total / 2);
    pad.push_back(total - total / 2);
  }
  return PaddingSpec{nn::Padding::Explicit, l.b().getDenseI64ArrayAttr(pad)};
}

FailureOr<PaddingSpec> getPadding(Layer &l, nn::Padding def,
                                  ArrayRef<int64_t> window,
                                  ArrayRef<int64_t> stride,
                                  ArrayRef<int64_t> dilation = {1, 1}) {
  const ast::Expr *expr = l.args.get("padding");
  if (!expr)
    return PaddingSpec{def, nullptr};
  if (expr->kind == ast::Expr::Name && expr->name == "SAME")
    return PaddingSpec{nn::Padding::Same, nullptr};
  if (expr->kind == ast::Expr::Name && expr->name == "SAME_RESNET")
    return sameResNet(l, window, stride, dilation);
  if (expr->kind == ast::Expr::Name && expr->name == "VALID")
    return PaddingSpec{nn::Padding::Valid, nullptr};
  if (expr->kind == ast::Expr::List && expr->operands.size() == 4) {
    SmallVector<int64_t, 4> pad;
    for (const auto &e : expr->operands) {
      FailureOr<int64_t> v =
          l.gen.getEvaluator().evalInt(*e, "padding", /*min=*/0);
      if (failed(v))
        return failure();
      pad.push_back(*v);
    }
    return PaddingSpec{nn::Padding::Explicit, l.b().getDenseI64ArrayAttr(pad)};
  }
  return l.args.error(expr->loc)
         << "'padding' must be SAME, VALID, SAME_RESNET or [top, bottom, "
            "left, right]";
}

/// The weights/bias/activation/weight_decay tail shared by conv2d and dense.
LogicalResult finishAffine(Layer &l, Value &y, Attribute biasInit,
                           StringRef act, double decay, int64_t channels) {
  Type elt = l.typeOf(y).getElementType();
  if (biasInit) {
    Value bias = l.gen.createParameter(
        l.name, "biases", RankedTensorType::get({channels}, elt), biasInit,
        /*trainable=*/true, l.loc);
    y = nn::BiasAddOp::create(l.b(), l.loc, y.getType(), y, bias);
  }
  if (decay > 0)
    l.gen.addWeightDecay((l.name + ".weights").str(), decay, l.loc);
  y = applyActivation(l, y, act);
  return success();
}

FailureOr<Value> emitConv2D(Layer &l) {
  if (failed(l.args.check({"filters", "kernel", "stride", "padding", "dilation",
                           "activation", "weights", "bias", "weight_decay"},
                          1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  if (failed(x) || failed(l.requireRank(*x, 0, 4, "NHWC")))
    return failure();
  auto filters = l.args.getInt("filters", std::nullopt, 1);
  auto kernel = l.args.getPair("kernel", std::nullopt);
  auto stride = l.args.getPair("stride", SmallVector<int64_t, 2>{1, 1});
  auto dilation = l.args.getPair("dilation", SmallVector<int64_t, 2>{1, 1});
  auto padding = succeeded(kernel) && succeeded(stride) && succeeded(dilation)
                     ? getPadding(l, nn::Padding::Same, *kernel, *stride,
                                  *dilation)
                     : FailureOr<PaddingSpec>(failure());
  auto act = l.args.getChoice("activation", kActivations, "none");
  auto wInit =
      l.args.getInit("weights", nn::GlorotUniformInitAttr::get(l.ctx()),
                     /*allowNone=*/false);
  auto bInit = l.args.getInit("bias", nn::ZerosInitAttr::get(l.ctx()),
                              /*allowNone=*/true);
  auto decay = l.args.getFloat("weight_decay", 0.0);
  if (failed(filters) || failed(kernel) || failed(stride) || failed(dilation) ||
      failed(padding) || failed(act) || failed(wInit) || failed(bInit) ||
      failed(decay))
    return failure();
  if (*decay < 0)
    return l.args.error(l.args.get("weight_decay")->loc)
           << "'weight_decay' must be >= 0";

  RankedTensorType xType = l.typeOf(*x);
  auto filterType = RankedTensorType::get(
      {(*kernel)[0], (*kernel)[1], xType.getDimSize(3), *filters},
      xType.getElementType());
  std::optional<ArrayRef<int64_t>> pad;
  if (padding->pad)
    pad = padding->pad.asArrayRef();
  auto resultType = nn::inferConv2DType(l.loc, xType, filterType, *stride,
                                        *dilation, padding->kind, pad);
  if (failed(resultType))
    return failure();
  Value w = l.gen.createParameter(l.name, "weights", filterType, *wInit,
                                  /*trainable=*/true, l.loc);
  Value y = nn::Conv2DOp::create(
      l.b(), l.loc, *resultType, *x, w, l.b().getDenseI64ArrayAttr(*stride),
      l.b().getDenseI64ArrayAttr(*dilation),
      nn::PaddingAttr::get(l.ctx(), padding->kind), padding->pad);
  if (failed(finishAffine(l, y, *bInit, *act, *decay, *filters)))
    return failure();
  return y;
}

FailureOr<Value> emitDense(Layer &l) {
  if (failed(l.args.check(
          {"units", "activation", "weights", "bias", "weight_decay"}, 1, 1,
          "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  if (failed(x) || failed(l.requireRank(*x, 0, 2, "batch, features",
                                        "; add a flatten layer before it")))
    return failure();
  auto units = l.args.getInt("units", std::nullopt, 1);
  auto act = l.args.getChoice("activation", kActivations, "none");
  auto wInit =
      l.args.getInit("weights", nn::GlorotUniformInitAttr::get(l.ctx()),
                     /*allowNone=*/false);
  auto bInit = l.args.getInit("bias", nn::ZerosInitAttr::get(l.ctx()),
                              /*allowNone=*/true);
  auto decay = l.args.getFloat("weight_decay", 0.0);
  if (failed(units) || failed(act) || failed(wInit) || failed(bInit) ||
      failed(decay))
    return failure();
  if (*decay < 0)
    return l.args.error(l.args.get("weight_decay")->loc)
           << "'weight_decay' must be >= 0";
  RankedTensorType xType = l.typeOf(*x);
  auto wType = RankedTensorType::get({xType.getDimSize(1), *units},
                                     xType.getElementType());
  auto resultType = nn::inferMatmulType(l.loc, xType, wType, false, false);
  if (failed(resultType))
    return failure();
  Value w = l.gen.createParameter(l.name, "weights", wType, *wInit,
                                  /*trainable=*/true, l.loc);
  Value y = nn::MatmulOp::create(l.b(), l.loc, *resultType, *x, w,
                                 /*transpose_lhs=*/false,
                                 /*transpose_rhs=*/false);
  if (failed(finishAffine(l, y, *bInit, *act, *decay, *units)))
    return failure();
  return y;
}

FailureOr<Value> emitMatmul(Layer &l) {
  if (failed(l.args.check({"transpose_a", "transpose_b"}, 2, 2, "two inputs")))
    return failure();
  FailureOr<Value> a = l.input(0), b = l.input(1);
  auto ta = l.args.getBool("transpose_a", false);
  auto tb = l.args.getBool("transpose_b", false);
  if (failed(a) || failed(b) || failed(ta) || failed(tb))
    return failure();
  auto resultType =
      nn::inferMatmulType(l.loc, l.typeOf(*a), l.typeOf(*b), *ta, *tb);
  if (failed(resultType))
    return failure();
  return Value(
      nn::MatmulOp::create(l.b(), l.loc, *resultType, *a, *b, *ta, *tb));
}

template <typename OpTy> FailureOr<Value> emitElementwise(Layer &l) {
  if (failed(l.args.check({}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  if (failed(x))
    return failure();
  return Value(OpTy::create(l.b(), l.loc, *x));
}

FailureOr<Value> emitSoftmax(Layer &l) {
  if (failed(l.args.check({"axis"}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  auto axis = l.args.getInt("axis", -1, INT64_MIN);
  if (failed(x) || failed(axis))
    return failure();
  auto type = nn::inferSoftmaxType(l.loc, l.typeOf(*x), *axis);
  if (failed(type))
    return failure();
  return Value(nn::SoftmaxOp::create(l.b(), l.loc, *type, *x,
                                     l.b().getI64IntegerAttr(*axis)));
}

template <typename OpTy> FailureOr<Value> emitPool(Layer &l) {
  if (failed(l.args.check({"window", "stride", "padding"}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  if (failed(x) || failed(l.requireRank(*x, 0, 4, "NHWC")))
    return failure();
  auto window = l.args.getPair("window", std::nullopt);
  if (failed(window))
    return failure();
  auto stride = l.args.getPair("stride", *window);
  auto padding = succeeded(stride)
                     ? getPadding(l, nn::Padding::Valid, *window, *stride)
                     : FailureOr<PaddingSpec>(failure());
  if (failed(stride) || failed(padding))
    return failure();
  std::optional<ArrayRef<int64_t>> pad;
  if (padding->pad)
    pad = padding->pad.asArrayRef();
  auto type = nn::inferPool2DType(l.loc, l.args.getCall().callee, l.typeOf(*x),
                                  *window, *stride, padding->kind, pad);
  if (failed(type))
    return failure();
  return Value(
      OpTy::create(l.b(), l.loc, *type, *x, l.b().getDenseI64ArrayAttr(*window),
                   l.b().getDenseI64ArrayAttr(*stride),
                   nn::PaddingAttr::get(l.ctx(), padding->kind), padding->pad));
}

FailureOr<Value> emitLRN(Layer &l) {
  if (failed(l.args.check({"depth_radius", "bias", "alpha", "beta"}, 1, 1,
                          "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  auto radius = l.args.getInt("depth_radius", 5, 0);
  auto bias = l.args.getFloat("bias", 1.0);
  auto alpha = l.args.getFloat("alpha", 1.0);
  auto beta = l.args.getFloat("beta", 0.5);
  if (failed(x) || failed(radius) || failed(bias) || failed(alpha) ||
      failed(beta))
    return failure();
  auto type =
      nn::inferLRNType(l.loc, l.typeOf(*x), *radius, *bias, *alpha, *beta);
  if (failed(type))
    return failure();
  return Value(nn::LRNOp::create(
      l.b(), l.loc, *type, *x, l.b().getI64IntegerAttr(*radius),
      l.b().getF64FloatAttr(*bias), l.b().getF64FloatAttr(*alpha),
      l.b().getF64FloatAttr(*beta)));
}

FailureOr<Value> emitFlatten(Layer &l) {
  if (failed(l.args.check({}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  if (failed(x))
    return failure();
  auto type = nn::inferFlattenType(l.loc, l.typeOf(*x));
  if (failed(type))
    return failure();
  return Value(nn::FlattenOp::create(l.b(), l.loc, *type, *x));
}

FailureOr<Value> emitReshape(Layer &l) {
  if (failed(l.args.check({"shape"}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  auto shape = l.args.getIntList("shape", /*allowInfer=*/true);
  if (failed(x) || failed(shape))
    return failure();
  // Resolve one -1 from the element count.
  int64_t known = 1, count = l.typeOf(*x).getNumElements();
  for (int64_t d : *shape)
    known *= d == -1 ? 1 : d;
  for (int64_t &d : *shape)
    if (d == -1) {
      if (count % known != 0)
        return l.args.error(l.args.get("shape")->loc)
               << "cannot infer the -1 dimension: " << count
               << " elements do not divide by " << known;
      d = count / known;
    }
  auto type = nn::inferReshapeType(l.loc, l.typeOf(*x), *shape);
  if (failed(type))
    return failure();
  return Value(nn::ReshapeOp::create(l.b(), l.loc, *type, *x,
                                     l.b().getDenseI64ArrayAttr(*shape)));
}

FailureOr<Value> emitAdd(Layer &l) {
  if (failed(l.args.check({}, 2, 2, "two inputs")))
    return failure();
  FailureOr<Value> a = l.input(0), b = l.input(1);
  if (failed(a) || failed(b))
    return failure();
  auto type = nn::inferAddType(l.loc, l.typeOf(*a), l.typeOf(*b));
  if (failed(type))
    return failure();
  return Value(nn::AddOp::create(l.b(), l.loc, *type, *a, *b));
}

FailureOr<Value> emitConcat(Layer &l) {
  if (failed(l.args.check({"axis"}, 2, ~0u, "two or more inputs")))
    return failure();
  SmallVector<Value> values;
  SmallVector<RankedTensorType> types;
  for (unsigned i = 0, e = l.args.positional().size(); i < e; ++i) {
    FailureOr<Value> v = l.input(i);
    if (failed(v))
      return failure();
    values.push_back(*v);
    types.push_back(l.typeOf(*v));
  }
  auto axis = l.args.getInt("axis", -1, INT64_MIN);
  if (failed(axis))
    return failure();
  auto type = nn::inferConcatType(l.loc, types, *axis);
  if (failed(type))
    return failure();
  return Value(nn::ConcatOp::create(l.b(), l.loc, *type, values,
                                    l.b().getI64IntegerAttr(*axis)));
}

/// A per-channel vector: a parameter, or a constant when the layer has
/// none (batch_norm without scale or center).
Value channelVector(Layer &l, bool trainable, StringRef suffix,
                    RankedTensorType type, double value) {
  Attribute init =
      value == 0.0
          ? Attribute(nn::ZerosInitAttr::get(l.ctx()))
          : Attribute(nn::ConstantInitAttr::get(l.ctx(), llvm::APFloat(value)));
  if (trainable)
    return l.gen.createParameter(l.name, suffix, type, init, true, l.loc);
  return arith::ConstantOp::create(
      l.b(), l.loc,
      DenseElementsAttr::get(type, FloatAttr::get(type.getElementType(),
                                                  value)));
}

FailureOr<Value> emitBatchNorm(Layer &l) {
  if (failed(l.args.check(
          {"epsilon", "decay", "scale", "center", "activation"}, 1, 1,
          "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  auto epsilon = l.args.getFloat("epsilon", 1e-3);
  auto decay = l.args.getFloat("decay", 0.99);
  auto scale = l.args.getBool("scale", true);
  auto center = l.args.getBool("center", true);
  auto act = l.args.getChoice("activation", kActivations, "none");
  if (failed(x) || failed(epsilon) || failed(decay) || failed(scale) ||
      failed(center) || failed(act))
    return failure();
  if (!(*decay >= 0 && *decay <= 1))
    return l.args.error(l.args.get("decay")->loc)
           << "'decay' must be in [0, 1]";
  RankedTensorType xType = l.typeOf(*x);
  if (xType.getRank() < 2) {
    (void)l.requireRank(*x, 0, 2, "batch, ..., channels");
    return failure();
  }
  auto vecType =
      RankedTensorType::get({xType.getShape().back()}, xType.getElementType());
  RankedTensorType vecs[] = {vecType, vecType, vecType, vecType};
  auto type = nn::inferBatchNormType(l.loc, xType, vecs, *epsilon);
  if (failed(type))
    return failure();
  Value gamma = channelVector(l, *scale, "gamma", vecType, 1.0);
  Value beta = channelVector(l, *center, "beta", vecType, 0.0);
  Attribute zeros = nn::ZerosInitAttr::get(l.ctx());
  Attribute ones = nn::ConstantInitAttr::get(l.ctx(), llvm::APFloat(1.0));
  Value mean = l.gen.createParameter(l.name, "moving_mean", vecType, zeros,
                                     false, l.loc);
  Value var = l.gen.createParameter(l.name, "moving_variance", vecType, ones,
                                    false, l.loc);
  Value y = nn::BatchNormOp::create(
      l.b(), l.loc, *type, *x, gamma, beta, mean, var,
      l.b().getF64FloatAttr(*epsilon), l.b().getF64FloatAttr(*decay));
  return applyActivation(l, y, *act);
}

/// FNV-1a of the layer's name: each dropout layer draws its own mask, the
/// same from one compilation to the next.
int64_t seedOf(StringRef name) {
  uint64_t h = 14695981039346656037ull;
  for (char c : name)
    h = (h ^ uint8_t(c)) * 1099511628211ull;
  return int64_t(h >> 1);
}

FailureOr<Value> emitDropout(Layer &l) {
  if (failed(l.args.check({"rate", "seed"}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  auto rate = l.args.getFloat("rate", std::nullopt);
  auto seed = l.args.getInt("seed", seedOf(l.name), 0);
  if (failed(x) || failed(rate) || failed(seed))
    return failure();
  auto type = nn::inferDropoutType(l.loc, l.typeOf(*x), *rate);
  if (failed(type))
    return failure();
  return Value(nn::DropoutOp::create(l.b(), l.loc, *type, *x,
                                     l.b().getF64FloatAttr(*rate),
                                     l.b().getI64IntegerAttr(*seed)));
}

/// `mean(x, axes=[1, 2])`: ResNet's global average pool.
FailureOr<Value> emitMean(Layer &l) {
  if (failed(l.args.check({"axes"}, 1, 1, "one input")))
    return failure();
  FailureOr<Value> x = l.input(0);
  auto axes = l.args.getIntList("axes", /*allowInfer=*/false);
  if (failed(x) || failed(axes))
    return failure();
  auto type = nn::inferMeanType(l.loc, l.typeOf(*x), *axes);
  if (failed(type))
    return failure();
  return Value(nn::MeanOp::create(l.b(), l.loc, *type, *x,
                                  l.b().getDenseI64ArrayAttr(*axes)));
}

using Emitter = FailureOr<Value> (*)(Layer &);
struct LayerKind {
  StringRef name;
  Emitter emit;
};
const LayerKind kLayers[] = {
    {"conv2d", emitConv2D},
    {"dense", emitDense},
    {"matmul", emitMatmul},
    {"relu", emitElementwise<nn::ReluOp>},
    {"sigmoid", emitElementwise<nn::SigmoidOp>},
    {"tanh", emitElementwise<nn::TanhOp>},
    {"softmax", emitSoftmax},
    {"max_pool", emitPool<nn::MaxPool2DOp>},
    {"avg_pool", emitPool<nn::AvgPool2DOp>},
    {"lrn", emitLRN},
    {"flatten", emitFlatten},
    {"reshape", emitReshape},
    {"add", emitAdd},
    {"concat", emitConcat},
    {"batch_norm", emitBatchNorm},
    {"dropout", emitDropout},
    {"mean", emitMean},
};

/// The closest known name, for "did you mean" hints.
StringRef closest(StringRef name, ArrayRef<StringRef> known) {
  StringRef best;
  unsigned bestDistance = 3; // suggest only near misses
  for (StringRef k : known) {
    unsigned d = name.edit_distance(k, true, bestDistance);
    if (d < bestDistance)
      best = k, bestDistance = d;
  }
  return best;
}

} // namespace

bool nnc::detail::isLayerKind(StringRef name) {
  return llvm::any_of(kLayers,
                      [&](const LayerKind &k) { return k.name == name; });
}

FailureOr<Value> nnc::detail::emitLayer(ModelGen &gen,
                                        const ast::Statement &stmt) {
  const ast::Call &call = *stmt.call;
  const LayerKind *kind = llvm::find_if(
      kLayers, [&](const LayerKind &k) { return k.name == call.callee; });
  if (kind == std::end(kLayers)) {
    SmallVector<StringRef> names;
    for (const LayerKind &k : kLayers)
      names.push_back(k.name);
    auto diag = gen.getEvaluator().error(call.loc)
                << "unknown layer '" << call.callee << "'";
    if (StringRef hint = closest(call.callee, names); !hint.empty())
      diag << "; did you mean '" << hint << "'?";
    else
      diag << "; known layers are " << llvm::join(names, ", ");
    return failure();
  }
  Location loc = gen.getEvaluator().namedLoc(stmt.name, stmt.nameLoc);
  Layer layer{gen, CallArgs(gen.getEvaluator(), call), stmt.name, loc};
  return kind->emit(layer);
}

FailureOr<Value> nnc::detail::emitLossCall(
    ModelGen &gen, const ast::Call &call,
    llvm::function_ref<FailureOr<Value>(const ast::Expr &)> lookup) {
  static const StringRef kLosses[] = {"l2_loss", "sparse_softmax_cross_entropy",
                                      "categorical_cross_entropy"};
  Evaluator &eval = gen.getEvaluator();
  if (!llvm::is_contained(kLosses, call.callee)) {
    auto diag = eval.error(call.loc) << "unknown loss '" << call.callee << "'";
    if (StringRef hint = closest(call.callee, kLosses); !hint.empty())
      diag << "; did you mean '" << hint << "'?";
    else
      diag << "; known losses are "
           << llvm::join(ArrayRef<StringRef>(kLosses), ", ");
    return failure();
  }
  Location loc = NameLoc::get(StringAttr::get(gen.getContext(), "loss"),
                              eval.loc(call.loc));
  OpBuilder &b = gen.getBuilder();
  CallArgs args(eval, call);
  bool isL2 = call.callee == "l2_loss";
  bool isCategorical = call.callee == "categorical_cross_entropy";
  SmallVector<StringRef> keys;
  if (isCategorical)
    keys.push_back("epsilon");
  if (failed(args.check(keys, isL2 ? 1 : 2, isL2 ? 1 : 2,
                        isL2 ? "one input" : "two inputs (scores, labels)")))
    return failure();
  FailureOr<Value> x = lookup(*args.positional()[0]);
  if (failed(x))
    return failure();
  auto xType = cast<RankedTensorType>(x->getType());
  if (!isa<FloatType>(xType.getElementType()))
    return eval.error(args.positional()[0]->loc)
           << "the first argument of '" << call.callee
           << "' must be a layer's output, not labels";
  if (isL2) {
    auto type = nn::inferL2LossType(loc, xType);
    if (failed(type))
      return failure();
    return Value(nn::L2LossOp::create(b, loc, *type, *x));
  }
  FailureOr<Value> y = lookup(*args.positional()[1]);
  if (failed(y))
    return failure();
  auto labelsArg = dyn_cast<BlockArgument>(*y);
  auto yType = cast<RankedTensorType>(y->getType());
  if (!labelsArg || !isa<IntegerType>(yType.getElementType()))
    return eval.error(args.positional()[1]->loc)
           << "the second argument of '" << call.callee
           << "' must be the model's labels";
  auto type = nn::inferClassLossType(loc, call.callee, xType, yType);
  if (failed(type))
    return failure();
  auto func = cast<func::FuncOp>(labelsArg.getOwner()->getParentOp());
  auto classes = nn::getArgClasses(func, labelsArg.getArgNumber());
  if (classes && classes.getInt() != xType.getDimSize(1))
    return eval.error(args.positional()[0]->loc)
           << "'" << args.positional()[0]->name << "' has "
           << xType.getDimSize(1) << " classes but the labels declare "
           << classes.getInt();
  if (!isCategorical)
    return Value(
        nn::SparseSoftmaxCrossEntropyOp::create(b, loc, *type, *x, *y));
  auto epsilon = args.getFloat("epsilon", 1e-7);
  if (failed(epsilon))
    return failure();
  if (!(*epsilon > 0 && *epsilon < 0.5))
    return eval.error(args.get("epsilon")->loc)
           << "'epsilon' must be in (0, 0.5)";
  return Value(nn::CategoricalCrossEntropyOp::create(
      b, loc, *type, *x, *y, b.getF64FloatAttr(*epsilon)));
}
