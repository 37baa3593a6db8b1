//===- Graph.h - capturing a step into a CUDA graph -------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). Work enqueued on the compute
// stream is captured once (thread-local mode: only this thread's calls are
// restricted) and the instantiated graph replayed. What was captured must
// have run once uncaptured, so that every plan was chosen and the pool
// holds every block the work allocates.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_GRAPH_H
#define NNRT_CUDA_GRAPH_H

#include "Runtime.h"

#include <functional>
#include <string>

namespace nnrt::cuda {

class StepGraph {
public:
  StepGraph() = default;
  StepGraph(const StepGraph &) = delete;
  StepGraph &operator=(const StepGraph &) = delete;
  ~StepGraph();

  /// Captures what `enqueue` puts on the compute stream and instantiates
  /// it. Nothing runs yet. False with the reason when CUDA refuses.
  bool capture(const std::function<void()> &enqueue, std::string &error);
  bool ready() const { return exec != nullptr; }
  /// Enqueues the captured work on the compute stream.
  bool launch(std::string &error);

private:
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
};

/// Whether steps are captured into graphs: yes unless NNRT_CUDA_GRAPHS=0.
bool graphsEnabled();

} // namespace nnrt::cuda

#endif // NNRT_CUDA_GRAPH_H
