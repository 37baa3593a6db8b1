// RUN: nnc-opt %s --convert-nn-to-cuda --split-input-file | FileCheck %s
// RUN: nnc-opt %s --convert-nn-to-cuda="precision=tf32" --split-input-file | FileCheck %s --check-prefix=TF32
// RUN: nnc-opt %s --convert-nn-to-cuda="precision=bf16" --split-input-file | FileCheck %s --check-prefix=BF16

// A dense layer (matmul, bias_add, relu) is one cuBLASLt call with the bias
// and ReLU epilogue; a product whose result is used elsewhere is a plain
// call, with its transposes.
// CHECK-LABEL: func.func @dense
// CHECK: call @nnrt_cuda_matmul_bias({{.*}}, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %{{.*}}) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, i64, i64, i64, i64, !llvm.ptr)
// CHECK-NOT: nn.bias_add
// CHECK-NOT: nn.relu
// CHECK: call @nnrt_cuda_matmul({{.*}}, %c1_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: nn.sigmoid
// TF32-LABEL: func.func @dense
// TF32: call @nnrt_cuda_matmul_bias({{.*}}, %c0_i64, %c0_i64, %c1_i64, %c1_i64, %{{.*}})
// TF32: call @nnrt_cuda_matmul({{.*}}, %c1_i64, %c0_i64, %c1_i64, %{{.*}})
// In bf16 the operands are bf16, the bias and the result f32.
// BF16-LABEL: func.func @dense
// BF16: arith.truncf %{{.*}} : f32 to bf16
// BF16: arith.truncf %{{.*}} : f32 to bf16
// BF16: bufferization.to_buffer %arg2 read_only : tensor<4xf32>
// BF16: call @nnrt_cuda_matmul_bias_bf16({{.*}}, %c0_i64, %c0_i64, %c1_i64, %c2_i64, %{{.*}}) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?xf32>, memref<?x?xf32>,
// BF16: call @nnrt_cuda_matmul_bf16({{.*}}, %c1_i64, %c0_i64, %c2_i64, %{{.*}}) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>,
func.func @dense(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %b: tensor<4xf32>, %g: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x4xf32>) {
  %0 = nn.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = nn.bias_add %0, %b : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %2 = nn.relu %1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3 = nn.matmul %x, %g {transpose_lhs} : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %4 = nn.sigmoid %2 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2, %3, %4 : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x4xf32>
}

// -----

// A bias_add without relu is fused with relu off; a product with another
// use stays a plain call and its bias_add stays.
// CHECK-LABEL: func.func @dense_no_relu
// CHECK: call @nnrt_cuda_matmul_bias({{.*}}, %c0_i64, %c0_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: %[[P:.*]] = bufferization.to_tensor
// CHECK: call @nnrt_cuda_matmul({{.*}}, %c0_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: %[[Q:.*]] = bufferization.to_tensor
// CHECK: %[[B:.*]] = nn.bias_add %[[Q]], %arg2
// CHECK: return %[[P]], %[[Q]], %[[B]]
func.func @dense_no_relu(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %b: tensor<4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = nn.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = nn.bias_add %0, %b : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %2 = nn.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %3 = nn.bias_add %2, %b : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return %1, %2, %3 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
