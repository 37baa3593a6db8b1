//===- Model.cpp - the description of a compiled model --------------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Model.h"

using namespace nnrt;

bool nnrt::exactCount(double value, int64_t &out, int64_t min) {
  if (!(value >= static_cast<double>(min) &&
        value <= static_cast<double>(kMaxElements)) ||
      value != static_cast<double>(static_cast<int64_t>(value)))
    return false;
  out = static_cast<int64_t>(value);
  return true;
}

int64_t nnrt::elementCount(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string nnrt::formatShape(const Shape &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

const EntryPoint *ModelInfo::entryPoint(const std::string &name) const {
  for (const EntryPoint &e : entryPoints)
    if (e.name == name)
      return &e;
  return nullptr;
}

std::string ModelInfo::target() const {
  auto it = build.find("target");
  return it == build.end() ? "cpu" : it->second;
}

std::string ModelInfo::precision() const {
  auto it = build.find("precision");
  return it == build.end() ? "fp32" : it->second;
}

namespace {
/// Reads typed members, remembering the first problem.
struct Fields {
  std::string error;

  const Json *member(const Json &j, const char *key, Json::Kind kind,
                     const std::string &where) {
    const Json *v = j.get(key);
    if (!v || v->kind != kind) {
      if (error.empty())
        error = where + ": missing or malformed '" + key + "'";
      return nullptr;
    }
    return v;
  }
  void fail(const std::string &message) {
    if (error.empty())
      error = message;
  }
  std::string str(const Json &j, const char *key, const std::string &where) {
    const Json *v = member(j, key, Json::String, where);
    return v ? v->string : std::string();
  }
  double num(const Json &j, const char *key, const std::string &where) {
    const Json *v = member(j, key, Json::Number, where);
    return v ? v->number : 0;
  }
  Shape shape(const Json &j, const std::string &where) {
    Shape s;
    if (const Json *v = member(j, "shape", Json::Array, where))
      for (const Json &d : v->array) {
        int64_t n;
        if (d.kind != Json::Number || !exactCount(d.number, n) ||
            (n && elementCount(s) > kMaxElements / n)) {
          if (error.empty())
            error = where + ": malformed shape (dimensions are integers "
                            "with at most 2^53 elements in all)";
          return s;
        }
        s.push_back(n);
      }
    return s;
  }
};

Initializer readInit(Fields &f, const Json &j, const std::string &where) {
  Initializer init;
  init.kind = f.str(j, "kind", where);
  auto opt = [&](const char *key, double &slot) {
    if (const Json *v = j.get(key); v && v->kind == Json::Number)
      slot = v->number;
  };
  opt("value", init.value);
  opt("mean", init.mean);
  opt("stddev", init.stddev);
  opt("min", init.min);
  opt("max", init.max);
  opt("scale", init.scale);
  if (const Json *v = j.get("mode"); v && v->kind == Json::String)
    init.mode = v->string;
  if (const Json *v = j.get("distribution"); v && v->kind == Json::String)
    init.distribution = v->string;
  static const char *kinds[] = {
      "zeros",           "constant",       "normal",        "truncated_normal",
      "uniform",         "glorot_uniform", "glorot_normal", "he_normal",
      "variance_scaling"};
  bool known = false;
  for (const char *k : kinds)
    known |= init.kind == k;
  if (!known && f.error.empty())
    f.error = where + ": unknown initialiser '" + init.kind + "'";
  return init;
}

Parameter readParameter(Fields &f, const Json &p) {
  Parameter param;
  param.name = f.str(p, "name", "parameter");
  std::string where = "parameter '" + param.name + "'";
  param.dtype = f.str(p, "dtype", where);
  param.shape = f.shape(p, where);
  if (const Json *init = f.member(p, "init", Json::Object, where))
    param.init = readInit(f, *init, where);
  if (const Json *t = p.get("trainable"); t && t->kind == Json::Bool)
    param.trainable = t->boolean;
  return param;
}

Argument readArgument(Fields &f, const Json &a, const std::string &where) {
  Argument arg;
  arg.role = f.str(a, "role", where);
  arg.name = f.str(a, "name", where);
  arg.dtype = f.str(a, "dtype", where);
  arg.shape = f.shape(a, where);
  if (const Json *l = a.get("layout"); l && l->kind == Json::String)
    arg.layout = l->string;
  if (const Json *c = a.get("classes");
      c && c->kind == Json::Number && !exactCount(c->number, arg.classes, 1))
    f.fail(where + ": malformed 'classes'");
  return arg;
}

EntryPoint readEntryPoint(Fields &f, const Json &e) {
  EntryPoint entry;
  entry.name = f.str(e, "name", "entry point");
  std::string where = "entry point '" + entry.name + "'";
  entry.symbol = f.str(e, "symbol", where);
  entry.packed = f.str(e, "packed", where);
  if (const Json *args = f.member(e, "args", Json::Array, where))
    for (const Json &a : args->array)
      entry.args.push_back(readArgument(f, a, where));
  if (const Json *flops = e.get("flops");
      flops &&
      (flops->kind != Json::Number || !exactCount(flops->number, entry.flops)))
    f.fail(where + ": malformed 'flops'");
  return entry;
}

Layer readLayer(Fields &f, const Json &l) {
  Layer layer;
  layer.name = f.str(l, "name", "layer");
  layer.op = f.str(l, "op", "layer '" + layer.name + "'");
  layer.shape = f.shape(l, "layer '" + layer.name + "'");
  return layer;
}

/// The members after the interface version: name, batch size, parameters,
/// entry points, and the optional benchmark, layers, build and optimizer.
void readMembers(Fields &f, const Json &root, ModelInfo &out) {
  out.name = f.str(root, "name", "model");
  if (const Json *b = root.get("batch_size");
      b && b->kind == Json::Number && !exactCount(b->number, out.batchSize, 1))
    f.fail("model: malformed 'batch_size'");
  if (root.get("benchmark"))
    out.benchmark = f.str(root, "benchmark", "model");
  if (const Json *params = f.member(root, "parameters", Json::Array, "model"))
    for (const Json &p : params->array)
      out.parameters.push_back(readParameter(f, p));
  if (const Json *entries =
          f.member(root, "entry_points", Json::Array, "model"))
    for (const Json &e : entries->array)
      out.entryPoints.push_back(readEntryPoint(f, e));
  if (const Json *layers = root.get("layers");
      layers && layers->kind == Json::Array)
    for (const Json &l : layers->array)
      out.layers.push_back(readLayer(f, l));
  if (const Json *build = root.get("build");
      build && build->kind == Json::Object)
    for (const auto &[key, value] : build->object)
      if (value.kind == Json::String)
        out.build[key] = value.string;
  if (const Json *o = root.get("optimizer"))
    out.optimizer = *o;
}

/// The build's target and precision, and the benchmark, are ones this
/// runtime knows.
void checkBuild(Fields &f, const ModelInfo &model) {
  std::string target = model.target(), precision = model.precision();
  if (f.error.empty() && target != "cpu" && target != "cuda")
    f.error = "build target '" + target + "' is neither cpu nor cuda";
  if (f.error.empty() && precision != "fp32" && precision != "tf32" &&
      precision != "bf16")
    f.error = "build precision '" + precision + "' is not fp32, tf32 or bf16";
  if (f.error.empty() && !model.benchmark.empty() &&
      model.benchmark != "tf_cnn_benchmarks")
    f.error = "benchmark '" + model.benchmark + "' is not tf_cnn_benchmarks";
}
} // namespace

bool nnrt::readModelInfo(const std::string &text, ModelInfo &out,
                         std::string &error) {
  Json root;
  if (!parseJson(text, root, error)) {
    error = "malformed model description: " + error;
    return false;
  }
  Fields f;
  int64_t interface = 0;
  double version = f.num(root, "interface", "model");
  out.interface = exactCount(version, interface) && interface < 1000
                      ? static_cast<int>(interface)
                      : -1;
  if (!f.error.empty() || out.interface != kInterfaceVersion) {
    error = f.error.empty()
                ? "the model was compiled for interface " +
                      std::to_string(out.interface) + "; this runtime reads " +
                      std::to_string(kInterfaceVersion)
                : f.error;
    return false;
  }
  readMembers(f, root, out);
  checkBuild(f, out);
  if (!f.error.empty()) {
    error = "malformed model description: " + f.error;
    return false;
  }
  return true;
}
