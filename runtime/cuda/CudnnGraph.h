//===- CudnnGraph.h - cuDNN's graph (backend) API, owned --------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt_cuda.a). Owned backend descriptors and the
// few steps every operation graph goes through: tensors, heuristics,
// numerical notes, execution plans and their execution.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_CUDA_CUDNNGRAPH_H
#define NNRT_CUDA_CUDNNGRAPH_H

#include "Runtime.h"

#include <vector>

namespace nnrt::cuda {

class BackendDesc {
public:
  BackendDesc() = default;
  /// Creates a descriptor; the call fails at `site` when cuDNN cannot.
  BackendDesc(cudnnBackendDescriptorType_t type, const Site &site);
  BackendDesc(BackendDesc &&other) noexcept : d(other.d) { other.d = nullptr; }
  BackendDesc &operator=(BackendDesc &&other) noexcept;
  BackendDesc(const BackendDesc &) = delete;
  BackendDesc &operator=(const BackendDesc &) = delete;
  ~BackendDesc();

  cudnnBackendDescriptor_t get() const { return d; }
  explicit operator bool() const { return d != nullptr; }

  /// Sets an attribute; the call fails at `site` when cuDNN refuses.
  void set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type,
           int64_t count, const void *values, const Site &site);
  void set(cudnnBackendAttributeName_t name, const BackendDesc &value,
           const Site &site);
  void setInt(cudnnBackendAttributeName_t name,
              const std::vector<int64_t> &values, const Site &site);
  /// The status is returned: some finalizations may fail (unsupported
  /// engine configurations).
  cudnnStatus_t finalize();

private:
  cudnnBackendDescriptor_t d = nullptr;
};

/// A finalized tensor of `uid` with logical dims in NCHW order (the
/// strides give the memory layout) and the byte alignment of its data.
BackendDesc tensorDesc(int64_t uid, cudnnDataType_t type,
                       const std::vector<int64_t> &dims,
                       const std::vector<int64_t> &strides, int64_t alignment,
                       const Site &site);

/// A finalized operation graph of one operation on the runtime's handle.
BackendDesc operationGraph(const BackendDesc &op, const Site &site);

/// The engine configurations heuristics `mode` proposes, best first; none
/// when the mode has no answer for this graph.
std::vector<BackendDesc> engineConfigs(const BackendDesc &graph,
                                       cudnnBackendHeurMode_t mode,
                                       const Site &site);

/// The numerical notes of the engine of `config`.
std::vector<cudnnBackendNumericalNote_t>
numericalNotes(const BackendDesc &config, const Site &site);

/// The execution plan of `config` on the runtime's handle; empty when cuDNN
/// cannot finalize it (the configuration does not fit this device).
BackendDesc executionPlan(const BackendDesc &config, const Site &site);
int64_t workspaceSize(const BackendDesc &plan, const Site &site);

/// Enqueues `plan` on the compute stream with the data pointers of the
/// tensors `uids` and `workspace`.
cudnnStatus_t execute(const BackendDesc &plan, const std::vector<int64_t> &uids,
                      const std::vector<void *> &pointers, void *workspace,
                      const Site &site);

} // namespace nnrt::cuda

#endif // NNRT_CUDA_CUDNNGRAPH_H
