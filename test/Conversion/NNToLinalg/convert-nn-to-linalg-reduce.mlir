// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// mean over [1, 2] of NHWC: the kept axes (N, C) loop first, then H and W
// (reductions), accumulating x / (H * W).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @mean
// CHECK: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%arg0 : tensor<2x3x5x4xf32>) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: %[[INV:.*]] = arith.constant 0.0666666701 : f32
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[X]], %[[INV]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[T]] : f32
func.func @mean(%x: tensor<2x3x5x4xf32>) -> tensor<2x4xf32> {
  %0 = nn.mean %x {axes = array<i64: 1, 2>} : (tensor<2x3x5x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Its gradient reads dy through the kept axes in the input's loop order.
// CHECK-DAG: #[[DY:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @mean_grad
// CHECK: linalg.generic {indexing_maps = [#[[DY]], #[[ALL]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x4xf32>)
// CHECK: arith.constant 0.0666666701 : f32
func.func @mean_grad(%dy: tensor<2x4xf32>) -> tensor<2x3x5x4xf32> {
  %0 = nn.mean_grad %dy {axes = array<i64: 1, 2>} : (tensor<2x4xf32>) -> tensor<2x3x5x4xf32>
  return %0 : tensor<2x3x5x4xf32>
}

// -----

// concat's gradient: a static slice.
// CHECK-LABEL: func.func @slice
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 3] [2, 3, 5, 2] [1, 1, 1, 1] : tensor<2x3x5x8xf32> to tensor<2x3x5x2xf32>
func.func @slice(%x: tensor<2x3x5x8xf32>) -> tensor<2x3x5x2xf32> {
  %0 = nn.slice %x {axis = 3 : i64, offset = 3 : i64} : (tensor<2x3x5x8xf32>) -> tensor<2x3x5x2xf32>
  return %0 : tensor<2x3x5x2xf32>
}
