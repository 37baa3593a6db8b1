// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// TensorFlow SAME padding is asymmetric: 11x11 stride 4 on 224 pads 3 then 4.
// The padded input is a filled border with the input inserted, so the op
// that computes the input can write straight into it once bufferized.
// CHECK-LABEL: func.func @conv_same
// CHECK: %[[B:.*]] = linalg.fill {{.*}} -> tensor<1x231x231x3xf32>
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %[[B]][0, 3, 3, 0] [1, 224, 224, 3] [1, 1, 1, 1]
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>} ins(%[[P]], %arg1 : tensor<1x231x231x3xf32>, tensor<11x11x3x4xf32>) outs(%[[Z]] : tensor<1x56x56x4xf32>)
func.func @conv_same(%x: tensor<1x224x224x3xf32>, %w: tensor<11x11x3x4xf32>) -> tensor<1x56x56x4xf32> {
  %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 4, 4>} : (tensor<1x224x224x3xf32>, tensor<11x11x3x4xf32>) -> tensor<1x56x56x4xf32>
  return %0 : tensor<1x56x56x4xf32>
}

// -----

// VALID needs no pad; explicit padding is passed through; dilation kept.
// CHECK-LABEL: func.func @conv_valid_explicit
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1, 0, 0] [2, 8, 8, 4] [1, 1, 1, 1] : tensor<2x8x8x4xf32> into tensor<2x11x9x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 3]> : tensor<2xi64>}
func.func @conv_valid_explicit(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) -> (tensor<2x4x4x8xf32>, tensor<2x5x3x8xf32>) {
  %0 = nn.conv2d %x, %w {dilations = array<i64: 2, 2>, padding = #nn.padding<VALID>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  %1 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, pad = array<i64: 1, 2, 0, 1>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 2, 3>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x5x3x8xf32>
  return %0, %1 : tensor<2x4x4x8xf32>, tensor<2x5x3x8xf32>
}

// -----

// Max pooling pads with -inf, then takes the maximum of the window's nine
// strided views (offsets (kh, kw), stride 2): one elementwise op,
// contiguous along the channels.
// CHECK-LABEL: func.func @max_pool_same
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x25x25x8xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [1, 24, 24, 8] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 12, 12, 8] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %[[P]][0, 2, 2, 0] [1, 12, 12, 8] [1, 2, 2, 1]
// CHECK: linalg.generic {indexing_maps = [#map, #map, #map, #map, #map, #map, #map, #map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-COUNT-8: arith.maximumf
func.func @max_pool_same(%x: tensor<1x24x24x8xf32>) -> tensor<1x12x12x8xf32> {
  %0 = nn.max_pool2d %x {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x24x24x8xf32>) -> tensor<1x12x12x8xf32>
  return %0 : tensor<1x12x12x8xf32>
}

// -----

// Average pooling divides by the real (unpadded) elements of each window.
// CHECK-LABEL: func.func @avg_pool_same
// CHECK: linalg.generic
// CHECK-COUNT-8: arith.addf
// CHECK: linalg.generic
// CHECK: linalg.index 1
// CHECK: linalg.index 2
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: arith.sitofp
// CHECK: arith.divf
func.func @avg_pool_same(%x: tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = nn.avg_pool2d %x {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// -----

// LRN: squares, zero-padded by depth_radius channels, summed over 2r+1
// channel-shifted views (elementwise), then x * (bias + alpha * sum)^-beta;
// beta = 0.75 is 1 / (sqrt(n) * sqrt(sqrt(n))), no call to pow.
// CHECK-LABEL: func.func @lrn
// CHECK: arith.mulf
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 2] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x2x12xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 4] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x12xf32> to tensor<1x2x2x8xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-4: arith.addf
// CHECK: %[[ALPHA:.*]] = arith.constant 9.99999974E-5 : f32
// CHECK: %[[BIAS:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[ROOT:.*]] = math.sqrt %[[N:.*]] : f32
// CHECK: %[[FOURTH:.*]] = math.sqrt %[[ROOT]] : f32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[FOURTH]] : f32
// CHECK: arith.divf %{{.*}}, %[[P]] : f32
// CHECK-NOT: math.powf
func.func @lrn(%x: tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32> {
  %0 = nn.lrn %x {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 2 : i64} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

// CHECK-LABEL: func.func @dense
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<4x6xf32>, tensor<6x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID:.*]], #[[LAST:.*]], #[[ID]]]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK: math.tanh
func.func @dense(%x: tensor<4x6xf32>, %w: tensor<6x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = nn.matmul %x, %w : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %1 = nn.bias_add %0, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %2 = nn.relu %1 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = nn.sigmoid %2 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %4 = nn.tanh %3 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = nn.dropout %4 {rate = 0.5 : f64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %5 : tensor<4x3xf32>
}

// -----

// Transposed operands are read through the product's indexing maps, never
// copied.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transposed
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[A]], #[[B]], #[[C]]] ins(%arg0, %arg1 : tensor<6x4xf32>, tensor<3x6xf32>)
func.func @matmul_transposed(%a: tensor<6x4xf32>, %b: tensor<3x6xf32>) -> tensor<4x3xf32> {
  %0 = nn.matmul %a, %b {transpose_lhs, transpose_rhs} : (tensor<6x4xf32>, tensor<3x6xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @shapes
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : tensor<2x3x4x5xf32> into tensor<2x60xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x60xf32> into tensor<120xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [4, 5, 6] : tensor<120xf32> into tensor<4x5x6xf32>
// CHECK: tensor.concat dim(1) %arg1, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
func.func @shapes(%x: tensor<2x3x4x5xf32>, %y: tensor<2x3xf32>) -> (tensor<4x5x6xf32>, tensor<2x6xf32>) {
  %0 = nn.flatten %x : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  %1 = nn.reshape %0 {shape = array<i64: 4, 5, 6>} : (tensor<2x60xf32>) -> tensor<4x5x6xf32>
  %2 = nn.concat %y, %y {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %1, %2 : tensor<4x5x6xf32>, tensor<2x6xf32>
}

// -----

// CHECK-LABEL: func.func @norms
// CHECK: linalg.generic
// CHECK: math.rsqrt
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @norms(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = nn.batch_norm %x, %s, %s, %s, %s {epsilon = 1.0e-3 : f64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %1 = nn.softmax %0 {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// -----

// Losses reduce to rank-0 tensors.
// CHECK-LABEL: func.func @losses
// l2_loss: sum of squares, times 1/2.
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: arith.constant 5.000000e-01 : f32
// sparse softmax cross-entropy: row max, sum of exp, label gather, mean.
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: math.log
// CHECK: tensor.extract %arg0
// CHECK: arith.constant 2.500000e-01 : f32
// categorical: normalise, clip to [eps, 1 - eps], -log, mean.
// CHECK: arith.divf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.log
// weight decay: scale / 2 times the sum of squares.
// CHECK: arith.constant 2.000000e-03 : f32
func.func @losses(%x: tensor<4x3xf32>, %y: tensor<4xi32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = nn.l2_loss %x : (tensor<4x3xf32>) -> tensor<f32>
  %1 = nn.sparse_softmax_cross_entropy %x, %y : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  %2 = nn.categorical_cross_entropy %x, %y : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  %3 = nn.weight_decay %x {scale = 0.004 : f64} : (tensor<4x3xf32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Parameters and the optimizer stay for the training-step passes.
// CHECK-LABEL: module
// CHECK: nn.parameter @w
// CHECK: nn.optimizer <sgd>
// CHECK: nn.get_param @w
nn.parameter @w : tensor<3xf32> = #nn.zeros
nn.optimizer <sgd> {learning_rate = 0.1 : f64}
func.func @params() -> tensor<3xf32> {
  %0 = nn.get_param @w : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The input gradient is a stride-1 convolution of dy, spread by the stride
// and padded so that it yields exactly the input's positions: SAME 3x3
// stride 2 on 10 pads 0 then 1, so dy (9 wide once spread) gets 2 before
// and 1 after, and nothing is cut. A forward padding wider than the
// filter's reach (1x1, pad 1) yields the padded positions, then cuts.
// CHECK-LABEL: func.func @conv_input_grad
// CHECK: %[[D:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 2, 2, 0] [2, 5, 5, 4] [1, 2, 2, 1] : tensor<2x5x5x4xf32> into tensor<2x12x12x4xf32>
// CHECK: %[[G:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[D]], %{{.*}} : tensor<2x12x12x4xf32>, tensor<3x3x4x3xf32>) outs(%{{.*}} : tensor<2x10x10x3xf32>)
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[H:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg2, %{{.*}} : tensor<2x10x10x4xf32>, tensor<1x1x4x3xf32>)
// CHECK: %[[X:.*]] = tensor.extract_slice %[[H]][0, 1, 1, 0] [2, 8, 8, 3]
// CHECK: return %[[G]], %[[X]]
func.func @conv_input_grad(%dy: tensor<2x5x5x4xf32>, %w: tensor<3x3x3x4xf32>, %dy1: tensor<2x10x10x4xf32>, %w1: tensor<1x1x3x4xf32>) -> (tensor<2x10x10x3xf32>, tensor<2x8x8x3xf32>) {
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x5x5x4xf32>, tensor<3x3x3x4xf32>) -> tensor<2x10x10x3xf32>
  %1 = nn.conv2d_backprop_input %dy1, %w1 {dilations = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 1, 1>} : (tensor<2x10x10x4xf32>, tensor<1x1x3x4xf32>) -> tensor<2x8x8x3xf32>
  return %0, %1 : tensor<2x10x10x3xf32>, tensor<2x8x8x3xf32>
}
