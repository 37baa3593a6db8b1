// RUN: nnc-opt %s --nn-generate-training --split-input-file --verify-diagnostics | FileCheck %s

// A dense layer into a softmax cross-entropy. Gradients flow back through
// the interface: the loss gradient, the bias gradient, the weights' matmul
// (A^T dC); nothing is built for the input.
// CHECK-LABEL: module @dense
// CHECK: nn.parameter non_trainable @global_step : tensor<f32> = #nn.zeros
// CHECK: func.func @forward_backward(%{{.*}}: tensor<2x4xf32> {nn.name = "x"}, %[[Y:.*]]: tensor<2xi32> {nn.classes = 3 : i64, nn.name = "y"})
// CHECK-SAME: -> (tensor<f32> {nn.name = "loss"}, tensor<4x3xf32> {nn.name = "w.grad"}, tensor<3xf32> {nn.name = "b.grad"})
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[DL:.*]] = nn.sparse_softmax_cross_entropy_grad %{{.*}}, %[[Y]], %[[ONE]]
// CHECK: %[[DB:.*]] = nn.bias_add_grad %[[DL]]
// CHECK: %[[DW:.*]] = nn.matmul %{{.*}}, %[[DL]] {transpose_lhs}
// CHECK: return %{{.*}}, %[[DW]], %[[DB]]
// CHECK-LABEL: func.func @eval(
// CHECK: nn.correct_count
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[LR:.*]] = nn.learning_rate %{{.*}} {rate = 5.000000e-01 : f64}
// CHECK: %[[W:.*]] = nn.sgd_update %{{.*}}, %{{.*}}, %[[LR]] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK: nn.assign_param @w, %[[W]]
// CHECK: nn.assign_param @b,
// CHECK: nn.assign_param @global_step,
module @dense {
  nn.parameter @w : tensor<4x3xf32> = #nn.glorot_uniform
  nn.parameter @b : tensor<3xf32> = #nn.zeros
  nn.optimizer <sgd> {learning_rate = 0.5 : f64}
  func.func @forward(%x: tensor<2x4xf32> {nn.name = "x"}) -> tensor<2x3xf32> {
    %w = nn.get_param @w : tensor<4x3xf32>
    %m = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %b = nn.get_param @b : tensor<3xf32>
    %y = nn.bias_add %m, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    return %y : tensor<2x3xf32>
  }
  func.func @loss(%x: tensor<2x4xf32> {nn.name = "x"}, %l: tensor<2xi32> {nn.classes = 3 : i64, nn.name = "y"}) -> tensor<f32> {
    %0 = call @forward(%x) : (tensor<2x4xf32>) -> tensor<2x3xf32>
    %1 = nn.sparse_softmax_cross_entropy %0, %l : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
}

// -----

// A parameter read twice gets the sum of both gradients; a parameter the
// loss never reads gets zeros.
// CHECK-LABEL: module @twice
// CHECK-LABEL: func.func @forward_backward(
// CHECK-DAG: %[[SUM:.*]] = nn.add %[[G:.*]], %[[G]]
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK: return %{{.*}}, %[[SUM]], %[[ZERO]]
module @twice {
  nn.parameter @w : tensor<3xf32> = #nn.zeros
  nn.parameter @unused : tensor<3xf32> = #nn.zeros
  func.func @loss(%x: tensor<3xf32>) -> tensor<f32> {
    %w = nn.get_param @w : tensor<3xf32>
    %a = nn.add %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %w2 = nn.get_param @w : tensor<3xf32>
    %b = nn.add %a, %w2 : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %l = nn.l2_loss %b : (tensor<3xf32>) -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

// An op on the path to the loss without a gradient: a warning at the op, and
// the model keeps only its inference functions.
// CHECK-LABEL: module @concat
// CHECK-NOT: func.func @forward_backward
// CHECK-NOT: global_step
module @concat {
  nn.parameter @w : tensor<2x3xf32> = #nn.zeros
  func.func @loss(%x: tensor<2x3xf32>) -> tensor<f32> {
    %w = nn.get_param @w : tensor<2x3xf32>
    // expected-warning @+1 {{'nn.concat' op has no gradient yet, so a model using it cannot be trained; the model is compiled without its training functions}}
    %c = nn.concat %w, %x {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %l = nn.l2_loss %c : (tensor<4x3xf32>) -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

module @foreign {
  nn.parameter @w : tensor<3xf32> = #nn.zeros
  func.func @loss(%x: tensor<3xf32>) -> tensor<f32> {
    %w = nn.get_param @w : tensor<3xf32>
    // expected-warning @+1 {{'arith.mulf' op is on the path to the loss but has no gradient; the model is compiled without its training functions}}
    %m = arith.mulf %w, %x : tensor<3xf32>
    %l = nn.l2_loss %m : (tensor<3xf32>) -> tensor<f32>
    return %l : tensor<f32>
  }
}
