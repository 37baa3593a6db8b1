//===- Matmul.cpp - matrix products through cuBLASLt ----------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). cuBLASLt is column-major; a
// row-major matrix is the column-major matrix of its transpose, so
//   C[M, N] = op(A) op(B)   (row-major)
// is computed as
//   C^T[N, M] = op(B)^T op(A)^T   (column-major),
// with cuBLASLt's "A" our B and its "B" our A, each transposed when its flag
// is set. The bias epilogue adds a vector along the rows of D = C^T, that
// is bias[n] to C[m][n]: the bias of every row of C. Plans (operation
// descriptor, layouts, the heuristic's best algorithm and its workspace)
// are cached per configuration, alignments included.
//
//===----------------------------------------------------------------------===//

#include "Memref.h"
#include "Pool.h"

#include "nnrt/cuda/Abi.h"

#include <map>
#include <memory>

using namespace nnrt::cuda;

namespace {
constexpr uint64_t kMaxWorkspace = uint64_t(32) << 20;

struct MatmulPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulAlgo_t algo{};
  size_t workspace = 0;
};

struct Problem {
  int64_t m, n, k, transA, transB, math, epilogue; // 0 none, 1 bias, 2 +ReLU
  const void *a, *b, *c, *bias;

  std::vector<int64_t> key() const {
    return {m,
            n,
            k,
            transA,
            transB,
            math,
            epilogue,
            alignmentOf(a),
            alignmentOf(b),
            alignmentOf(c),
            bias ? alignmentOf(bias) : 0};
  }
};

template <typename T>
void setAttribute(cublasLtMatmulDesc_t op, cublasLtMatmulDescAttributes_t name,
                  const T &value, const Site &site) {
  check(cublasLtMatmulDescSetAttribute(op, name, &value, sizeof value),
        "cublasLtMatmulDescSetAttribute", site);
}

std::unique_ptr<MatmulPlan> buildPlan(const Problem &p, const Site &site) {
  auto plan = std::make_unique<MatmulPlan>();
  cublasComputeType_t compute =
      p.math == 1 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  cudaDataType_t in = p.math == 2 ? CUDA_R_16BF : CUDA_R_32F;
  check(cublasLtMatmulDescCreate(&plan->op, compute, CUDA_R_32F),
        "cublasLtMatmulDescCreate", site);
  // cuBLASLt's A is our B, its B our A (see the file comment).
  cublasOperation_t opA = p.transB ? CUBLAS_OP_T : CUBLAS_OP_N,
                    opB = p.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  setAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSA, opA, site);
  setAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSB, opB, site);
  if (p.epilogue) {
    cublasLtEpilogue_t epilogue =
        p.epilogue == 2 ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
    cudaDataType_t biasType = CUDA_R_32F;
    setAttribute(plan->op, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue, site);
    setAttribute(plan->op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, biasType, site);
    // The heuristic reads the pointer for its alignment.
    setAttribute(plan->op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, p.bias, site);
  }
  // Column-major (rows, cols, leading dimension) of the stored matrices.
  auto layout = [&](cublasLtMatrixLayout_t &l, cudaDataType_t type,
                    int64_t rows, int64_t cols) {
    check(cublasLtMatrixLayoutCreate(&l, type, static_cast<uint64_t>(rows),
                                     static_cast<uint64_t>(cols), rows),
          "cublasLtMatrixLayoutCreate", site);
  };
  if (p.transB)
    layout(plan->a, in, p.k, p.n); // B stored [N, K]
  else
    layout(plan->a, in, p.n, p.k); // B stored [K, N]
  if (p.transA)
    layout(plan->b, in, p.m, p.k); // A stored [K, M]
  else
    layout(plan->b, in, p.k, p.m); // A stored [M, K]
  layout(plan->c, CUDA_R_32F, p.n, p.m);

  cublasLtMatmulPreference_t preference = nullptr;
  check(cublasLtMatmulPreferenceCreate(&preference),
        "cublasLtMatmulPreferenceCreate", site);
  auto prefer = [&](cublasLtMatmulPreferenceAttributes_t name, auto value) {
    check(cublasLtMatmulPreferenceSetAttribute(preference, name, &value,
                                               sizeof value),
          "cublasLtMatmulPreferenceSetAttribute", site);
  };
  prefer(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, kMaxWorkspace);
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
         static_cast<uint32_t>(alignmentOf(p.b)));
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
         static_cast<uint32_t>(alignmentOf(p.a)));
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
         static_cast<uint32_t>(alignmentOf(p.c)));
  prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES,
         static_cast<uint32_t>(alignmentOf(p.c)));
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
      cublasLt(), plan->op, plan->a, plan->b, plan->c, plan->c, preference, 1,
      &result, &found);
  check(cublasLtMatmulPreferenceDestroy(preference),
        "cublasLtMatmulPreferenceDestroy", site);
  if (status != CUBLAS_STATUS_SUCCESS && status != CUBLAS_STATUS_NOT_SUPPORTED)
    check(status, "cublasLtMatmulAlgoGetHeuristic", site);
  if (status != CUBLAS_STATUS_SUCCESS || found < 1 ||
      result.state != CUBLAS_STATUS_SUCCESS) {
    static const char *modes[] = {"fp32", "tf32", "bf16"};
    fail(
        site,
        "cuBLASLt has no algorithm for this product: C [" +
            std::to_string(p.m) + ", " + std::to_string(p.n) +
            "] = op(A) op(B) with K = " + std::to_string(p.k) + ", transA " +
            std::to_string(p.transA) + ", transB " + std::to_string(p.transB) +
            (p.epilogue ? p.epilogue == 2 ? ", bias and ReLU" : ", bias" : "") +
            ", " + modes[p.math]);
  }
  plan->algo = result.algo;
  plan->workspace = result.workspaceSize;
  return plan;
}

void multiply(NnrtDesc2 *ad, NnrtDesc2 *bd, NnrtDesc1 *biasd, NnrtDesc2 *cd,
              int64_t transA, int64_t transB, int64_t relu, int64_t math,
              const Site &site) {
  if (math < 0 || math > 2)
    fail(site, "math mode " + std::to_string(math) +
                   " is not 0 (fp32), 1 (tf32) or 2 (bf16)");
  if ((transA != 0 && transA != 1) || (transB != 0 && transB != 1) ||
      (relu != 0 && relu != 1))
    fail(site, "transA, transB and relu must be 0 or 1");
  size_t in = math == 2 ? 2 : 4;
  View a = viewOf(ad, in, "a", site), b = viewOf(bd, in, "b", site),
       c = viewOf(cd, 4, "c", site);
  View bias;
  if (biasd)
    bias = viewOf(biasd, 4, "bias", site);
  int64_t m = c.sizes[0], n = c.sizes[1];
  int64_t k = transA ? a.sizes[0] : a.sizes[1];
  bool fits = (transA ? a.sizes[1] : a.sizes[0]) == m &&
              (transB ? b.sizes[1] : b.sizes[0]) == k &&
              (transB ? b.sizes[0] : b.sizes[1]) == n &&
              (!biasd || bias.sizes[0] == n);
  if (!fits)
    fail(site, "the operands do not fit one product: a " + a.shape() +
                   (transA ? " (transposed)" : "") + ", b " + b.shape() +
                   (transB ? " (transposed)" : "") + ", c " + c.shape() +
                   (biasd ? ", bias " + bias.shape() : ""));
  if (!m || !n)
    return;
  if (!k)
    fail(site, "the inner dimension K is 0");
  Problem p{m,
            n,
            k,
            transA,
            transB,
            math,
            biasd ? 1 + relu : 0,
            a.data,
            b.data,
            c.data,
            biasd ? bias.data : nullptr};
  static auto *cache =
      new std::map<std::vector<int64_t>, std::unique_ptr<MatmulPlan>>;
  std::vector<int64_t> key = p.key();
  auto it = cache->find(key);
  if (it == cache->end())
    it = cache->emplace(key, buildPlan(p, site)).first;
  MatmulPlan &plan = *it->second;
  if (biasd)
    setAttribute(plan.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, p.bias, site);
  void *workspace =
      plan.workspace ? poolAllocate(plan.workspace, site) : nullptr;
  float one = 1, zero = 0;
  check(cublasLtMatmul(cublasLt(), plan.op, &one, b.data, plan.a, a.data,
                       plan.b, &zero, c.data, plan.c, c.data, plan.c,
                       &plan.algo, workspace, plan.workspace, stream()),
        "cublasLtMatmul", site);
  poolRelease(workspace, site);
}
} // namespace

extern "C" void _mlir_ciface_nnrt_cuda_matmul(NnrtDesc2 *a, NnrtDesc2 *b,
                                              NnrtDesc2 *c, int64_t transA,
                                              int64_t transB, int64_t math,
                                              const char *layer) {
  multiply(a, b, nullptr, c, transA, transB, 0, math,
           Site{"nnrt_cuda_matmul", layer});
}

extern "C" void _mlir_ciface_nnrt_cuda_matmul_bias(
    NnrtDesc2 *a, NnrtDesc2 *b, NnrtDesc1 *bias, NnrtDesc2 *c, int64_t transA,
    int64_t transB, int64_t relu, int64_t math, const char *layer) {
  Site site{"nnrt_cuda_matmul_bias", layer};
  if (!bias)
    fail(site, "operand 'bias' has no descriptor");
  multiply(a, b, bias, c, transA, transB, relu, math, site);
}
