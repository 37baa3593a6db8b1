//===- Session.h - a compiled model's parameters and calls ------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Owns the parameters of a compiled model
// (initialised, loaded or saved) and binds buffers to its entry points in
// the order the description gives (docs/interface.md).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_SESSION_H
#define NNRT_SESSION_H

#include "nnrt/Model.h"
#include "nnrt/Npz.h"
#include "nnrt/Tensor.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nnrt {

/// The packed form of every entry point: `args[i]` is the i-th descriptor.
using PackedFn = void (*)(void **args);

/// One entry point with its arguments bound: parameters are the session's,
/// every other argument is a buffer the call owns.
class Call {
public:
  const EntryPoint &entry() const { return *ep; }
  /// The buffer of the argument named `name` with `role`, or nullptr.
  Tensor *arg(const std::string &role, const std::string &name);
  /// The first argument with `role`, or nullptr.
  Tensor *first(const std::string &role);
  /// Every non-parameter argument with its name, for saving.
  NamedTensors buffers(const std::string &role) const;

  /// The arguments in order (entry().args[i] describes at(i)).
  size_t size() const { return args.size(); }
  Tensor &at(size_t i) { return *args[i]; }
  PackedFn function() const { return fn; }
  /// Makes the i-th argument `buffer` (of the same shape and type), which
  /// must outlive the call: two calls then share it.
  bool rebind(size_t i, Tensor &buffer);

  /// Runs the entry point on the host buffers, or through the runner a
  /// device installed (nnrt/Device.h).
  void run() {
    if (runner)
      runner();
    else
      fn(descriptors.data());
  }
  void setRunner(std::function<void()> r) { runner = std::move(r); }
  const std::function<void()> &currentRunner() const { return runner; }
  /// Runs the compiled entry point on the host buffers, whatever runner is
  /// installed.
  void runHere() { fn(descriptors.data()); }

private:
  friend class Session;
  const EntryPoint *ep = nullptr;
  PackedFn fn = nullptr;
  std::function<void()> runner;
  std::vector<Tensor *> args; // in order; parameters point into the session
  std::vector<Tensor> owned;
  std::vector<void *> descriptors;
};

class Session {
public:
  /// Reads the model description. False with a message if it is malformed.
  bool open(const std::string &json, std::string &error);
  const ModelInfo &info() const { return model; }

  /// Every parameter initialised as the model says, from `seed`.
  void initParameters(uint64_t seed);
  /// Replaces parameters with the arrays of an .npz archive of the same
  /// names and shapes; every parameter must be present. Arrays that are not
  /// parameters are reported in `ignored`.
  bool loadParameters(const std::string &path, std::string &error,
                      std::vector<std::string> &ignored);
  bool saveParameters(const std::string &path, std::string &error) const;
  NamedTensors parameters() const;
  /// The i-th parameter's host buffer, in declaration order.
  Tensor &parameter(size_t i) { return params[i]; }

  /// Binds entry point `name` (implemented by `fn`).
  bool bind(const std::string &name, PackedFn fn, Call &call,
            std::string &error);

private:
  ModelInfo model;
  std::vector<Tensor> params;
};

/// The gradients of a data-parallel step (docs/distributed.md): the f32
/// outputs of `gradients` and inputs of `apply_update` named
/// `<param>.grad`, paired in order, and each one's slice of one flat
/// buffer that holds them all, starting on a multiple of `align` elements.
struct GradientLayout {
  std::vector<size_t> outputs;  ///< argument indices in `gradients`
  std::vector<size_t> inputs;   ///< the same gradients' in `apply_update`
  std::vector<int64_t> offsets; ///< in elements of the flat buffer
  int64_t total = 0;            ///< its elements
};
/// False with the reason when the two calls do not pass the same
/// gradients (names, order, shapes, f32).
bool layOutGradients(Call &gradients, Call &apply, int64_t align,
                     GradientLayout &layout, std::string &error);

} // namespace nnrt

#endif // NNRT_SESSION_H
