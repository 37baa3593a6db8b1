//===- Graph.cpp - capturing a step into a CUDA graph ---------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a).
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include <cstdlib>
#include <cstring>

using namespace nnrt::cuda;

StepGraph::~StepGraph() {
  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
}

static bool failed(cudaError_t status, const char *call, std::string &error) {
  if (status == cudaSuccess)
    return false;
  error = std::string(call) + ": " + cudaGetErrorString(status);
  return true;
}

bool StepGraph::capture(const std::function<void()> &enqueue,
                        std::string &error) {
  cudaStream_t s = stream();
  if (failed(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal),
             "cudaStreamBeginCapture", error))
    return false;
  enqueue();
  cudaGraph_t captured = nullptr;
  if (failed(cudaStreamEndCapture(s, &captured), "cudaStreamEndCapture",
             error)) {
    cudaGetLastError();
    return false;
  }
  cudaGraphExec_t instance = nullptr;
  if (failed(cudaGraphInstantiate(&instance, captured, 0),
             "cudaGraphInstantiate", error)) {
    cudaGraphDestroy(captured);
    cudaGetLastError();
    return false;
  }
  if (exec)
    cudaGraphExecDestroy(exec);
  if (graph)
    cudaGraphDestroy(graph);
  graph = captured;
  exec = instance;
  return true;
}

bool StepGraph::launch(std::string &error) {
  return !failed(cudaGraphLaunch(exec, stream()), "cudaGraphLaunch", error);
}

bool nnrt::cuda::graphsEnabled() {
  const char *v = std::getenv("NNRT_CUDA_GRAPHS");
  return !v || std::strcmp(v, "0") != 0;
}
