//===- Conv.cpp - convolutions and their gradients ------------------------===//
//
// Part of nnc's runtime (libnnrt_cuda.a). The three convolution calls of
// the ABI: shapes checked against each other, TensorFlow's HWIO filter
// transposed into KRSC scratch from the pool (and a filter gradient
// transposed back), then the cached cuDNN plan (ConvPlan.h) executed on the
// compute stream.
//
//===----------------------------------------------------------------------===//

#include "ConvPlan.h"
#include "Memref.h"
#include "Pool.h"

#include "nnrt/cuda/Abi.h"

#include <climits>

using namespace nnrt::cuda;

namespace {
/// to = from^T for a row-major [rows, cols] matrix, through cuBLASLt's
/// matrix transform: the row-major matrix is the column-major [cols, rows]
/// one, whose transpose, column-major [rows, cols], is the row-major
/// [cols, rows] result.
void transposeMatrix(const void *from, void *to, int64_t rows, int64_t cols,
                     cudaDataType_t type, const Site &site) {
  cublasLtMatrixTransformDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a = nullptr, c = nullptr;
  check(cublasLtMatrixTransformDescCreate(&desc, CUDA_R_32F),
        "cublasLtMatrixTransformDescCreate", site);
  cublasOperation_t transpose = CUBLAS_OP_T;
  check(cublasLtMatrixTransformDescSetAttribute(
            desc, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &transpose,
            sizeof transpose),
        "cublasLtMatrixTransformDescSetAttribute", site);
  check(cublasLtMatrixLayoutCreate(&a, type, cols, rows, cols),
        "cublasLtMatrixLayoutCreate", site);
  check(cublasLtMatrixLayoutCreate(&c, type, rows, cols, rows),
        "cublasLtMatrixLayoutCreate", site);
  float one = 1, zero = 0;
  check(cublasLtMatrixTransform(cublasLt(), desc, &one, from, a, &zero, nullptr,
                                nullptr, to, c, stream()),
        "cublasLtMatrixTransform", site);
  check(cublasLtMatrixLayoutDestroy(a), "cublasLtMatrixLayoutDestroy", site);
  check(cublasLtMatrixLayoutDestroy(c), "cublasLtMatrixLayoutDestroy", site);
  check(cublasLtMatrixTransformDescDestroy(desc),
        "cublasLtMatrixTransformDescDestroy", site);
}

/// The filter in TensorFlow's HWIO layout and cuDNN's KRSC. HWIO is the
/// row-major matrix [KH*KW*C, F] and KRSC its transpose [F, KH*KW*C].
/// cudnnTransformTensor (a strided copy between 4-D descriptors of the
/// same dims) moves it; where it refuses the data type, cuBLASLt's matrix
/// transform does.
class FilterLayouts {
public:
  FilterLayouts(const ConvProblem &p, cudnnDataType_t type, const Site &site)
      : rows(p.kh * p.kw * p.c), cols(p.f),
        matrixType(type == CUDNN_DATA_BFLOAT16 ? CUDA_R_16BF : CUDA_R_32F) {
    int f = static_cast<int>(p.f), c = static_cast<int>(p.c),
        kh = static_cast<int>(p.kh), kw = static_cast<int>(p.kw);
    check(cudnnCreateTensorDescriptor(&hwio), "cudnnCreateTensorDescriptor",
          site);
    check(cudnnCreateTensorDescriptor(&krsc), "cudnnCreateTensorDescriptor",
          site);
    // HWIO: F varies fastest, then C, then KW, then KH.
    check(cudnnSetTensor4dDescriptorEx(hwio, type, f, c, kh, kw, 1, f,
                                       kw * c * f, c * f),
          "cudnnSetTensor4dDescriptorEx", site);
    check(
        cudnnSetTensor4dDescriptor(krsc, CUDNN_TENSOR_NHWC, type, f, c, kh, kw),
        "cudnnSetTensor4dDescriptor", site);
  }
  ~FilterLayouts() {
    cudnnDestroyTensorDescriptor(hwio);
    cudnnDestroyTensorDescriptor(krsc);
  }
  FilterLayouts(const FilterLayouts &) = delete;
  FilterLayouts &operator=(const FilterLayouts &) = delete;

  void toKrsc(const void *from, void *to, const Site &site) const {
    if (!transform(hwio, from, krsc, to, site))
      transposeMatrix(from, to, rows, cols, matrixType, site);
  }
  void toHwio(const void *from, void *to, const Site &site) const {
    if (!transform(krsc, from, hwio, to, site))
      transposeMatrix(from, to, cols, rows, matrixType, site);
  }

private:
  /// False when cuDNN does not support the copy (its data type).
  static bool transform(cudnnTensorDescriptor_t fromDesc, const void *from,
                        cudnnTensorDescriptor_t toDesc, void *to,
                        const Site &site) {
    float one = 1, zero = 0; // float scalars for f32 and bf16 data
    cudnnStatus_t status =
        cudnnTransformTensor(cudnn(), &one, fromDesc, from, &zero, toDesc, to);
    if (status == CUDNN_STATUS_NOT_SUPPORTED)
      return false;
    check(status, "cudnnTransformTensor", site);
    return true;
  }
  cudnnTensorDescriptor_t hwio = nullptr, krsc = nullptr;
  int64_t rows, cols;
  cudaDataType_t matrixType;
};

/// TensorFlow's output size; -1 when the window does not fit.
int64_t outputSize(int64_t in, int64_t k, int64_t stride, int64_t dilation,
                   int64_t pad) {
  int64_t span = in + 2 * pad - dilation * (k - 1) - 1;
  return span < 0 ? -1 : span / stride + 1;
}

/// Why the shapes of `p` (from x, w and y) do not make one convolution, or
/// an empty string when they do.
std::string mismatch(const ConvProblem &p, const View &w, const View &y) {
  int64_t oh = outputSize(p.h, p.kh, p.stride[0], p.dilation[0], p.pad[0]),
          ow = outputSize(p.w, p.kw, p.stride[1], p.dilation[1], p.pad[1]);
  if (y.sizes[0] != p.n)
    return "the batch sizes differ";
  if (w.sizes[2] != p.c)
    return "the filter's input channels differ from the activations'";
  if (y.sizes[3] != p.f)
    return "the filter's output channels differ from the activations'";
  if (oh < 0 || ow < 0)
    return "the filter is larger than the padded input";
  if (oh != p.oh || ow != p.ow)
    return "the output should be " + std::to_string(oh) + "x" +
           std::to_string(ow);
  return "";
}

/// Fails unless the operands (`given`, in the call's order, named `names`)
/// make one convolution with `p`'s strides, dilations and padding.
void checkFits(const ConvProblem &p, const View *const given[3],
               const char *const names[3], const View &w, const View &y,
               const Site &site) {
  if (p.stride[0] < 1 || p.stride[1] < 1 || p.dilation[0] < 1 ||
      p.dilation[1] < 1 || p.pad[0] < 0 || p.pad[1] < 0)
    fail(site, "strides and dilations must be positive and padding not "
               "negative: " +
                   p.describe());
  std::string why = mismatch(p, w, y);
  if (!why.empty()) {
    std::string shapes;
    for (int i = 0; i < 3; ++i)
      shapes += std::string(names[i]) + " " + given[i]->shape() + ", ";
    auto pair = [](const int64_t v[2]) {
      return std::to_string(v[0]) + "x" + std::to_string(v[1]);
    };
    fail(site, "the operands do not fit one convolution: " + shapes +
                   "stride " + pair(p.stride) + ", dilation " +
                   pair(p.dilation) + ", padding " + pair(p.pad) + " (" + why +
                   ")");
  }
  if (p.f > INT_MAX || p.c > INT_MAX || p.kh * p.kw * p.c * p.f > INT_MAX)
    fail(site, "the filter is too large for cuDNN: " + p.describe());
}

/// Runs `p` on x, w and y with the cached plan; the filter goes through
/// cuDNN's KRSC layout (HWIO in memory).
void runConvolution(const ConvProblem &p, const View &x, const View &w,
                    const View &y, size_t elementSize, const Site &site) {
  FilterLayouts layouts(p, p.math == 2 ? CUDNN_DATA_BFLOAT16 : CUDNN_DATA_FLOAT,
                        site);
  void *filter = poolAllocate(w.count() * elementSize, site);
  if (p.kind != ConvKind::BackwardFilter)
    layouts.toKrsc(w.data, filter, site);
  std::vector<void *> pointers = {x.data, filter, y.data};
  const ConvPlan &plan = convPlan(p, pointers, site);
  void *workspace =
      plan.workspace ? poolAllocate(static_cast<size_t>(plan.workspace), site)
                     : nullptr;
  check(execute(plan.plan, {kConvX, kConvW, kConvY}, pointers, workspace, site),
        "cudnnBackendExecute", site);
  if (p.kind == ConvKind::BackwardFilter)
    layouts.toHwio(filter, w.data, site);
  poolRelease(workspace, site);
  poolRelease(filter, site);
}

void convolve(ConvKind kind, NnrtDesc4 *first, NnrtDesc4 *second,
              NnrtDesc4 *third, int64_t strideH, int64_t strideW,
              int64_t dilationH, int64_t dilationW, int64_t padH, int64_t padW,
              int64_t math, const char *layer) {
  static const char *functions[] = {"nnrt_cuda_conv2d",
                                    "nnrt_cuda_conv2d_backprop_input",
                                    "nnrt_cuda_conv2d_backprop_filter"};
  static const char *operands[][3] = {
      {"x", "w", "y"}, {"dy", "w", "dx"}, {"x", "dy", "dw"}};
  int k = static_cast<int>(kind);
  Site site{functions[k], layer};
  if (math < 0 || math > 2)
    fail(site, "math mode " + std::to_string(math) +
                   " is not 0 (fp32), 1 (tf32) or 2 (bf16)");
  size_t elementSize = math == 2 ? 2 : 4;
  View a = viewOf(first, elementSize, operands[k][0], site);
  View b = viewOf(second, elementSize, operands[k][1], site);
  View c = viewOf(third, elementSize, operands[k][2], site);
  View *x = &a, *w = &b, *y = &c, *out = &c;
  if (kind == ConvKind::BackwardData)
    y = &a, x = &c;
  else if (kind == ConvKind::BackwardFilter)
    y = &b, w = &c;

  ConvProblem p;
  p.kind = kind;
  p.n = x->sizes[0], p.h = x->sizes[1], p.w = x->sizes[2], p.c = x->sizes[3];
  p.kh = w->sizes[0], p.kw = w->sizes[1], p.f = w->sizes[3];
  p.oh = y->sizes[1], p.ow = y->sizes[2];
  p.stride[0] = strideH, p.stride[1] = strideW;
  p.dilation[0] = dilationH, p.dilation[1] = dilationW;
  p.pad[0] = padH, p.pad[1] = padW;
  p.math = math;
  const View *given[] = {&a, &b, &c};
  checkFits(p, given, operands[k], *w, *y, site);
  if (!a.count() || !b.count() || !c.count()) {
    if (out->count())
      check(cudaMemsetAsync(out->data, 0, out->count() * elementSize, stream()),
            "cudaMemsetAsync", site);
    return;
  }
  p.alignX = alignmentOf(x->data);
  p.alignY = alignmentOf(y->data);
  runConvolution(p, *x, *w, *y, elementSize, site);
}
} // namespace

extern "C" void _mlir_ciface_nnrt_cuda_conv2d(
    NnrtDesc4 *x, NnrtDesc4 *w, NnrtDesc4 *y, int64_t strideH, int64_t strideW,
    int64_t dilationH, int64_t dilationW, int64_t padH, int64_t padW,
    int64_t math, const char *layer) {
  convolve(ConvKind::Forward, x, w, y, strideH, strideW, dilationH, dilationW,
           padH, padW, math, layer);
}

extern "C" void _mlir_ciface_nnrt_cuda_conv2d_backprop_input(
    NnrtDesc4 *dy, NnrtDesc4 *w, NnrtDesc4 *dx, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer) {
  convolve(ConvKind::BackwardData, dy, w, dx, strideH, strideW, dilationH,
           dilationW, padH, padW, math, layer);
}

extern "C" void _mlir_ciface_nnrt_cuda_conv2d_backprop_filter(
    NnrtDesc4 *x, NnrtDesc4 *dy, NnrtDesc4 *dw, int64_t strideH,
    int64_t strideW, int64_t dilationH, int64_t dilationW, int64_t padH,
    int64_t padW, int64_t math, const char *layer) {
  convolve(ConvKind::BackwardFilter, x, dy, dw, strideH, strideW, dilationH,
           dilationW, padH, padW, math, layer);
}
