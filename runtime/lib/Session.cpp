//===- Session.cpp - a compiled model's parameters and calls --------------===//
//
// Part of nnc's runtime (libnnrt).
//
//===----------------------------------------------------------------------===//

#include "nnrt/Session.h"

#include "nnrt/Init.h"

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
    params.emplace_back(type, p.shape);
  }
  return true;
}

void Session::initParameters(uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < params.size(); ++i)
    initialize(model.parameters[i].init, model.parameters[i].shape,
               params[i].f32(), rng);
}

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
  if (!readNpz(path, arrays, error))
    return false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = model.parameters[i];
    auto it = arrays.find(p.name);
    if (it == arrays.end()) {
      error = "'" + path + "' has no array for parameter '" + p.name + "'";
      return false;
    }
    if (it->second.shape() != p.shape ||
        it->second.type() != params[i].type()) {
      error = "'" + path + "': '" + p.name + "' is " +
              dtypeName(it->second.type()) + formatShape(it->second.shape()) +
              "; the model's parameter is " + p.dtype + formatShape(p.shape);
      return false;
    }
  }
  for (size_t i = 0; i < params.size(); ++i) {
    Tensor &from = arrays[model.parameters[i].name];
    std::memcpy(params[i].data(), from.data(), from.bytes());
    arrays.erase(model.parameters[i].name);
  }
  for (const auto &[name, tensor] : arrays)
    ignored.push_back(name);
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
    call.owned.emplace_back(type, a.shape);
    call.args.push_back(&call.owned.back());
  }
  for (Tensor *t : call.args)
    call.descriptors.push_back(t->descriptor());
  return true;
}
