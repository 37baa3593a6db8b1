// RUN: nnc-opt %s --convert-nn-to-cuda --split-input-file | FileCheck %s

// Inference: x, then scale, offset and the moving statistics, the output
// written by the call, epsilon.
// CHECK-LABEL: func.func @batch_norm
// CHECK-DAG: %[[EPS:.*]] = arith.constant 1.000000e-03 : f64
// CHECK: %[[X:.*]] = bufferization.to_buffer %arg0 read_only : tensor<2x4x4x8xf32>
// CHECK-NEXT: %[[XC:.*]] = memref.cast %[[X]]
// CHECK-COUNT-4: bufferization.to_buffer %arg{{[1-4]}} read_only : tensor<8xf32>
// CHECK: %[[Y:.*]] = memref.alloc() : memref<2x4x4x8xf32>
// CHECK-NEXT: %[[YC:.*]] = memref.cast %[[Y]]
// CHECK-NEXT: call @nnrt_cuda_batch_norm(%[[XC]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[YC]], %[[EPS]], %{{.*}}) : (memref<?x?x?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?x?x?xf32>, f64, !llvm.ptr) -> ()
// CHECK-NEXT: %[[R:.*]] = bufferization.to_tensor %[[Y]] restrict writable
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: nn.batch_norm
func.func @batch_norm(%x: tensor<2x4x4x8xf32>, %scale: tensor<8xf32>, %offset: tensor<8xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>) -> tensor<2x4x4x8xf32> {
  %0 = nn.batch_norm %x, %scale, %offset, %mean, %var {epsilon = 1.0e-3 : f64} : (tensor<2x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x4x8xf32>
  return %0 : tensor<2x4x4x8xf32>
}

// -----

// Training after a dense layer: [N, C] is seen as [N, 1, 1, C] (reshapes,
// no copies); the call writes the output, the batch mean and the biased
// variance, which are the op's results in that order.
// CHECK-LABEL: func.func @batch_norm_train
// CHECK: %[[XE:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1, 2], [3]] output_shape [16, 1, 1, 10]
// CHECK: %[[X:.*]] = bufferization.to_buffer %[[XE]] read_only : tensor<16x1x1x10xf32>
// CHECK: %[[Y:.*]] = memref.alloc() : memref<16x1x1x10xf32>
// CHECK: %[[M:.*]] = memref.alloc() : memref<10xf32>
// CHECK: %[[V:.*]] = memref.alloc() : memref<10xf32>
// CHECK: call @nnrt_cuda_batch_norm_train({{.*}}) : (memref<?x?x?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?x?x?xf32>, memref<?xf32>, memref<?xf32>, f64, !llvm.ptr) -> ()
// CHECK-NEXT: %[[YT:.*]] = bufferization.to_tensor %[[Y]]
// CHECK-NEXT: %[[MT:.*]] = bufferization.to_tensor %[[M]]
// CHECK-NEXT: %[[VT:.*]] = bufferization.to_tensor %[[V]]
// CHECK-NEXT: %[[YR:.*]] = tensor.collapse_shape %[[YT]] {{\[\[}}0, 1, 2], [3]] : tensor<16x1x1x10xf32> into tensor<16x10xf32>
// CHECK-NEXT: return %[[YR]], %[[MT]], %[[VT]]
func.func @batch_norm_train(%x: tensor<16x10xf32>, %scale: tensor<10xf32>, %offset: tensor<10xf32>) -> (tensor<16x10xf32>, tensor<10xf32>, tensor<10xf32>) {
  %y, %m, %v = nn.batch_norm_train %x, %scale, %offset {epsilon = 1.0e-3 : f64} : (tensor<16x10xf32>, tensor<10xf32>, tensor<10xf32>) -> (tensor<16x10xf32>, tensor<10xf32>, tensor<10xf32>)
  return %y, %m, %v : tensor<16x10xf32>, tensor<10xf32>, tensor<10xf32>
}

// -----

// The gradient: cuDNN takes the saved 1 / sqrt(variance + epsilon), computed
// per channel first (a generated kernel); [N, L, C] is [N, 1, L, C]. The
// call reads x, scale, mean, that inverse and dy, and writes dx, dscale and
// doffset.
// CHECK-LABEL: func.func @batch_norm_grad
// CHECK-DAG: %[[EPS:.*]] = arith.constant 1.000000e-03 : f64
// CHECK-DAG: %[[EPS32:.*]] = arith.constant 1.000000e-03 : f32
// CHECK: %[[INV:.*]] = linalg.generic {{.*}} ins(%arg3 : tensor<4xf32>)
// CHECK: %[[S:.*]] = arith.addf %{{.*}}, %[[EPS32]] : f32
// CHECK-NEXT: math.rsqrt %[[S]] : f32
// CHECK: %[[XE:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [2, 1, 3, 4]
// CHECK: %[[DYE:.*]] = tensor.expand_shape %arg4 {{\[\[}}0, 1], [2], [3]] output_shape [2, 1, 3, 4]
// CHECK: bufferization.to_buffer %[[XE]] read_only
// CHECK: bufferization.to_buffer %arg1 read_only
// CHECK: bufferization.to_buffer %arg2 read_only
// CHECK: bufferization.to_buffer %[[INV]] read_only
// CHECK: bufferization.to_buffer %[[DYE]] read_only
// CHECK: memref.alloc() : memref<2x1x3x4xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: call @nnrt_cuda_batch_norm_backward({{.*}}, %[[EPS]], %{{.*}}) : (memref<?x?x?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?xf32>, memref<?xf32>, f64, !llvm.ptr) -> ()
// CHECK: tensor.collapse_shape
// CHECK-NOT: nn.batch_norm_grad
func.func @batch_norm_grad(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %mean: tensor<4xf32>, %var: tensor<4xf32>, %dy: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %dx, %ds, %db = nn.batch_norm_grad %x, %scale, %mean, %var, %dy {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %dx, %ds, %db : tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Above rank 4 the leading axes fold into N.
// CHECK-LABEL: func.func @batch_norm_rank5
// CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2], [3], [4]] : tensor<2x3x4x5x6xf32> into tensor<6x4x5x6xf32>
// CHECK: call @nnrt_cuda_batch_norm_train(
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 4, 5, 6]
func.func @batch_norm_rank5(%x: tensor<2x3x4x5x6xf32>, %scale: tensor<6xf32>, %offset: tensor<6xf32>) -> (tensor<2x3x4x5x6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %y, %m, %v = nn.batch_norm_train %x, %scale, %offset {epsilon = 1.0e-3 : f64} : (tensor<2x3x4x5x6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<2x3x4x5x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return %y, %m, %v : tensor<2x3x4x5x6xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

// Other element types stay for the generated kernels; so does the moving
// average.
// CHECK-LABEL: func.func @batch_norm_f16
// CHECK-NOT: call
// CHECK: nn.batch_norm_train %arg0
// CHECK: nn.moving_average
func.func @batch_norm_f16(%x: tensor<2x8xf16>, %scale: tensor<8xf16>, %offset: tensor<8xf16>, %avg: tensor<8xf16>) -> (tensor<2x8xf16>, tensor<8xf16>) {
  %y, %m, %v = nn.batch_norm_train %x, %scale, %offset {epsilon = 1.0e-3 : f64} : (tensor<2x8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<2x8xf16>, tensor<8xf16>, tensor<8xf16>)
  %a = nn.moving_average %avg, %v {decay = 0.99 : f64, correction = 2.0 : f64} : (tensor<8xf16>, tensor<8xf16>) -> tensor<8xf16>
  return %y, %a : tensor<2x8xf16>, tensor<8xf16>
}

// -----

// A layer without a learnt scale has a constant one: the call reads it from
// a device buffer filled by a kernel, never from a host constant.
// CHECK-LABEL: func.func @constant_scale
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[E]] : tensor<8xf32>)
// CHECK-NEXT: bufferization.to_buffer %[[F]] read_only
// CHECK: call @nnrt_cuda_batch_norm_train(
func.func @constant_scale(%x: tensor<4x8xf32>, %offset: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %ones = arith.constant dense<1.0> : tensor<8xf32>
  %y, %m, %v = nn.batch_norm_train %x, %ones, %offset {epsilon = 1.0e-3 : f64} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  return %y, %m, %v : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>
}
