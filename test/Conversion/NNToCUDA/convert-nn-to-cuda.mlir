// RUN: nnc-opt %s --convert-nn-to-cuda --split-input-file | FileCheck %s
// RUN: nnc-opt %s --convert-nn-to-cuda="precision=tf32" --split-input-file | FileCheck %s --check-prefix=TF32

// A convolution with symmetric SAME padding (5x5, stride 1: 2 on each side)
// is one cuDNN call: operands read through to_buffer, a fresh output, the
// strides, dilations, padding and math mode, and the layer's name and
// source location for error messages.
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:nnrt_layer[0-9]+]]("conv2 (model.nn:3:1)\00")
// CHECK-DAG: func.func private @nnrt_cuda_conv2d(memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @conv_symmetric
// CHECK: %[[S:.*]] = llvm.mlir.addressof @[[NAME]]
// CHECK: %[[X:.*]] = bufferization.to_buffer %arg0 read_only : tensor<2x8x8x4xf32> to memref<2x8x8x4xf32>
// CHECK: %[[W:.*]] = bufferization.to_buffer %arg1 read_only
// CHECK: %[[Y:.*]] = memref.alloc() : memref<2x8x8x6xf32>
// CHECK: call @nnrt_cuda_conv2d({{.*}}, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c2_i64, %c2_i64, %c0_i64, %[[S]])
// CHECK: bufferization.to_tensor %[[Y]] restrict writable
// TF32-LABEL: func.func @conv_symmetric
// TF32: call @nnrt_cuda_conv2d({{.*}}, %c2_i64, %c2_i64, %c1_i64, %[[S:.*]])
func.func @conv_symmetric(%x: tensor<2x8x8x4xf32>, %w: tensor<5x5x4x6xf32>) -> tensor<2x8x8x6xf32> {
  %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<5x5x4x6xf32>) -> tensor<2x8x8x6xf32> loc(#conv2)
  return %0 : tensor<2x8x8x6xf32>
}
#conv2 = loc("conv2"("model.nn":3:1))

// -----

// TensorFlow's SAME padding of an 11x11 stride-4 convolution on 224 is 3
// then 4: the input is padded explicitly and cuDNN pads nothing.
// CHECK-LABEL: func.func @conv_asymmetric
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 3, 3, 0] [1, 224, 224, 3] [1, 1, 1, 1] : tensor<1x224x224x3xf32> into tensor<1x231x231x3xf32>
// CHECK: bufferization.to_buffer %[[P]]
// CHECK: call @nnrt_cuda_conv2d({{.*}}, %c4_i64, %c4_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %c0_i64, %{{.*}})
func.func @conv_asymmetric(%x: tensor<1x224x224x3xf32>, %w: tensor<11x11x3x8xf32>) -> tensor<1x56x56x8xf32> {
  %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 4, 4>} : (tensor<1x224x224x3xf32>, tensor<11x11x3x8xf32>) -> tensor<1x56x56x8xf32>
  return %0 : tensor<1x56x56x8xf32>
}

// -----

// The input gradient of an asymmetrically padded convolution is the padded
// input's gradient with the border dropped; the filter gradient reads the
// explicitly padded input.
// CHECK-LABEL: func.func @conv_grads
// CHECK: call @nnrt_cuda_conv2d_backprop_input({{.*}}) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>
// CHECK: %[[FULL:.*]] = bufferization.to_tensor {{.*}} : memref<1x231x231x3xf32> to tensor<1x231x231x3xf32>
// CHECK: tensor.extract_slice %[[FULL]][0, 3, 3, 0] [1, 224, 224, 3] [1, 1, 1, 1]
// CHECK: tensor.insert_slice %arg0 into {{.*}}[0, 3, 3, 0]
// CHECK: call @nnrt_cuda_conv2d_backprop_filter
func.func @conv_grads(%x: tensor<1x224x224x3xf32>, %w: tensor<11x11x3x8xf32>, %dy: tensor<1x56x56x8xf32>) -> (tensor<1x224x224x3xf32>, tensor<11x11x3x8xf32>) {
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 4, 4>} : (tensor<1x56x56x8xf32>, tensor<11x11x3x8xf32>) -> tensor<1x224x224x3xf32>
  %1 = nn.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 4, 4>} : (tensor<1x224x224x3xf32>, tensor<1x56x56x8xf32>) -> tensor<11x11x3x8xf32>
  return %0, %1 : tensor<1x224x224x3xf32>, tensor<11x11x3x8xf32>
}

// -----

// VALID max pooling is cuDNN's (mode 0, no padding); its gradient computes
// the forward output again, which cuDNN's backward call takes.
// CHECK-LABEL: func.func @max_pool
// CHECK: call @nnrt_cuda_pool2d({{.*}}, %c0_i64, %c3_i64, %c3_i64, %c2_i64, %c2_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: call @nnrt_cuda_pool2d({{.*}})
// CHECK: call @nnrt_cuda_pool2d_backward({{.*}}) : (memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>, memref<?x?x?x?xf32>,
func.func @max_pool(%x: tensor<2x13x13x8xf32>, %dy: tensor<2x6x6x8xf32>) -> (tensor<2x6x6x8xf32>, tensor<2x13x13x8xf32>) {
  %0 = nn.max_pool2d %x {padding = #nn.padding<VALID>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<2x13x13x8xf32>) -> tensor<2x6x6x8xf32>
  %1 = nn.max_pool2d_grad %x, %dy {padding = #nn.padding<VALID>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<2x13x13x8xf32>, tensor<2x6x6x8xf32>) -> tensor<2x13x13x8xf32>
  return %0, %1 : tensor<2x6x6x8xf32>, tensor<2x13x13x8xf32>
}

// -----

// SAME 3/2 max pooling on 24 pads 0 then 1: the input is padded with -inf;
// average pooling with that padding is not cuDNN's (its divisor would count
// the padding) and stays for the generated kernels.
// CHECK-LABEL: func.func @pools_same
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x25x25x4xf32>)
// CHECK: call @nnrt_cuda_pool2d
// CHECK-NOT: call @nnrt_cuda_pool2d
// CHECK: nn.avg_pool2d
func.func @pools_same(%x: tensor<1x24x24x4xf32>) -> (tensor<1x12x12x4xf32>, tensor<1x12x12x4xf32>) {
  %0 = nn.max_pool2d %x {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x24x24x4xf32>) -> tensor<1x12x12x4xf32>
  %1 = nn.avg_pool2d %x {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x24x24x4xf32>) -> tensor<1x12x12x4xf32>
  return %0, %1 : tensor<1x12x12x4xf32>, tensor<1x12x12x4xf32>
}

// -----

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

// A dense layer (matmul, bias_add, relu) is one cuBLASLt call with the bias
// and ReLU epilogue; a product whose result is used elsewhere is a plain
// call, with its transposes.
// CHECK-LABEL: func.func @dense
// CHECK: call @nnrt_cuda_matmul_bias({{.*}}, %c0_i64, %c0_i64, %c1_i64, %c0_i64, %{{.*}}) : (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, i64, i64, i64, i64, !llvm.ptr)
// CHECK-NOT: nn.bias_add
// CHECK-NOT: nn.relu
// CHECK: call @nnrt_cuda_matmul({{.*}}, %c1_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: nn.sigmoid
func.func @dense(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>, %b: tensor<4xf32>, %g: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x4xf32>) {
  %0 = nn.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = nn.bias_add %0, %b : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %2 = nn.relu %1 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %3 = nn.matmul %x, %g {transpose_lhs} : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %4 = nn.sigmoid %2 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2, %3, %4 : tensor<8x4xf32>, tensor<16x4xf32>, tensor<8x4xf32>
}
