// RUN: nnc-opt %s --convert-nn-to-cuda --split-input-file | FileCheck %s

// LRN within cuDNN's limits is a call with TensorFlow's parameters (the
// runtime converts alpha); its gradient recomputes the output. A window of
// more than 16 channels (radius 9) stays for the generated kernels.
// CHECK-LABEL: func.func @lrn
// CHECK: call @nnrt_cuda_lrn({{.*}}, %c2_i64, %cst{{.*}}, %cst{{.*}}, %cst{{.*}}, %{{.*}}) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, i64, f64, f64, f64, !llvm.ptr)
// CHECK: call @nnrt_cuda_lrn(
// CHECK: call @nnrt_cuda_lrn_backward(
// CHECK: nn.lrn {{.*}}depth_radius = 9
func.func @lrn(%x: tensor<1x4x4x32xf32>, %dy: tensor<1x4x4x32xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) {
  %0 = nn.lrn %x {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 2 : i64} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  %1 = nn.lrn_grad %x, %dy {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 2 : i64} : (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  %2 = nn.lrn %x {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 9 : i64} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %0, %1, %2 : tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>
}

// -----

// cuDNN's backward call takes the forward output, which lrn_grad does not
// carry: the output is computed again (into %[[Y]]) and passed with x and
// dy, with the same TensorFlow parameters.
// CHECK-LABEL: func.func @lrn_grad
// CHECK-DAG: %[[BETA:.*]] = arith.constant 7.500000e-01 : f64
// CHECK-DAG: %[[ALPHA:.*]] = arith.constant 1.000000e-04 : f64
// CHECK-DAG: %[[BIAS:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-DAG: %[[R:.*]] = arith.constant 2 : i64
// CHECK: %[[X:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK-NEXT: %[[XC:.*]] = memref.cast %[[X]]
// CHECK-NEXT: %[[Y:.*]] = memref.alloc() : memref<1x4x4x32xf32>
// CHECK-NEXT: %[[YC:.*]] = memref.cast %[[Y]]
// CHECK-NEXT: call @nnrt_cuda_lrn(%[[XC]], %[[YC]], %[[R]], %[[BIAS]], %[[ALPHA]], %[[BETA]], %{{.*}})
// CHECK-NEXT: %[[X2:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK-NEXT: %[[X2C:.*]] = memref.cast %[[X2]]
// CHECK-NEXT: %[[Y2C:.*]] = memref.cast %[[Y]]
// CHECK-NEXT: %[[DY:.*]] = bufferization.to_buffer %arg1 read_only
// CHECK-NEXT: %[[DYC:.*]] = memref.cast %[[DY]]
// CHECK-NEXT: %[[DX:.*]] = memref.alloc() : memref<1x4x4x32xf32>
// CHECK-NEXT: %[[DXC:.*]] = memref.cast %[[DX]]
// CHECK-NEXT: call @nnrt_cuda_lrn_backward(%[[X2C]], %[[Y2C]], %[[DYC]], %[[DXC]], %[[R]], %[[BIAS]], %[[ALPHA]], %[[BETA]], %{{.*}})
// CHECK-NEXT: %[[G:.*]] = bufferization.to_tensor %[[DX]] restrict writable
// CHECK-NEXT: return %[[G]]
func.func @lrn_grad(%x: tensor<1x4x4x32xf32>, %dy: tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32> {
  %0 = nn.lrn_grad %x, %dy {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 2 : i64} : (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %0 : tensor<1x4x4x32xf32>
}

// -----

// The gradient outside cuDNN's limits (bias below 1e-5) stays for the
// generated kernels, and so does the forward op.
// CHECK-LABEL: func.func @lrn_outside
// CHECK-NOT: call
// CHECK: nn.lrn %arg0
// CHECK: nn.lrn_grad %arg0, %arg1
func.func @lrn_outside(%x: tensor<1x4x4x32xf32>, %dy: tensor<1x4x4x32xf32>) -> (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) {
  %0 = nn.lrn %x {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 1.0e-6 : f64, depth_radius = 2 : i64} : (tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  %1 = nn.lrn_grad %x, %dy {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 1.0e-6 : f64, depth_radius = 2 : i64} : (tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>) -> tensor<1x4x4x32xf32>
  return %0, %1 : tensor<1x4x4x32xf32>, tensor<1x4x4x32xf32>
}
