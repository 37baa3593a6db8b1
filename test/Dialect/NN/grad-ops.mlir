// RUN: nnc-opt %s | nnc-opt | FileCheck %s

// The gradient and training ops round-trip.
// CHECK-LABEL: func.func @grads
func.func @grads(%x: tensor<2x10x10x3xf32>, %w: tensor<3x3x3x4xf32>,
                 %dy: tensor<2x5x5x4xf32>, %y: tensor<2x5x5x4xf32>,
                 %l: tensor<2x5xf32>, %lab: tensor<2xi32>, %s: tensor<f32>,
                 %dp: tensor<2x3x3x4xf32>, %step: tensor<i64>) {
  // CHECK: nn.conv2d_backprop_input
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x5x5x4xf32>, tensor<3x3x3x4xf32>) -> tensor<2x10x10x3xf32>
  // CHECK: nn.conv2d_backprop_filter
  %1 = nn.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x10x10x3xf32>, tensor<2x5x5x4xf32>) -> tensor<3x3x3x4xf32>
  // CHECK: nn.bias_add_grad
  %2 = nn.bias_add_grad %dy : (tensor<2x5x5x4xf32>) -> tensor<4xf32>
  // CHECK: nn.max_pool2d_grad
  %3 = nn.max_pool2d_grad %y, %dp {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<2x5x5x4xf32>, tensor<2x3x3x4xf32>) -> tensor<2x5x5x4xf32>
  // CHECK: nn.relu_grad
  %4 = nn.relu_grad %y, %dy : (tensor<2x5x5x4xf32>, tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  // CHECK: nn.lrn_grad
  %5 = nn.lrn_grad %y, %dy {alpha = 1.0e-4 : f64, beta = 7.5e-1 : f64, bias = 1.0 : f64, depth_radius = 2 : i64} : (tensor<2x5x5x4xf32>, tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  // CHECK: nn.sparse_softmax_cross_entropy_grad
  %6 = nn.sparse_softmax_cross_entropy_grad %l, %lab, %s : (tensor<2x5xf32>, tensor<2xi32>, tensor<f32>) -> tensor<2x5xf32>
  // CHECK: nn.scale {{.*}} {factor = 4.000000e-03 : f64}
  %7 = nn.scale %l, %s {factor = 0.004 : f64} : (tensor<2x5xf32>, tensor<f32>) -> tensor<2x5xf32>
  // CHECK: nn.correct_count
  %8 = nn.correct_count %l, %lab : (tensor<2x5xf32>, tensor<2xi32>) -> tensor<i32>
  // CHECK: nn.learning_rate {{.*}} {decay = 1.000000e-01 : f64, decay_steps = 100 : i64, rate = 1.000000e-01 : f64, staircase}
  // CHECK-SAME: : (tensor<i64>) -> tensor<f32>
  %9 = nn.learning_rate %step {rate = 0.1 : f64, decay = 0.1 : f64, decay_steps = 100 : i64, staircase} : (tensor<i64>) -> tensor<f32>
  // CHECK: nn.increment %{{.*}} : tensor<i64>
  %next = nn.increment %step : tensor<i64>
  // CHECK: nn.sgd_update {{.*}} {momentum = 9.000000e-01 : f64, nesterov}
  %10:2 = nn.sgd_update %l, %l, %9, %l {momentum = 0.9 : f64, nesterov} : (tensor<2x5xf32>, tensor<2x5xf32>, tensor<f32>, tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
  return
}
