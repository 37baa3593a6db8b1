//===- ConvPlan.h - choosing and caching convolution plans ------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). A convolution (forward, backward
// data or backward filter) becomes a one-operation cuDNN graph: NHWC
// activations, KRSC filters (the runtime transposes TensorFlow's HWIO
// filters into pool scratch), float compute. On the first call of each
// configuration the heuristics propose engines (mode A, else FALLBACK),
// those that `math` forbids are dropped, the first few that build are
// timed on the stream and the fastest is kept with its workspace size.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_CONVPLAN_H
#define NNRT_CUDA_CONVPLAN_H

#include "CudnnGraph.h"

#include <string>
#include <vector>

namespace nnrt::cuda {

enum class ConvKind { Forward, BackwardData, BackwardFilter };

/// The tensors of the operation graph: x (or dx), the KRSC filter (or its
/// gradient), y (or dy).
enum ConvTensor : int64_t { kConvX = 1, kConvW = 2, kConvY = 3 };

struct ConvProblem {
  ConvKind kind = ConvKind::Forward;
  int64_t n = 0, h = 0, w = 0, c = 0; // activations x / dx
  int64_t kh = 0, kw = 0, f = 0;      // filter
  int64_t oh = 0, ow = 0;             // activations y / dy
  int64_t stride[2] = {1, 1}, dilation[2] = {1, 1}, pad[2] = {0, 0};
  int64_t math = 0;
  int64_t alignX = 256, alignW = 256, alignY = 256;

  /// Everything a plan depends on.
  std::vector<int64_t> key() const;
  /// "x [N, H, W, C], w [KH, KW, C, F], y [N, OH, OW, F], stride 1x1,
  /// dilation 1x1, padding 0x0, fp32" (with the kind's operand names).
  std::string describe() const;
};

struct ConvPlan {
  std::vector<BackendDesc> parts; // tensors, operation, graph: kept alive
  BackendDesc config, plan;
  int64_t workspace = 0;
};

/// Whether an engine with these numerical notes may run in mode `math`.
bool engineAllowed(const std::vector<cudnnBackendNumericalNote_t> &notes,
                   int64_t math);

/// The plan of `p`; on first use it is built and its engine chosen by
/// timing the candidates on the data at `pointers` (x, filter, y by
/// ConvTensor), which they may overwrite. Never during a graph capture.
const ConvPlan &convPlan(const ConvProblem &p,
                         const std::vector<void *> &pointers, const Site &site);

} // namespace nnrt::cuda

#endif // NNRT_CUDA_CONVPLAN_H
