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

// A strided input gradient multiplies no zeros: each phase of the input
// positions (even or odd rows and columns at stride 2) is a stride-1
// convolution of dy with the taps that reach it, inserted at stride 2.
// SAME 3x3 stride 2 on 10 pads 0 then 1: even positions take taps 0 and 2
// (dy padded by 1 before), odd ones tap 1 (dy as it is). At stride 1, a
// forward padding wider than the filter's reach (1x1, pad 1) yields the
// padded positions, then cuts.
// CHECK-DAG: #[[EVEN:.*]] = affine_map<(d0, d1, d2, d3) -> ((-d0 + 1) * 2, (-d1 + 1) * 2, d3, d2)>
// CHECK-DAG: #[[ODD:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * -2 + 1, d1 * -2 + 1, d3, d2)>
// CHECK-LABEL: func.func @conv_input_grad
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [2, 5, 5, 4] [1, 1, 1, 1] : tensor<2x5x5x4xf32> into tensor<2x6x6x4xf32>
// CHECK: %[[WE:.*]] = linalg.generic {indexing_maps = [#[[EVEN]], {{.*}}ins(%arg1 : tensor<3x3x3x4xf32>) outs(%{{.*}} : tensor<2x2x4x3xf32>)
// CHECK: %[[EE:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %[[WE]] : tensor<2x6x6x4xf32>, tensor<2x2x4x3xf32>) outs(%{{.*}} : tensor<2x5x5x3xf32>)
// CHECK: %[[WO:.*]] = linalg.generic {indexing_maps = [#[[ODD]], {{.*}}outs(%{{.*}} : tensor<1x1x4x3xf32>)
// CHECK: %[[OO:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[WO]] : tensor<2x5x5x4xf32>, tensor<1x1x4x3xf32>) outs(%{{.*}} : tensor<2x5x5x3xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x10x10x3xf32>
// CHECK: %[[I1:.*]] = tensor.insert_slice %[[EE]] into %[[E]][0, 0, 0, 0] [2, 5, 5, 3] [1, 2, 2, 1]
// CHECK: %[[I2:.*]] = tensor.insert_slice %{{.*}} into %[[I1]][0, 0, 1, 0] [2, 5, 5, 3] [1, 2, 2, 1]
// CHECK: %[[I3:.*]] = tensor.insert_slice %{{.*}} into %[[I2]][0, 1, 0, 0] [2, 5, 5, 3] [1, 2, 2, 1]
// CHECK: %[[G:.*]] = tensor.insert_slice %[[OO]] into %[[I3]][0, 1, 1, 0] [2, 5, 5, 3] [1, 2, 2, 1]
// CHECK: %[[H:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg2, %{{.*}} : tensor<2x10x10x4xf32>, tensor<1x1x4x3xf32>)
// CHECK: %[[X:.*]] = tensor.extract_slice %[[H]][0, 1, 1, 0] [2, 8, 8, 3]
// CHECK: return %[[G]], %[[X]]
func.func @conv_input_grad(%dy: tensor<2x5x5x4xf32>, %w: tensor<3x3x3x4xf32>, %dy1: tensor<2x10x10x4xf32>, %w1: tensor<1x1x3x4xf32>) -> (tensor<2x10x10x3xf32>, tensor<2x8x8x3xf32>) {
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x5x5x4xf32>, tensor<3x3x3x4xf32>) -> tensor<2x10x10x3xf32>
  %1 = nn.conv2d_backprop_input %dy1, %w1 {dilations = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 1, 1>} : (tensor<2x10x10x4xf32>, tensor<1x1x3x4xf32>) -> tensor<2x8x8x3xf32>
  return %0, %1 : tensor<2x10x10x3xf32>, tensor<2x8x8x3xf32>
}

// -----

// A 1x1 stride-2 input gradient (ResNet's projections) is one 1x1
// convolution of dy written to the even positions of a zero-filled
// gradient: the odd phases have no taps. Stride 3 with a 3x3 VALID filter
// on 8 (the last two rows unread): one tap per phase and axis, nine 1x1
// convolutions that cover every position (rows past dy's reach read the
// zeros their windows are padded with).
// CHECK-LABEL: func.func @conv_input_grad_1x1
// CHECK-NOT: tensor<2x9x9x4xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %{{.*}} : tensor<2x5x5x4xf32>, tensor<1x1x4x3xf32>) outs(%{{.*}} : tensor<2x5x5x3xf32>)
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<2x10x10x3xf32>
// CHECK: %[[G:.*]] = tensor.insert_slice %[[C]] into %[[Z]][0, 0, 0, 0] [2, 5, 5, 3] [1, 2, 2, 1]
// CHECK-COUNT-9: linalg.conv_2d_nhwc_hwcf {{.*}} tensor<1x1x4x3xf32>) outs(%{{.*}} : tensor<2x{{[23]}}x{{[23]}}x3xf32>)
// CHECK: tensor.empty() : tensor<2x8x8x3xf32>
// CHECK-COUNT-9: tensor.insert_slice {{.*}} [1, 3, 3, 1]
// CHECK: return %[[G]]
func.func @conv_input_grad_1x1(%dy: tensor<2x5x5x4xf32>, %w: tensor<1x1x3x4xf32>, %dy3: tensor<2x2x2x4xf32>, %w3: tensor<3x3x3x4xf32>) -> (tensor<2x10x10x3xf32>, tensor<2x8x8x3xf32>) {
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x5x5x4xf32>, tensor<1x1x3x4xf32>) -> tensor<2x10x10x3xf32>
  %1 = nn.conv2d_backprop_input %dy3, %w3 {dilations = array<i64: 1, 1>, padding = #nn.padding<VALID>, strides = array<i64: 3, 3>} : (tensor<2x2x2x4xf32>, tensor<3x3x3x4xf32>) -> tensor<2x8x8x3xf32>
  return %0, %1 : tensor<2x10x10x3xf32>, tensor<2x8x8x3xf32>
}

// -----

// The input gradient's filter is the forward filter flipped in both window
// axes with its channel axes swapped: w'[kh, kw, f, c] = w[2-kh, 2-kw, c, f].
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d3, d2)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_input_grad_filter
// Stride 1, SAME: dy padded by (k-1) - 1 = 1 on each side, no holes.
// CHECK: %[[D:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 1, 1, 0] [2, 6, 6, 4] [1, 1, 1, 1] : tensor<2x6x6x4xf32> into tensor<2x8x8x4xf32>
// CHECK: %[[W:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg1 : tensor<3x3x3x4xf32>) outs(%{{.*}} : tensor<3x3x4x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: %[[G:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[D]], %[[W]] : tensor<2x8x8x4xf32>, tensor<3x3x4x3xf32>) outs(%{{.*}} : tensor<2x6x6x3xf32>)
// CHECK: return %[[G]]
func.func @conv_input_grad_filter(%dy: tensor<2x6x6x4xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x6x6x3xf32> {
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x6x6x4xf32>, tensor<3x3x3x4xf32>) -> tensor<2x6x6x3xf32>
  return %0 : tensor<2x6x6x3xf32>
}

// -----

// The filter gradient is one generic op: it reads the padded input (SAME
// 3x3 stride 2 on 10 pads 0 then 1) at oh*2 + kh, ow*2 + kw, and reduces
// over the batch and output positions (the last three loops). A dilation
// scales the window offset instead: oh + kh*2, ow + kw*2, no padding.
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 * 2 + d0, d6 * 2 + d1, d2)>
// CHECK-DAG: #[[DYMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK-DAG: #[[DWMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[XDMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 + d0 * 2, d6 + d1 * 2, d2)>
// CHECK-LABEL: func.func @conv_filter_grad
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 0, 0] [2, 10, 10, 3] [1, 1, 1, 1] : tensor<2x10x10x3xf32> into tensor<2x11x11x3xf32>
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<3x3x3x4xf32>)
// CHECK: %[[DW1:.*]] = linalg.generic {indexing_maps = [#[[XMAP]], #[[DYMAP]], #[[DWMAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[P]], %arg1 : tensor<2x11x11x3xf32>, tensor<2x5x5x4xf32>) outs(%[[Z]] : tensor<3x3x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[XI:[^:]*]]: f32, %[[DYI:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[XI]], %[[DYI]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[DW2:.*]] = linalg.generic {indexing_maps = [#[[XDMAP]], #[[DYMAP]], #[[DWMAP]]], {{.*}} ins(%arg0, %arg2 : tensor<2x10x10x3xf32>, tensor<2x6x6x4xf32>)
// CHECK: return %[[DW1]], %[[DW2]]
func.func @conv_filter_grad(%x: tensor<2x10x10x3xf32>, %dy: tensor<2x5x5x4xf32>, %dy1: tensor<2x6x6x4xf32>) -> (tensor<3x3x3x4xf32>, tensor<3x3x3x4xf32>) {
  %0 = nn.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x10x10x3xf32>, tensor<2x5x5x4xf32>) -> tensor<3x3x3x4xf32>
  %1 = nn.conv2d_backprop_filter %x, %dy1 {dilations = array<i64: 2, 2>, padding = #nn.padding<VALID>, strides = array<i64: 1, 1>} : (tensor<2x10x10x3xf32>, tensor<2x6x6x4xf32>) -> tensor<3x3x3x4xf32>
  return %0, %1 : tensor<3x3x3x4xf32>, tensor<3x3x3x4xf32>
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

// max_pool2d_grad: the input padded with -inf (SAME 3/2 on 5 pads 1 on
// each side), the winner of each window (the first offset holding its
// maximum) from its nine strided views.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[B:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<1x7x7x2xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %[[B]][0, 1, 1, 0] [1, 5, 5, 2] [1, 1, 1, 1]
// CHECK: %[[V0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK-COUNT-7: tensor.extract_slice %[[P]]
// CHECK: %[[V8:.*]] = tensor.extract_slice %[[P]][0, 2, 2, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[WIN:.*]] = linalg.generic {{.*}} ins(%[[V0]], {{.*}}, %[[V8]] : {{.*}}) outs(%{{.*}} : tensor<1x3x3x2xi32>)
// CHECK-NEXT: ^bb0(%[[A0:[^:]*]]: f32, {{.*}}, %[[A8:[^:]*]]: f32, %{{.*}}: i32):
// CHECK-COUNT-7: arith.maximumf
// CHECK-NEXT: %[[BEST:.*]] = arith.maximumf %{{.*}}, %[[A8]] : f32
// CHECK-NEXT: %[[LAST:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[H7:.*]] = arith.cmpf oeq, %{{.*}}, %[[BEST]] : f32
// CHECK-NEXT: %[[K7:.*]] = arith.constant 7 : i32
// CHECK-NEXT: arith.select %[[H7]], %[[K7]], %[[LAST]] : i32
// CHECK: %[[H0:.*]] = arith.cmpf oeq, %[[A0]], %[[BEST]] : f32
// CHECK-NEXT: %[[K0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[W:.*]] = arith.select %[[H0]], %[[K0]], %{{.*}} : i32
// CHECK-NEXT: linalg.yield %[[W]] : i32
// Then dx gathers by phase of the stride: the even rows and columns
// (window offset 1 of each axis, k = 4), the even rows' odd columns
// (offsets 0 of the window to their right, k = 3, and 2 of their own,
// k = 5), the odd rows' even columns (k = 1, 7) and the odd rows' odd
// columns (k = 0, 2, 6, 8), each one elementwise op over a strided view of
// dx, the padding (-1 for the winners) never read (SAME 3/2 on 5).
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x5x5x2xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[U0:.*]] = linalg.generic {{.*}} ins(%[[WIN]], %arg1 : tensor<1x3x3x2xi32>, tensor<1x3x3x2xf32>) outs(%[[S0]] : tensor<1x3x3x2xf32>)
// CHECK-NEXT: ^bb0(%[[WI:[^:]*]]: i32, %[[G:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[K:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[WON:.*]] = arith.cmpi eq, %[[WI]], %[[K]] : i32
// CHECK-NEXT: %[[ZF:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[T:.*]] = arith.select %[[WON]], %[[G]], %[[ZF]] : f32
// CHECK-NEXT: linalg.yield %[[T]] : f32
// CHECK: %[[D0:.*]] = tensor.insert_slice %[[U0]] into %[[E]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[S1:.*]] = tensor.extract_slice %[[D0]][0, 0, 1, 0] [1, 3, 2, 2] [1, 2, 2, 1]
// CHECK: %[[W3:.*]] = tensor.extract_slice %[[WIN]][0, 0, 1, 0] [1, 3, 2, 2] [1, 1, 1, 1]
// CHECK: %[[G3:.*]] = tensor.extract_slice %arg1[0, 0, 1, 0] [1, 3, 2, 2] [1, 1, 1, 1]
// CHECK: %[[W5:.*]] = tensor.extract_slice %[[WIN]][0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 1, 1]
// CHECK: %[[G5:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[W3]], %[[G3]], %[[W5]], %[[G5]] : {{.*}}) outs(%[[S1]] : tensor<1x3x2x2xf32>)
// CHECK: arith.constant 3 : i32
// CHECK: arith.constant 5 : i32
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.*}} into %[[D0]][0, 0, 1, 0] [1, 3, 2, 2] [1, 2, 2, 1]
// CHECK: arith.constant 1 : i32
// CHECK: arith.constant 7 : i32
// CHECK: tensor.insert_slice %{{.*}}[0, 1, 0, 0] [1, 2, 3, 2] [1, 2, 2, 1]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x2x2xf32>)
// CHECK: arith.constant 0 : i32
// CHECK: arith.constant 2 : i32
// CHECK: arith.addf
// CHECK: arith.constant 6 : i32
// CHECK: arith.addf
// CHECK: arith.constant 8 : i32
// CHECK: arith.addf
// CHECK: %[[DX:.*]] = tensor.insert_slice %{{.*}}[0, 1, 1, 0] [1, 2, 2, 2] [1, 2, 2, 1]
// CHECK-NEXT: return %[[DX]]
func.func @max_pool_grad(%x: tensor<1x5x5x2xf32>, %dy: tensor<1x3x3x2xf32>) -> tensor<1x5x5x2xf32> {
  %0 = nn.max_pool2d_grad %x, %dy {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x5x5x2xf32>, tensor<1x3x3x2xf32>) -> tensor<1x5x5x2xf32>
  return %0 : tensor<1x5x5x2xf32>
}

// -----

// avg_pool2d_grad: each window's gradient divided once by its real
// (unpadded) positions (SAME 3/2 on 5 pads 1 before: rows oh*2 - 1 ..
// oh*2 + 2 clamped to [0, 5), the same for columns), then gathered by
// phase of the stride, as max_pool2d_grad's are.
// CHECK-LABEL: func.func @avg_pool_grad
// CHECK: %[[SH:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x3x3x2xf32>)
// CHECK-NEXT: ^bb0(%[[DYI:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[OH:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[OW:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[OH]], %[[C2]] : index
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[START:.*]] = arith.subi %[[M]], %[[C1]] : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[END:.*]] = arith.addi %[[START]], %[[C3]] : index
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:.*]] = arith.maxsi %[[START]], %[[C0]] : index
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[END]], %[[C5]] : index
// CHECK-NEXT: %[[ROWS:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: arith.muli %[[OW]]
// CHECK: arith.minsi
// CHECK-NEXT: %[[COLS:.*]] = arith.subi
// CHECK-NEXT: %[[N:.*]] = arith.muli %[[ROWS]], %[[COLS]] : index
// CHECK-NEXT: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK-NEXT: %[[NF:.*]] = arith.sitofp %[[NI]] : i64 to f32
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[DYI]], %[[NF]] : f32
// CHECK-NEXT: linalg.yield %[[Q]] : f32
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x5x5x2xf32>
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[U0:.*]] = linalg.generic {{.*}} ins(%[[SH]] : tensor<1x3x3x2xf32>) outs(%[[S0]] : tensor<1x3x3x2xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: tensor.insert_slice %[[U0]] into %[[E]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %[[SH]][0, 0, 1, 0] [1, 3, 2, 2] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %[[SH]][0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 1, 1]
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 1, 0] [1, 3, 2, 2] [1, 2, 2, 1]
// CHECK: tensor.insert_slice %{{.*}}[0, 1, 0, 0] [1, 2, 3, 2] [1, 2, 2, 1]
// CHECK-COUNT-3: arith.addf
// CHECK: %[[DX:.*]] = tensor.insert_slice %{{.*}}[0, 1, 1, 0] [1, 2, 2, 2] [1, 2, 2, 1]
// CHECK-NEXT: return %[[DX]]
func.func @avg_pool_grad(%dy: tensor<1x3x3x2xf32>) -> tensor<1x5x5x2xf32> {
  %0 = nn.avg_pool2d_grad %dy {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<1x3x3x2xf32>) -> tensor<1x5x5x2xf32>
  return %0 : tensor<1x5x5x2xf32>
}

// -----

// Windows that do not overlap: each of the four phases copies the shares
// to its strided view of dx, nothing added, nothing filled.
// CHECK-LABEL: func.func @avg_pool_grad_valid
// CHECK: %[[SH:.*]] = linalg.generic
// CHECK-NOT: linalg.fill
// CHECK: tensor.empty() : tensor<1x4x4x2xf32>
// CHECK-COUNT-4: ins(%[[SH]] : tensor<1x2x2x2xf32>)
// CHECK-NOT: arith.addf
// CHECK: return
func.func @avg_pool_grad_valid(%dy: tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = nn.avg_pool2d_grad %dy {padding = #nn.padding<VALID>, strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : (tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// At stride 1 the gradient gathers: the shares (each window's gradient over
// its real positions) padded by the window less the pool's padding (SAME
// 3/1 pads 1 each side: 2 - 1 = 1), then each position sums the 3x3 slices
// that end at it, in one elementwise op, as the forward pool does.
// CHECK-LABEL: func.func @avg_pool_grad_stride1
// CHECK: %[[SH:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x5x5x2xf32>)
// CHECK: arith.divf
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x7x7x2xf32>)
// CHECK: %[[P:.*]] = tensor.insert_slice %[[SH]] into %[[Z]][0, 1, 1, 0] [1, 5, 5, 2] [1, 1, 1, 1]
// CHECK: %[[S0:.*]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 5, 5, 2] [1, 1, 1, 1]
// CHECK-COUNT-7: tensor.extract_slice %[[P]]
// CHECK: %[[S8:.*]] = tensor.extract_slice %[[P]][0, 2, 2, 0] [1, 5, 5, 2] [1, 1, 1, 1]
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[DX:.*]] = linalg.generic {{.*}} ins(%[[S0]], {{.*}}, %[[S8]] : {{.*}}) outs(%{{.*}} : tensor<1x5x5x2xf32>)
// CHECK-COUNT-8: arith.addf
// CHECK: return %[[DX]]
func.func @avg_pool_grad_stride1(%dy: tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32> {
  %0 = nn.avg_pool2d_grad %dy {padding = #nn.padding<SAME>, strides = array<i64: 1, 1>, window = array<i64: 3, 3>} : (tensor<1x5x5x2xf32>) -> tensor<1x5x5x2xf32>
  return %0 : tensor<1x5x5x2xf32>
}

// -----

// One window over the whole image (a global pool): every position gets
// its image's share, one broadcast.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[IMAGE:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
// CHECK-LABEL: func.func @avg_pool_grad_global
// CHECK: %[[SH:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x1x1x3xf32>)
// CHECK: arith.divf
// CHECK: %[[DX:.*]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[ID]]]{{.*}} ins(%[[SH]] : tensor<2x1x1x3xf32>) outs(%{{.*}} : tensor<2x4x4x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK: return %[[DX]]
func.func @avg_pool_grad_global(%dy: tensor<2x1x1x3xf32>) -> tensor<2x4x4x3xf32> {
  %0 = nn.avg_pool2d_grad %dy {padding = #nn.padding<VALID>, strides = array<i64: 1, 1>, window = array<i64: 4, 4>} : (tensor<2x1x1x3xf32>) -> tensor<2x4x4x3xf32>
  return %0 : tensor<2x4x4x3xf32>
}
