//===- Session.cpp - a compiled model's parameters and calls --------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Session.h"

#include "nnrt/Init.h"

#include <cmath>
#include <cstring>
#include <map>
#include <random>

using namespace nnrt;

Tensor *Call::arg(const std::string &role, const std::string &name) {
  for (size_t i = 0; i < args.size(); ++i)
    if (ep->args[i].role == role && ep->args[i].name == name)
      return args[i];
  return nullptr;
}

Tensor *Call::first(const std::string &role) {
  for (size_t i = 0; i < args.size(); ++i)
    if (ep->args[i].role == role)
      return args[i];
  return nullptr;
}

NamedTensors Call::buffers(const std::string &role) const {
  NamedTensors out;
  for (size_t i = 0; i < args.size(); ++i)
    if (ep->args[i].role == role)
      out.push_back({ep->args[i].name, args[i]});
  return out;
}

bool Session::open(const std::string &json, std::string &error) {
  if (!readModelInfo(json, model, error))
    return false;
  params.clear();
  for (const Parameter &p : model.parameters) {
    DType type;
    if (!parseDType(p.dtype, type)) {
      error = "parameter '" + p.name + "' has element type " + p.dtype +
              ", which this runtime does not handle";
      return false;
    }
    if (type != DType::F32 && p.init.kind != "zeros" &&
        p.init.kind != "constant") {
      error = "parameter '" + p.name + "' of element type " + p.dtype +
              " has the initialiser '" + p.init.kind +
              "'; integer parameters take zeros or constant";
      return false;
    }
    params.emplace_back(type, p.shape, "parameter '" + p.name + "'");
  }
  return true;
}

void Session::initParameters(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = model.parameters[i];
    if (params[i].type() == DType::F32)
      initialize(p.init, p.shape, params[i].f32(), rng);
    else
      fillConstant(params[i], p.init.kind == "zeros" ? 0 : p.init.value);
  }
}

namespace {
/// A whole number that `to` holds exactly, or false.
bool wholeNumber(double v, DType to, int64_t &out) {
  double limit = to == DType::I32 ? 2147483648.0 : 9223372036854775808.0;
  if (!std::isfinite(v) || v != std::trunc(v) || v < -limit || v >= limit)
    return false;
  out = static_cast<int64_t>(v);
  return true;
}

/// Element i of `t` as a double.
double elementAt(const Tensor &t, int64_t i) {
  switch (t.type()) {
  case DType::F32:
    return t.f32()[i];
  case DType::I32:
    return t.i32()[i];
  case DType::I64:
    return static_cast<double>(t.i64()[i]);
  }
  return 0;
}

/// Copies `from` into `to` of the same shape. An array of another element
/// type converts into an integer `to` when every value is a whole number it
/// holds (a step counter saved as f32 by older programs).
bool assign(const Tensor &from, Tensor &to) {
  if (from.type() == to.type()) {
    std::memcpy(to.data(), from.data(), from.bytes());
    return true;
  }
  for (int64_t i = 0; i < from.size(); ++i) {
    int64_t v;
    if (!wholeNumber(elementAt(from, i), to.type(), v))
      return false;
    if (to.type() == DType::I32)
      to.i32()[i] = static_cast<int32_t>(v);
    else
      to.i64()[i] = v;
  }
  return true;
}
} // namespace

NamedTensors Session::parameters() const {
  NamedTensors out;
  for (size_t i = 0; i < params.size(); ++i)
    out.push_back({model.parameters[i].name, &params[i]});
  return out;
}

bool Session::saveParameters(const std::string &path,
                             std::string &error) const {
  return writeNpz(path, parameters(), error);
}

bool Session::loadParameters(const std::string &path, std::string &error,
                             std::vector<std::string> &ignored) {
  std::map<std::string, Tensor> arrays;
  auto isParameter = [&](const std::string &name) {
    for (const Parameter &p : model.parameters)
      if (p.name == name)
        return true;
    return false;
  };
  if (!readNpz(path, arrays, error, isParameter, &ignored))
    return false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = model.parameters[i];
    auto it = arrays.find(p.name);
    if (it == arrays.end()) {
      error = "'" + path + "' has no array for parameter '" + p.name + "'";
      return false;
    }
    const Tensor &array = it->second;
    std::string is = "'" + path + "': '" + p.name + "' is " +
                     dtypeName(array.type()) + formatShape(array.shape()) +
                     "; the model's parameter is " + p.dtype +
                     formatShape(p.shape);
    Tensor converted(params[i].type(), p.shape);
    if (array.shape() != p.shape ||
        (array.type() != converted.type() && converted.type() == DType::F32)) {
      error = is;
      return false;
    }
    if (!assign(array, converted)) {
      error = is + ", and not every value is a whole number it holds";
      return false;
    }
    it->second = std::move(converted);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor &from = arrays[model.parameters[i].name];
    std::memcpy(params[i].data(), from.data(), from.bytes());
  }
  return true;
}

bool Call::rebind(size_t i, Tensor &buffer) {
  if (i >= args.size() || args[i]->type() != buffer.type() ||
      args[i]->shape() != buffer.shape())
    return false;
  args[i] = &buffer;
  descriptors[i] = buffer.descriptor();
  return true;
}

bool Session::bind(const std::string &name, PackedFn fn, Call &call,
                   std::string &error) {
  const EntryPoint *ep = model.entryPoint(name);
  if (!ep || !fn) {
    error = "the model has no '" + name + "' entry point";
    return false;
  }
  call = Call();
  call.ep = ep;
  call.fn = fn;
  call.owned.reserve(ep->args.size());
  size_t nextParam = 0;
  for (const Argument &a : ep->args) {
    if (a.role == "param") {
      if (nextParam >= params.size() ||
          model.parameters[nextParam].name != a.name) {
        error = "entry point '" + name + "' takes parameter '" + a.name +
                "' out of the declared order";
        return false;
      }
      call.args.push_back(&params[nextParam++]);
      continue;
    }
    DType type;
    if (!parseDType(a.dtype, type)) {
      error = "argument '" + a.name + "' of '" + name + "' has element type " +
              a.dtype + ", which this runtime does not handle";
      return false;
    }
    call.owned.emplace_back(type, a.shape,
                            "argument '" + a.name + "' of '" + name + "'");
    call.args.push_back(&call.owned.back());
  }
  for (Tensor *t : call.args)
    call.descriptors.push_back(t->descriptor());
  return true;
}

namespace {
bool isGradient(const Argument &a, const char *role) {
  static const std::string suffix = ".grad";
  return a.role == role && a.name.size() > suffix.size() &&
         a.name.compare(a.name.size() - suffix.size(), suffix.size(), suffix) ==
             0;
}

std::vector<size_t> gradientArgs(Call &call, const char *role) {
  std::vector<size_t> out;
  for (size_t i = 0; i < call.size(); ++i)
    if (isGradient(call.entry().args[i], role))
      out.push_back(i);
  return out;
}
} // namespace

bool nnrt::layOutGradients(Call &gradients, Call &apply, int64_t align,
                           GradientLayout &layout, std::string &error) {
  layout = GradientLayout();
  layout.outputs = gradientArgs(gradients, "output");
  layout.inputs = gradientArgs(apply, "input");
  if (layout.outputs.size() != layout.inputs.size()) {
    error = "'gradients' and 'apply_update' do not take the same gradients";
    return false;
  }
  for (size_t k = 0; k < layout.outputs.size(); ++k) {
    const std::string &name = gradients.entry().args[layout.outputs[k]].name;
    Tensor &out = gradients.at(layout.outputs[k]);
    Tensor &in = apply.at(layout.inputs[k]);
    if (out.type() != DType::F32 ||
        apply.entry().args[layout.inputs[k]].name != name ||
        in.type() != out.type() || in.shape() != out.shape()) {
      error = "gradient '" + name +
              "' is not an f32 tensor that 'apply_update' takes in the same "
              "place and shape";
      return false;
    }
    layout.offsets.push_back(layout.total);
    layout.total += (out.size() + align - 1) / align * align;
  }
  return true;
}
