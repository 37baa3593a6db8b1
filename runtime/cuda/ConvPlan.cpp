//===- ConvPlan.cpp - choosing and caching convolution plans --------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a).
//
//===----------------------------------------------------------------------===//

#include "ConvPlan.h"
#include "Pool.h"

#include <limits>
#include <map>
#include <memory>

using namespace nnrt::cuda;

namespace {
// Engines timed on a configuration's first call, and runs timed of each.
constexpr size_t kCandidates = 4;
constexpr int kTimedRuns = 3;

std::string shape(std::initializer_list<int64_t> dims) {
  std::string s = "[";
  for (int64_t d : dims)
    s += (s.size() > 1 ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// The strides of logical NCHW dims laid out NHWC (KRSC for filters).
std::vector<int64_t> nhwc(int64_t c, int64_t h, int64_t w) {
  return {h * w * c, 1, w * c, c};
}

struct Candidate {
  BackendDesc config, plan;
  int64_t workspace;
};

/// The workspace an engine may ask for: a quarter of the free memory.
size_t workspaceLimit() {
  size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return size_t(256) << 20;
  }
  return free / 4;
}

BackendDesc convolution(const ConvProblem &p, const Site &site) {
  BackendDesc conv(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, site);
  cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  conv.set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute,
           site);
  conv.set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1,
           &mode, site);
  conv.setInt(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, {2}, site);
  conv.setInt(CUDNN_ATTR_CONVOLUTION_DILATIONS, {p.dilation[0], p.dilation[1]},
              site);
  conv.setInt(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, {p.stride[0], p.stride[1]},
              site);
  conv.setInt(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, {p.pad[0], p.pad[1]}, site);
  conv.setInt(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, {p.pad[0], p.pad[1]}, site);
  check(conv.finalize(), "cudnnBackendFinalize (convolution)", site);
  return conv;
}

/// The operation's tensors, convolution, operation and graph (last).
std::vector<BackendDesc> buildGraph(const ConvProblem &p, const Site &site) {
  cudnnDataType_t type = p.math == 2 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT;
  std::vector<BackendDesc> parts;
  parts.push_back(tensorDesc(kConvX, type, {p.n, p.c, p.h, p.w},
                             nhwc(p.c, p.h, p.w), p.alignX, site));
  parts.push_back(tensorDesc(kConvW, type, {p.f, p.c, p.kh, p.kw},
                             nhwc(p.c, p.kh, p.kw), p.alignW, site));
  parts.push_back(tensorDesc(kConvY, type, {p.n, p.f, p.oh, p.ow},
                             nhwc(p.f, p.oh, p.ow), p.alignY, site));
  parts.push_back(convolution(p, site));
  const BackendDesc &x = parts[0], &w = parts[1], &y = parts[2],
                    &conv = parts[3];

  struct Attributes {
    cudnnBackendDescriptorType_t type;
    cudnnBackendAttributeName_t x, w, y, conv, alpha, beta;
  };
  static const Attributes kinds[] = {
      {CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA},
      {CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA},
      {CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA}};
  const Attributes &a = kinds[static_cast<int>(p.kind)];
  BackendDesc op(a.type, site);
  float alpha = 1, beta = 0;
  op.set(a.x, x, site);
  op.set(a.w, w, site);
  op.set(a.y, y, site);
  op.set(a.conv, conv, site);
  op.set(a.alpha, CUDNN_TYPE_FLOAT, 1, &alpha, site);
  op.set(a.beta, CUDNN_TYPE_FLOAT, 1, &beta, site);
  check(op.finalize(), "cudnnBackendFinalize (convolution operation)", site);
  BackendDesc graph = operationGraph(op, site);
  parts.push_back(std::move(op));
  parts.push_back(std::move(graph));
  return parts;
}

std::vector<Candidate> candidates(const ConvProblem &p,
                                  const BackendDesc &graph, const Site &site) {
  std::vector<Candidate> found;
  size_t limit = workspaceLimit();
  for (cudnnBackendHeurMode_t mode :
       {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    for (BackendDesc &config : engineConfigs(graph, mode, site)) {
      if (!engineAllowed(numericalNotes(config, site), p.math))
        continue;
      BackendDesc plan = executionPlan(config, site);
      if (!plan)
        continue;
      int64_t workspace = workspaceSize(plan, site);
      if (workspace < 0 || static_cast<size_t>(workspace) > limit)
        continue;
      found.push_back({std::move(config), std::move(plan), workspace});
      if (found.size() == kCandidates)
        return found;
    }
    if (!found.empty())
      break;
  }
  return found;
}

/// The index of the fastest candidate on the data at `pointers`, or
/// all.size() when none runs.
size_t fastest(const std::vector<Candidate> &all,
               const std::vector<void *> &pointers, const Site &site) {
  // The timing workspace is the largest any candidate needs; it comes from
  // CUDA, not the pool, and goes back at once, so the pool never caches a
  // block that only the search used.
  int64_t most = 0;
  for (const Candidate &c : all)
    most = std::max(most, c.workspace);
  void *workspace = nullptr;
  if (most &&
      cudaMalloc(&workspace, static_cast<size_t>(most)) != cudaSuccess) {
    cudaGetLastError();
    workspace = nullptr, most = 0; // time the engines that need none
  }
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate", site);
  check(cudaEventCreate(&stop), "cudaEventCreate", site);
  std::vector<int64_t> uids = {kConvX, kConvW, kConvY};
  float best = std::numeric_limits<float>::infinity();
  size_t chosen = all.size(), untimed = all.size();
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].workspace > most) {
      untimed = std::min(untimed, i);
      continue;
    }
    // A first run loads the engine's kernels; it is not timed.
    if (execute(all[i].plan, uids, pointers, workspace, site) !=
        CUDNN_STATUS_SUCCESS)
      continue;
    check(cudaEventRecord(start, stream()), "cudaEventRecord", site);
    for (int r = 0; r < kTimedRuns; ++r)
      execute(all[i].plan, uids, pointers, workspace, site);
    check(cudaEventRecord(stop, stream()), "cudaEventRecord", site);
    check(cudaEventSynchronize(stop), "cudaEventSynchronize", site);
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime", site);
    if (ms < best)
      best = ms, chosen = i;
  }
  check(cudaEventDestroy(start), "cudaEventDestroy", site);
  check(cudaEventDestroy(stop), "cudaEventDestroy", site);
  if (workspace)
    check(cudaFree(workspace), "cudaFree", site);
  // When none ran, the best engine there was no memory to time.
  return chosen < all.size() ? chosen : untimed;
}
} // namespace

std::vector<int64_t> ConvProblem::key() const {
  return {static_cast<int64_t>(kind),
          n,
          h,
          w,
          c,
          kh,
          kw,
          f,
          oh,
          ow,
          stride[0],
          stride[1],
          dilation[0],
          dilation[1],
          pad[0],
          pad[1],
          math,
          alignX,
          alignW,
          alignY};
}

std::string ConvProblem::describe() const {
  std::string x = shape({n, h, w, c}), filter = shape({kh, kw, c, f}),
              y = shape({n, oh, ow, f});
  std::string operands = kind == ConvKind::Forward
                             ? "x " + x + ", w " + filter + ", y " + y
                         : kind == ConvKind::BackwardData
                             ? "dy " + y + ", w " + filter + ", dx " + x
                             : "x " + x + ", dy " + y + ", dw " + filter;
  auto pair = [](const int64_t v[2]) {
    return std::to_string(v[0]) + "x" + std::to_string(v[1]);
  };
  static const char *modes[] = {"fp32", "tf32", "bf16"};
  return operands + ", stride " + pair(stride) + ", dilation " +
         pair(dilation) + ", padding " + pair(pad) + ", " +
         (math >= 0 && math <= 2 ? modes[math] : "?");
}

bool nnrt::cuda::engineAllowed(
    const std::vector<cudnnBackendNumericalNote_t> &notes, int64_t math) {
  for (cudnnBackendNumericalNote_t note : notes) {
    // Every mode accumulates in f32; strict fp32 also keeps its inputs.
    if (note == CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION)
      return false;
    if (math == 0 && note == CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS)
      return false;
  }
  return true;
}

const ConvPlan &nnrt::cuda::convPlan(const ConvProblem &p,
                                     const std::vector<void *> &pointers,
                                     const Site &site) {
  static auto *cache =
      new std::map<std::vector<int64_t>, std::unique_ptr<ConvPlan>>;
  std::vector<int64_t> key = p.key();
  auto it = cache->find(key);
  if (it != cache->end())
    return *it->second;
  if (capturing())
    fail(site, "a convolution first seen while a CUDA graph is being "
               "captured (" +
                   p.describe() +
                   "); the runtime chooses plans on the first, uncaptured "
                   "call of each configuration");
  auto plan = std::make_unique<ConvPlan>();
  plan->parts = buildGraph(p, site);
  std::vector<Candidate> all = candidates(p, plan->parts.back(), site);
  if (all.empty())
    fail(site, "no cuDNN engine supports this convolution: " + p.describe());
  size_t chosen = all.size() == 1 ? 0 : fastest(all, pointers, site);
  if (chosen == all.size())
    fail(site, "every cuDNN engine proposed for this convolution failed: " +
                   p.describe());
  plan->config = std::move(all[chosen].config);
  plan->plan = std::move(all[chosen].plan);
  plan->workspace = all[chosen].workspace;
  return *cache->emplace(std::move(key), std::move(plan)).first->second;
}
