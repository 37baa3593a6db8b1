// RUN: nnc-opt %s --nn-generate-training --split-input-file --verify-diagnostics | FileCheck %s

// A dense layer into a softmax cross-entropy. Gradients flow back through
// the interface: the loss gradient, the bias gradient, the weights' matmul
// (A^T dC); nothing is built for the input.
// CHECK-LABEL: module @dense
// CHECK: nn.parameter non_trainable @global_step : tensor<i64> = #nn.zeros
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
// CHECK: %[[STEP:.*]] = nn.get_param @global_step : tensor<i64>
// CHECK: %[[LR:.*]] = nn.learning_rate %[[STEP]] {rate = 5.000000e-01 : f64} : (tensor<i64>) -> tensor<f32>
// CHECK: %[[W:.*]] = nn.sgd_update %{{.*}}, %{{.*}}, %[[LR]] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK: nn.assign_param @w, %[[W]]
// CHECK: nn.assign_param @b,
// CHECK: %[[NEXT:.*]] = nn.increment %[[STEP]] : tensor<i64>
// CHECK: nn.assign_param @global_step, %[[NEXT]] : tensor<i64>
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

// concat's gradient is a slice of the output's gradient per input, at the
// input's offset along the axis (a negative axis counts from the end).
// CHECK-LABEL: module @concat
// CHECK: func.func @forward_backward
// CHECK: %[[G:.*]] = nn.scale
// CHECK: nn.slice %[[G]] {axis = 0 : i64, offset = 0 : i64} : (tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK: nn.slice %[[G]] {axis = 0 : i64, offset = 2 : i64} : (tensor<4x3xf32>) -> tensor<2x3xf32>
module @concat {
  nn.parameter @w : tensor<2x3xf32> = #nn.zeros
  nn.parameter @v : tensor<2x3xf32> = #nn.zeros
  func.func @loss(%x: tensor<2x3xf32>) -> tensor<f32> {
    %w = nn.get_param @w : tensor<2x3xf32>
    %v = nn.get_param @v : tensor<2x3xf32>
    %c = nn.concat %w, %v {axis = -2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %l = nn.l2_loss %c : (tensor<4x3xf32>) -> tensor<f32>
    return %l : tensor<f32>
  }
}

// -----

// An op on the path to the loss without a gradient: a warning at the op, and
// the model keeps only its inference functions.
// CHECK-LABEL: module @foreign
// CHECK-NOT: func.func @forward_backward
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

// -----

// Training forms: batch norm normalises with the batch's statistics and, in
// train_step only, feeds them to the moving averages (the variance with
// Bessel's n/(n-1), n = 2*3 = 6 elements per channel); dropout draws its
// mask at the global step, and its gradient is the same mask. eval keeps
// the inference forms.
// CHECK-LABEL: module @training_forms
// CHECK: func.func @forward_backward
// CHECK: %[[STEP:.*]] = nn.get_param @global_step : tensor<i64>
// CHECK: %[[Y:.*]], %[[MEAN:.*]], %[[VAR:.*]] = nn.batch_norm_train %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64}
// CHECK: nn.dropout_train %[[Y]], %[[STEP]] {rate = 5.000000e-01 : f64, seed = 7 : i64} : (tensor<2x3x4xf32>, tensor<i64>)
// CHECK-NOT: nn.moving_average
// CHECK: nn.dropout_train %{{.*}}, %[[STEP]] {rate = 5.000000e-01 : f64, seed = 7 : i64}
// CHECK: nn.batch_norm_grad %{{.*}}, %{{.*}}, %[[MEAN]], %[[VAR]], %{{.*}} {epsilon = 1.000000e-03 : f64}
// CHECK: func.func @eval
// CHECK: nn.batch_norm %
// CHECK-NOT: nn.dropout_train
// CHECK: func.func @train_step
// CHECK: %[[STEP2:.*]] = nn.get_param @global_step
// CHECK: %[[Y2:.*]], %[[MEAN2:.*]], %[[VAR2:.*]] = nn.batch_norm_train
// CHECK: nn.dropout_train %[[Y2]], %[[STEP2]]
// CHECK: %[[MM:.*]] = nn.get_param @bn.moving_mean
// CHECK: %[[NM:.*]] = nn.moving_average %[[MM]], %[[MEAN2]] {decay = 9.000000e-01 : f64}
// CHECK: nn.assign_param @bn.moving_mean, %[[NM]]
// CHECK: %[[MV:.*]] = nn.get_param @bn.moving_variance
// CHECK: %[[NV:.*]] = nn.moving_average %[[MV]], %[[VAR2]] {correction = 1.200000e+00 : f64, decay = 9.000000e-01 : f64}
// CHECK: nn.assign_param @bn.moving_variance, %[[NV]]
// CHECK: nn.batch_norm_grad
module @training_forms {
  nn.parameter @bn.gamma : tensor<4xf32> = #nn.constant<1.0>
  nn.parameter @bn.beta : tensor<4xf32> = #nn.zeros
  nn.parameter non_trainable @bn.moving_mean : tensor<4xf32> = #nn.zeros
  nn.parameter non_trainable @bn.moving_variance : tensor<4xf32> = #nn.constant<1.0>
  nn.parameter @w : tensor<4x3xf32> = #nn.zeros
  nn.optimizer <sgd> {learning_rate = 0.1 : f64}
  func.func @forward(%x: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
    %g = nn.get_param @bn.gamma : tensor<4xf32>
    %b = nn.get_param @bn.beta : tensor<4xf32>
    %m = nn.get_param @bn.moving_mean : tensor<4xf32>
    %v = nn.get_param @bn.moving_variance : tensor<4xf32>
    %y = nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-3 : f64, decay = 0.9 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
    %d = nn.dropout %y {rate = 0.5 : f64, seed = 7 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %p = nn.mean %d {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
    %w = nn.get_param @w : tensor<4x3xf32>
    %o = nn.matmul %p, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    return %o : tensor<2x3xf32>
  }
  func.func @loss(%x: tensor<2x3x4xf32>, %labels: tensor<2xi32> {nn.classes = 3 : i64}) -> tensor<f32> {
    %o = func.call @forward(%x) : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
    %l = nn.sparse_softmax_cross_entropy %o, %labels : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
    return %l : tensor<f32>
  }
}
