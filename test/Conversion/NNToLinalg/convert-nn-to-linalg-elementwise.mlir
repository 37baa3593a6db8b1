// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// bias_add reads the bias through the last axis; relu, sigmoid and tanh
// are elementwise generics; inference dropout is the identity.
// CHECK-LABEL: func.func @activations
// CHECK: linalg.generic {indexing_maps = [#[[ID:.*]], #[[LAST:.*]], #[[ID]]]
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK: %[[T:.*]] = math.tanh
// CHECK-NEXT: linalg.yield %[[T]]
// CHECK: } -> tensor<4x3xf32>
// CHECK-NEXT: return
func.func @activations(%x: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %1 = nn.bias_add %x, %b : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %2 = nn.relu %1 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %3 = nn.sigmoid %2 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %4 = nn.tanh %3 : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %5 = nn.dropout %4 {rate = 0.5 : f64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %5 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @add
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32,
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[S]]
func.func @add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = nn.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Softmax along the last axis: the row maximum, exp(x - max), the row
// sum, and the quotient.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]], #[[ALL]]], iterator_types = ["parallel", "parallel"]}
// CHECK: math.exp
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]], #[[ALL]]], iterator_types = ["parallel", "parallel"]}
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = nn.softmax %x {axis = -1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Activation gradients from the activation's output y: relu passes dy
// where y > 0, sigmoid multiplies it by y(1 - y), tanh by 1 - y^2.
// CHECK-LABEL: func.func @activation_grads
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[Y:[^:]*]]: f32, %[[DY:[^:]*]]: f32,
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[Y]], %[[Z]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[POS]], %[[DY]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: %[[SIG:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[Y:[^:]*]]: f32, %[[DY:[^:]*]]: f32,
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[OMY:.*]] = arith.subf %[[ONE]], %[[Y]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[Y]], %[[OMY]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[DY]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: %[[TANH:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[Y:[^:]*]]: f32, %[[DY:[^:]*]]: f32,
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[YY:.*]] = arith.mulf %[[Y]], %[[Y]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[ONE]], %[[YY]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[DY]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: return %[[RELU]], %[[SIG]], %[[TANH]]
func.func @activation_grads(%y: tensor<2x3xf32>, %dy: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = nn.relu_grad %y, %dy : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = nn.sigmoid_grad %y, %dy : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = nn.tanh_grad %y, %dy : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// softmax_grad: dx = y * (dy - sum_axis(dy * y)); the sum is a reduction
// along the axis (the last by default, or the one given), read back
// through the map that drops it.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[NOLAST:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[NOMID:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_grad
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[ALL]]], {{.*}} ins(%arg0, %arg1 :
// CHECK-NEXT: ^bb0(%[[Y:[^:]*]]: f32, %[[DY:[^:]*]]: f32,
// CHECK-NEXT: arith.mulf %[[Y]], %[[DY]] : f32
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[NOLAST]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[P]] : tensor<2x3x5xf32>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: arith.addf %[[ACC]], %[[V]] : f32
// CHECK: %[[G:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[NOLAST]], #[[ALL]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg1, %[[S]] :
// CHECK-NEXT: ^bb0(%[[Y:[^:]*]]: f32, %[[DY:[^:]*]]: f32, %[[SI:[^:]*]]: f32,
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[DY]], %[[SI]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[Y]], %[[D]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[NOMID]]], iterator_types = ["parallel", "reduction", "parallel"]} {{.*}} outs(%{{.*}} : tensor<2x5xf32>)
// CHECK: %[[G1:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[NOMID]], #[[ALL]]]
// CHECK: return %[[G]], %[[G1]]
func.func @softmax_grad(%y: tensor<2x3x5xf32>, %dy: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  %0 = nn.softmax_grad %y, %dy : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %1 = nn.softmax_grad %y, %dy {axis = 1 : i64} : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0, %1 : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

// -----

// bias_add_grad sums dy over every axis but the channel: first along the
// rows (the axis before the channel; the others parallel), then the
// partial sums with the channel as the first loop (parallel), the others
// reductions. No float32 accumulator adds more than a row or the rows.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @bias_add_grad
// CHECK: %[[ZP:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x5x4xf32>)
// CHECK: %[[P:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ROWS]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%arg0 : tensor<2x5x5x4xf32>) outs(%[[ZP]] : tensor<2x5x4xf32>)
// CHECK-NEXT: ^bb0(%[[V0:[^:]*]]: f32, %[[ACC0:[^:]*]]: f32):
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[ACC0]], %[[V0]] : f32
// CHECK-NEXT: linalg.yield %[[S0]] : f32
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%[[P]] : tensor<2x5x4xf32>) outs(%[[Z]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @bias_add_grad(%dy: tensor<2x5x5x4xf32>) -> tensor<4xf32> {
  %0 = nn.bias_add_grad %dy : (tensor<2x5x5x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// scale (the gradient of l2_loss and weight_decay): x * s * factor, the
// rank-0 s broadcast through an empty map.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @scale
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[SCALAR]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<f32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[S:[^:]*]]: f32,
// CHECK-NEXT: %[[XS:.*]] = arith.mulf %[[X]], %[[S]] : f32
// CHECK-NEXT: %[[F:.*]] = arith.constant 4.000000e-03 : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[XS]], %[[F]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @scale(%x: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %0 = nn.scale %x, %s {factor = 0.004 : f64} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
