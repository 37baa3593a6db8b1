//===- Device.h - an accelerator that runs a compiled model -----*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). A model compiled for a device
// (`build.target` "cuda") runs its entry points there: the parameters live
// in device memory across steps, every entry-point argument has a device
// buffer, and the host tensors of a Session and its Calls are mirrors that
// the device fills on request. The CUDA runtime (libnnrt_cuda.a,
// docs/cuda-runtime.md) provides one; libnnrt itself never touches a device.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_DEVICE_H
#define NNRT_DEVICE_H

#include "nnrt/Json.h"
#include "nnrt/Session.h"

#include <functional>
#include <string>

namespace nnrt {

/// Which arguments of an entry point a device uploads again before every
/// run after the first; all of them go up on the first.
enum class Uploads {
  Once,      ///< synthetic inputs and labels stay on the device
  Labels,    ///< tf_cnn_benchmarks: the images stay, new labels every step
  EveryStep, ///< real data: inputs and labels every step
};

/// Whether an argument of `role` ("input", "labels", ...) is uploaded on
/// every run under `uploads`.
inline bool uploadsEveryStep(Uploads uploads, const std::string &role) {
  if (role != "input" && role != "labels")
    return false;
  return uploads == Uploads::EveryStep ||
         (uploads == Uploads::Labels && role == "labels");
}

/// What a device needs of the other processes of a data-parallel run
/// (runtime/main/DataParallel.h).
struct RankLink {
  int rank = 0, size = 1;
  /// Rank 0's `bytes` bytes at `data` into every rank's `data`.
  std::function<bool(void *data, size_t bytes, std::string &error)> broadcast;
};

class Device {
public:
  virtual ~Device() = default;

  /// Initialises the device. False with the reason when none is usable; no
  /// other member may be called then.
  virtual bool open(std::string &error) = 0;

  /// Uploads the session's parameters (initialised or loaded on the host);
  /// from then on the device copy is the one that training updates.
  virtual bool attach(Session &session, std::string &error) = 0;

  /// Gives every argument of `call` a device buffer and makes `call.run()`
  /// execute the entry point on the device: inputs and labels are uploaded
  /// on the first run, and again before every later run as `uploads` says
  /// (into the same buffers, which a replayed CUDA graph reads); the
  /// outputs a step reports (`loss`, `correct`) come back after each run.
  virtual bool bind(Call &call, Uploads uploads, std::string &error) = 0;

  /// Data-parallel training: like bind() for both calls, but the gradient
  /// outputs of `gradients` and the gradient inputs of `apply` (arguments
  /// named `<param>.grad`) are one device buffer, which a collective engine
  /// of the device sums across the ranks of `link` between the two calls.
  /// `gradients.run()` then runs the whole step (captured in one graph
  /// where the device has them); its `loss` and `correct` are this rank's.
  virtual bool bindAcrossRanks(Call &gradients, Call &apply, Uploads uploads,
                               const RankLink &link, std::string &error) = 0;
  /// Copies the device's parameters into the session (before saving).
  virtual void downloadParameters() = 0;
  /// Copies every output of `call` into its host buffers (before dumping).
  virtual void downloadOutputs(Call &call) = 0;

  /// The device for the run's JSON record.
  virtual Json describe() = 0;
};

} // namespace nnrt

// libnnrt_cuda.a defines `extern "C" nnrt::Device *nnrt_cuda_device()`, the
// CUDA device. The bench program declares it weak, so that CPU builds link
// without CUDA and a CUDA build finds it.

#endif // NNRT_DEVICE_H
