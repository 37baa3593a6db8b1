//===- DataParallel.cpp - a training step across ranks --------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "DataParallel.h"

#include "Entries.h"
#include "Run.h"
#include "Train.h"

#include <csignal>
#include <cstring>
#include <stdexcept>

using namespace nnrt;

namespace {
/// Gradients start on 64-byte boundaries of the flat buffer, as a
/// buffer of their own would.
constexpr int64_t kAlignElements = 16;
} // namespace

bool DataParallelStep::bind(Run &run, std::string &error) {
  ranks = &run.ranks;
  gradients = &run.call;
  Session &session = run.session;
  for (const char *name : {"gradients", "apply_update"})
    if (!session.info().entryPoint(name) || !findEntryPoint(name)) {
      error = "model '" + run.model.name + "' has no '" + name +
              "' entry point, which training across ranks needs: compile "
              "it with an optimizer, without --data-parallel=false";
      return false;
    }
  if (!session.bind("gradients", findEntryPoint("gradients"), *gradients,
                    error) ||
      !session.bind("apply_update", findEntryPoint("apply_update"), apply,
                    error))
    return false;

  Tensor *scale = apply.arg("input", "grad_scale");
  if (!scale || scale->type() != DType::F32 || scale->size() != 1) {
    error = "'apply_update' takes no f32 'grad_scale'";
    return false;
  }
  scale->f32()[0] = 1.0f / static_cast<float>(ranks->size());
  stopTogether();
  if (run.device)
    return true; // the device lays the gradients out in its memory

  // The gradient outputs of one, the gradient inputs of the other: the
  // same slices of one buffer.
  GradientLayout layout;
  if (!layOutGradients(*gradients, apply, kAlignElements, layout, error))
    return false;
  flat = Tensor(DType::F32, {layout.total}, "the gradients of every parameter");
  views.reserve(layout.outputs.size());
  for (size_t k = 0; k < layout.outputs.size(); ++k) {
    Tensor &out = gradients->at(layout.outputs[k]);
    views.push_back(
        Tensor::view(DType::F32, out.shape(), flat.f32() + layout.offsets[k]));
    gradients->rebind(layout.outputs[k], views.back());
    apply.rebind(layout.inputs[k], views.back());
  }
  gradients->setRunner([this] {
    gradients->runHere();
    std::string error;
    if (!ranks->allreduceSum(flat.f32(), flat.size(), "the gradient all-reduce",
                             error))
      throw std::runtime_error(error);
    apply.runHere();
    sumFigures();
  });
  return true;
}

bool DataParallelStep::bindDevice(Run &run, Uploads uploads,
                                  std::string &error) {
  RankLink link;
  link.rank = ranks->rank();
  link.size = ranks->size();
  link.broadcast = [this](void *data, size_t bytes, std::string &error) {
    return ranks->broadcast(data, static_cast<int64_t>(bytes),
                            "the broadcast of the GPUs' communicator id",
                            error);
  };
  if (!run.device->bindAcrossRanks(*gradients, apply, uploads, link, error))
    return false;
  std::function<void()> deviceStep = gradients->currentRunner();
  gradients->setRunner([this, deviceStep] {
    deviceStep();
    sumFigures();
  });
  return true;
}

void DataParallelStep::sumFigures() {
  Tensor *loss = gradients->arg("output", "loss");
  Tensor *correct = gradients->arg("output", "correct");
  double sums[] = {loss ? loss->f32()[0] : 0.0,
                   correct ? double(correct->i32()[0]) : 0.0,
                   signalSeen() ? 1.0 : 0.0};
  std::string error;
  if (!ranks->allreduceSum(sums, 3, "the sum of the ranks' losses", error))
    throw std::runtime_error(error);
  if (loss)
    loss->f32()[0] = static_cast<float>(sums[0] / ranks->size());
  if (correct)
    correct->i32()[0] = static_cast<int32_t>(sums[1]);
  // A signal to any rank stops them all after this same step.
  if (sums[2] > 0 && !interrupted())
    requestStop(signalSeen() ? signalSeen() : SIGTERM);
}

namespace {
/// What must be equal on every rank.
struct Fingerprint {
  uint64_t description; // FNV-1a of the model description
  int64_t batch, steps, warmup, epochs, holdout;
  uint64_t seed;
  int32_t mode;
  char data[16];
  char name[64];
  char runtime[16];
};

uint64_t fnv1a(const char *text) {
  uint64_t h = 1469598103934665603ull;
  for (; *text; ++text)
    h = (h ^ static_cast<unsigned char>(*text)) * 1099511628211ull;
  return h;
}

template <size_t N> void copyText(char (&to)[N], const std::string &from) {
  std::memset(to, 0, N);
  std::strncpy(to, from.c_str(), N - 1);
}

Fingerprint fingerprint(const Run &run) {
  Fingerprint f;
  std::memset(&f, 0, sizeof f);
  const Options &o = run.options;
  f.description = fnv1a(modelDescription());
  f.batch = run.model.batchSize;
  f.steps = o.steps;
  f.warmup = o.warmup;
  f.epochs = o.epochs;
  f.holdout = o.holdout;
  f.seed = o.seed;
  f.mode = static_cast<int32_t>(o.mode);
  copyText(f.data, o.data);
  copyText(f.name, run.model.name);
  copyText(f.runtime, NNC_VERSION);
  return f;
}

std::string flag(const char *name, int64_t value) {
  return std::string("--") + name + "=" + std::to_string(value);
}

/// The first difference of `other` (rank r) from rank 0's `first`.
std::string difference(const Fingerprint &first, const Fingerprint &other,
                       int r) {
  std::string rank = "rank " + std::to_string(r);
  if (std::strcmp(first.runtime, other.runtime) != 0)
    return rank + "'s program has runtime nnrt " + other.runtime +
           ", rank 0's nnrt " + first.runtime +
           ": every rank must run the same program";
  if (first.description != other.description || first.batch != other.batch)
    return rank + " runs model '" + other.name + "' (batch " +
           std::to_string(other.batch) + "), rank 0 model '" + first.name +
           "' (batch " + std::to_string(first.batch) + ")" +
           (first.batch == other.batch &&
                    std::strcmp(first.name, other.name) == 0
                ? ", compiled differently"
                : "") +
           ": every rank must run the same program";
  struct Field {
    const char *name;
    int64_t a, b;
  } fields[] = {{"mode", first.mode, other.mode},
                {"steps", first.steps, other.steps},
                {"warmup", first.warmup, other.warmup},
                {"epochs", first.epochs, other.epochs},
                {"holdout", first.holdout, other.holdout},
                {"seed", static_cast<int64_t>(first.seed),
                 static_cast<int64_t>(other.seed)}};
  for (const Field &f : fields)
    if (f.a != f.b) {
      if (std::strcmp(f.name, "mode") == 0)
        return rank + " was started with --mode=" +
               describe(static_cast<Mode>(f.b)).name +
               ", rank 0 with --mode=" + describe(static_cast<Mode>(f.a)).name +
               ": every rank needs the same flags";
      return rank + " was started with " + flag(f.name, f.b) +
             ", rank 0 with " + flag(f.name, f.a) +
             ": every rank needs the same flags";
    }
  if (std::strcmp(first.data, other.data) != 0)
    return rank + " was started with --data=" + other.data +
           ", rank 0 with --data=" + first.data +
           ": every rank needs the same flags";
  return "";
}
} // namespace

bool nnrt::checkSameRun(Run &run, std::string &error) {
  Fingerprint mine = fingerprint(run);
  std::vector<Fingerprint> all(run.ranks.size());
  if (!run.ranks.allgather(&mine, all.data(), sizeof mine,
                           "the start-up check of the ranks' programs", error))
    return false;
  for (int r = 1; r < run.ranks.size(); ++r) {
    error = difference(all[0], all[r], r);
    if (!error.empty())
      return false;
  }
  return true;
}

bool nnrt::broadcastParameters(Run &run, std::string &error) {
  const ModelInfo &model = run.session.info();
  for (size_t i = 0; i < model.parameters.size(); ++i) {
    Tensor &t = run.session.parameter(i);
    if (!run.ranks.broadcast(t.data(), static_cast<int64_t>(t.bytes()),
                             "the broadcast of rank 0's parameters", error))
      return false;
  }
  return true;
}
