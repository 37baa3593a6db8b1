//===- CudnnGraph.cpp - cuDNN's graph (backend) API, owned ----------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). The operation graph and the
// execution plan are tied to the runtime's handle through their HANDLE
// attributes, which every cuDNN 9 release reads (9.19 deprecates them in
// favour of device-property descriptors, which older 9.x lack).
//
//===----------------------------------------------------------------------===//

#include "CudnnGraph.h"

#include <algorithm>

using namespace nnrt::cuda;

BackendDesc::BackendDesc(cudnnBackendDescriptorType_t type, const Site &site) {
  check(cudnnBackendCreateDescriptor(type, &d), "cudnnBackendCreateDescriptor",
        site);
}

BackendDesc &BackendDesc::operator=(BackendDesc &&other) noexcept {
  if (this != &other) {
    if (d)
      cudnnBackendDestroyDescriptor(d);
    d = other.d;
    other.d = nullptr;
  }
  return *this;
}

BackendDesc::~BackendDesc() {
  if (d)
    cudnnBackendDestroyDescriptor(d);
}

void BackendDesc::set(cudnnBackendAttributeName_t name,
                      cudnnBackendAttributeType_t type, int64_t count,
                      const void *values, const Site &site) {
  check(cudnnBackendSetAttribute(d, name, type, count, values),
        "cudnnBackendSetAttribute", site);
}

void BackendDesc::set(cudnnBackendAttributeName_t name,
                      const BackendDesc &value, const Site &site) {
  cudnnBackendDescriptor_t v = value.get();
  set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v, site);
}

void BackendDesc::setInt(cudnnBackendAttributeName_t name,
                         const std::vector<int64_t> &values, const Site &site) {
  set(name, CUDNN_TYPE_INT64, static_cast<int64_t>(values.size()),
      values.data(), site);
}

cudnnStatus_t BackendDesc::finalize() { return cudnnBackendFinalize(d); }

BackendDesc nnrt::cuda::tensorDesc(int64_t uid, cudnnDataType_t type,
                                   const std::vector<int64_t> &dims,
                                   const std::vector<int64_t> &strides,
                                   int64_t alignment, const Site &site) {
  BackendDesc t(CUDNN_BACKEND_TENSOR_DESCRIPTOR, site);
  t.set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type, site);
  t.setInt(CUDNN_ATTR_TENSOR_DIMENSIONS, dims, site);
  t.setInt(CUDNN_ATTR_TENSOR_STRIDES, strides, site);
  t.setInt(CUDNN_ATTR_TENSOR_UNIQUE_ID, {uid}, site);
  t.setInt(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, {alignment}, site);
  check(t.finalize(), "cudnnBackendFinalize (tensor)", site);
  return t;
}

BackendDesc nnrt::cuda::operationGraph(const BackendDesc &op,
                                       const Site &site) {
  BackendDesc graph(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, site);
  graph.set(CUDNN_ATTR_OPERATIONGRAPH_OPS, op, site);
  cudnnHandle_t handle = cudnn();
  graph.set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle,
            site);
  check(graph.finalize(), "cudnnBackendFinalize (operation graph)", site);
  return graph;
}

std::vector<BackendDesc> nnrt::cuda::engineConfigs(const BackendDesc &graph,
                                                   cudnnBackendHeurMode_t mode,
                                                   const Site &site) {
  std::vector<BackendDesc> configs;
  BackendDesc heur(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, site);
  heur.set(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph, site);
  heur.set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode, site);
  if (heur.finalize() != CUDNN_STATUS_SUCCESS)
    return configs;
  int64_t count = 0;
  if (cudnnBackendGetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                               CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count,
                               nullptr) != CUDNN_STATUS_SUCCESS ||
      count <= 0)
    return configs;
  // The results are copied into descriptors the caller created.
  std::vector<cudnnBackendDescriptor_t> raw;
  for (int64_t i = 0; i < count; ++i) {
    configs.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, site);
    raw.push_back(configs.back().get());
  }
  int64_t returned = 0;
  check(cudnnBackendGetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                 CUDNN_TYPE_BACKEND_DESCRIPTOR, count,
                                 &returned, raw.data()),
        "cudnnBackendGetAttribute (heuristic results)", site);
  configs.resize(static_cast<size_t>(std::max<int64_t>(0, returned)));
  return configs;
}

std::vector<cudnnBackendNumericalNote_t>
nnrt::cuda::numericalNotes(const BackendDesc &config, const Site &site) {
  std::vector<cudnnBackendNumericalNote_t> notes;
  BackendDesc engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR, site);
  cudnnBackendDescriptor_t raw = engine.get();
  int64_t count = 0;
  if (cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_ENGINE,
                               CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count,
                               &raw) != CUDNN_STATUS_SUCCESS)
    return notes;
  notes.assign(CUDNN_NUMERICAL_NOTE_TYPE_COUNT,
               CUDNN_NUMERICAL_NOTE_TYPE_COUNT);
  count = 0;
  if (cudnnBackendGetAttribute(raw, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE,
                               CUDNN_TYPE_NUMERICAL_NOTE,
                               CUDNN_NUMERICAL_NOTE_TYPE_COUNT, &count,
                               notes.data()) != CUDNN_STATUS_SUCCESS)
    count = 0;
  notes.resize(static_cast<size_t>(std::min<int64_t>(
      std::max<int64_t>(0, count), CUDNN_NUMERICAL_NOTE_TYPE_COUNT)));
  return notes;
}

BackendDesc nnrt::cuda::executionPlan(const BackendDesc &config,
                                      const Site &site) {
  BackendDesc plan(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, site);
  cudnnHandle_t handle = cudnn();
  plan.set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle,
           site);
  plan.set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, config, site);
  if (plan.finalize() != CUDNN_STATUS_SUCCESS)
    return BackendDesc();
  return plan;
}

int64_t nnrt::cuda::workspaceSize(const BackendDesc &plan, const Site &site) {
  int64_t bytes = 0, count = 0;
  check(cudnnBackendGetAttribute(plan.get(),
                                 CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                 CUDNN_TYPE_INT64, 1, &count, &bytes),
        "cudnnBackendGetAttribute (workspace size)", site);
  return bytes;
}

cudnnStatus_t nnrt::cuda::execute(const BackendDesc &plan,
                                  const std::vector<int64_t> &uids,
                                  const std::vector<void *> &pointers,
                                  void *workspace, const Site &site) {
  BackendDesc pack(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, site);
  pack.set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR,
           static_cast<int64_t>(pointers.size()), pointers.data(), site);
  pack.setInt(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, uids, site);
  pack.set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1,
           &workspace, site);
  check(pack.finalize(), "cudnnBackendFinalize (variant pack)", site);
  return cudnnBackendExecute(cudnn(), plan.get(), pack.get());
}
