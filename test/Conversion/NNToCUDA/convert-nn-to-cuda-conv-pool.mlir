// RUN: nnc-opt %s --convert-nn-to-cuda --split-input-file | FileCheck %s
// RUN: nnc-opt %s --convert-nn-to-cuda="precision=tf32" --split-input-file | FileCheck %s --check-prefix=TF32
// RUN: nnc-opt %s --convert-nn-to-cuda="precision=bf16" --split-input-file | FileCheck %s --check-prefix=BF16

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

// Symmetric padding needs no explicit border: both gradients are one call
// each with cuDNN's padding (1). With tensor cores the three input channels
// grow to 4 (TF32) or 8 (bf16): the filter gets zero channels for the input
// gradient, the input for the filter gradient, and the gradients with
// respect to them are cut back; bf16 converts the operands to bf16 storage
// and the results back to f32.
// CHECK-LABEL: func.func @conv_grads_symmetric
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[DY:.*]] = bufferization.to_buffer %arg2 read_only : tensor<2x8x8x8xf32> to memref<2x8x8x8xf32>
// CHECK: %[[W:.*]] = bufferization.to_buffer %arg1 read_only : tensor<3x3x3x8xf32> to memref<3x3x3x8xf32>
// CHECK: %[[DX:.*]] = memref.alloc() : memref<2x8x8x3xf32>
// CHECK: call @nnrt_cuda_conv2d_backprop_input({{.*}}, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %{{.*}})
// CHECK: %[[DXT:.*]] = bufferization.to_tensor %[[DX]] restrict writable
// CHECK: %[[X:.*]] = bufferization.to_buffer %arg0 read_only : tensor<2x8x8x3xf32> to memref<2x8x8x3xf32>
// CHECK: %[[DW:.*]] = memref.alloc() : memref<3x3x3x8xf32>
// CHECK: call @nnrt_cuda_conv2d_backprop_filter({{.*}}, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %{{.*}})
// CHECK: %[[DWT:.*]] = bufferization.to_tensor %[[DW]] restrict writable
// CHECK-NOT: tensor.extract_slice
// CHECK: return %[[DXT]], %[[DWT]]
// TF32-LABEL: func.func @conv_grads_symmetric
// TF32: %[[WG:.*]] = tensor.insert_slice %arg1 into %{{.*}}[0, 0, 0, 0] [3, 3, 3, 8] [1, 1, 1, 1] : tensor<3x3x3x8xf32> into tensor<3x3x4x8xf32>
// TF32: bufferization.to_buffer %[[WG]] read_only
// TF32: %[[DX:.*]] = memref.alloc() : memref<2x8x8x4xf32>
// TF32: call @nnrt_cuda_conv2d_backprop_input({{.*}}, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %{{.*}})
// TF32: %[[DXT:.*]] = bufferization.to_tensor %[[DX]]
// TF32: %[[DXC:.*]] = tensor.extract_slice %[[DXT]][0, 0, 0, 0] [2, 8, 8, 3] [1, 1, 1, 1] : tensor<2x8x8x4xf32> to tensor<2x8x8x3xf32>
// TF32: %[[XG:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [2, 8, 8, 3] [1, 1, 1, 1] : tensor<2x8x8x3xf32> into tensor<2x8x8x4xf32>
// TF32: bufferization.to_buffer %[[XG]] read_only
// TF32: %[[DW:.*]] = memref.alloc() : memref<3x3x4x8xf32>
// TF32: call @nnrt_cuda_conv2d_backprop_filter(
// TF32: %[[DWT:.*]] = bufferization.to_tensor %[[DW]]
// TF32: %[[DWC:.*]] = tensor.extract_slice %[[DWT]][0, 0, 0, 0] [3, 3, 3, 8] [1, 1, 1, 1] : tensor<3x3x4x8xf32> to tensor<3x3x3x8xf32>
// TF32: return %[[DXC]], %[[DWC]]
// BF16-LABEL: func.func @conv_grads_symmetric
// BF16: tensor.insert_slice %arg1 into %{{.*}} : tensor<3x3x3x8xf32> into tensor<3x3x8x8xf32>
// BF16: arith.truncf %{{.*}} : f32 to bf16
// BF16: arith.truncf %{{.*}} : f32 to bf16
// BF16: %[[DX:.*]] = memref.alloc() : memref<2x8x8x8xbf16>
// BF16: call @nnrt_cuda_conv2d_backprop_input_bf16({{.*}}, %c2_i64, %{{.*}}) : (memref<?x?x?x?xbf16>, memref<?x?x?x?xbf16>, memref<?x?x?x?xbf16>,
// BF16: bufferization.to_tensor %[[DX]]
// BF16: arith.extf %{{.*}} : bf16 to f32
// BF16: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 8, 8, 3] [1, 1, 1, 1] : tensor<2x8x8x8xf32> to tensor<2x8x8x3xf32>
// BF16: call @nnrt_cuda_conv2d_backprop_filter_bf16(
// BF16: arith.extf %{{.*}} : bf16 to f32
// BF16: tensor.extract_slice %{{.*}}[0, 0, 0, 0] [3, 3, 3, 8] [1, 1, 1, 1] : tensor<3x3x8x8xf32> to tensor<3x3x3x8xf32>
func.func @conv_grads_symmetric(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x8xf32>, %dy: tensor<2x8x8x8xf32>) -> (tensor<2x8x8x3xf32>, tensor<3x3x3x8xf32>) {
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x8xf32>, tensor<3x3x3x8xf32>) -> tensor<2x8x8x3xf32>
  %1 = nn.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x3xf32>, tensor<2x8x8x8xf32>) -> tensor<3x3x3x8xf32>
  return %0, %1 : tensor<2x8x8x3xf32>, tensor<3x3x3x8xf32>
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

// A 4x4 stride-1 SAME max pool on 8 pads 1 then 2: its gradient pools the
// -inf padded input again (cuDNN pads nothing), runs cuDNN's backward
// call on the padded input, and keeps the interior of its gradient.
// CHECK-LABEL: func.func @max_pool_grad_asymmetric
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x11x11x4xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// CHECK: bufferization.to_buffer %[[P]] read_only
// CHECK: %[[Y:.*]] = memref.alloc() : memref<1x8x8x4xf32>
// CHECK: call @nnrt_cuda_pool2d({{.*}}, %c0_i64, %c4_i64, %c4_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: bufferization.to_buffer %[[P]] read_only
// CHECK: memref.cast %[[Y]]
// CHECK: bufferization.to_buffer %arg1 read_only
// CHECK: %[[DX:.*]] = memref.alloc() : memref<1x11x11x4xf32>
// CHECK: call @nnrt_cuda_pool2d_backward({{.*}}, %c0_i64, %c4_i64, %c4_i64, %c1_i64, %c1_i64, %c0_i64, %c0_i64, %{{.*}})
// CHECK: %[[DXT:.*]] = bufferization.to_tensor %[[DX]]
// CHECK: %[[I:.*]] = tensor.extract_slice %[[DXT]][0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1] : tensor<1x11x11x4xf32> to tensor<1x8x8x4xf32>
// CHECK: return %[[I]]
func.func @max_pool_grad_asymmetric(%x: tensor<1x8x8x4xf32>, %dy: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = nn.max_pool2d_grad %x, %dy {padding = #nn.padding<SAME>, strides = array<i64: 1, 1>, window = array<i64: 4, 4>} : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

// Average pooling with symmetric padding smaller than the window is
// cuDNN's (mode 1, padding 1); its gradient is not a library call and
// stays for the generated kernels.
// CHECK-LABEL: func.func @avg_pool
// CHECK: call @nnrt_cuda_pool2d({{.*}}, %c1_i64, %c3_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %{{.*}})
// CHECK: nn.avg_pool2d_grad
func.func @avg_pool(%x: tensor<1x5x5x4xf32>, %dy: tensor<1x3x3x4xf32>) -> (tensor<1x3x3x4xf32>, tensor<1x5x5x4xf32>) {
  %0 = nn.avg_pool2d %x {padding = #nn.padding<EXPLICIT>, pad = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x5x5x4xf32>) -> tensor<1x3x3x4xf32>
  %1 = nn.avg_pool2d_grad %dy {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x3x3x4xf32>) -> tensor<1x5x5x4xf32>
  return %0, %1 : tensor<1x3x3x4xf32>, tensor<1x5x5x4xf32>
}
