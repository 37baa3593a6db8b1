// RUN: nnc-opt %s --nn-generate-training --split-input-file --verify-diagnostics | FileCheck %s

// A dense layer into a softmax cross-entropy. Gradients flow back through
// the interface: the loss gradient, the bias gradient, the weights' matmul
// (A^T dC); nothing is built for the input. They are derived once for
// forward_backward and gradients, in a private @training_pass with
// @forward inlined, which returns the loss, the correct count and the
// gradients and which both call; train_step has its own copy, where each
// update follows its gradient.
// CHECK-LABEL: module @dense
// CHECK: nn.parameter non_trainable @global_step : tensor<i64> = #nn.zeros
// CHECK: func.func private @training_pass(%{{.*}}: tensor<2x4xf32> {nn.name = "x"}, %[[Y:.*]]: tensor<2xi32> {nn.classes = 3 : i64, nn.name = "y"})
// CHECK-SAME: -> (tensor<f32> {nn.name = "loss"}, tensor<i32> {nn.name = "correct"}, tensor<4x3xf32> {nn.name = "w.grad"}, tensor<3xf32> {nn.name = "b.grad"})
// CHECK-NOT: call
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[DL:.*]] = nn.sparse_softmax_cross_entropy_grad %{{.*}}, %[[Y]], %[[ONE]]
// CHECK: %[[DB:.*]] = nn.bias_add_grad %[[DL]]
// CHECK: %[[DW:.*]] = nn.matmul %{{.*}}, %[[DL]] {transpose_lhs}
// CHECK: %[[C:.*]] = nn.correct_count
// CHECK: return %{{.*}}, %[[C]], %[[DW]], %[[DB]]
// CHECK-LABEL: func.func @forward_backward(%{{.*}}: tensor<2x4xf32> {nn.name = "x"}, %{{.*}}: tensor<2xi32> {nn.classes = 3 : i64, nn.name = "y"})
// CHECK-SAME: -> (tensor<f32> {nn.name = "loss"}, tensor<4x3xf32> {nn.name = "w.grad"}, tensor<3xf32> {nn.name = "b.grad"})
// CHECK-NEXT: %[[P:.*]]:4 = call @training_pass(%arg0, %arg1)
// CHECK-NEXT: return %[[P]]#0, %[[P]]#2, %[[P]]#3
// CHECK-LABEL: func.func @eval(
// CHECK: nn.correct_count
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[STEP:.*]] = nn.get_param @global_step : tensor<i64>
// CHECK-NOT: call
// CHECK: %[[DL2:.*]] = nn.sparse_softmax_cross_entropy_grad
// CHECK: %[[DB2:.*]] = nn.bias_add_grad %[[DL2]]
// CHECK: %[[DW2:.*]] = nn.matmul %{{.*}}, %[[DL2]] {transpose_lhs}
// CHECK: %[[C2:.*]] = nn.correct_count
// CHECK: %[[LR:.*]] = nn.learning_rate %[[STEP]] {rate = 5.000000e-01 : f64} : (tensor<i64>) -> tensor<f32>
// CHECK: %[[W:.*]] = nn.sgd_update %{{.*}}, %[[DW2]], %[[LR]] : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// CHECK: nn.assign_param @w, %[[W]]
// CHECK: nn.sgd_update %{{.*}}, %[[DB2]], %[[LR]]
// CHECK: nn.assign_param @b,
// CHECK: %[[NEXT:.*]] = nn.increment %[[STEP]] : tensor<i64>
// CHECK: nn.assign_param @global_step, %[[NEXT]] : tensor<i64>
// CHECK: return %{{.*}}, %[[C2]]
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
// CHECK-LABEL: func.func private @training_pass(
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
// CHECK: func.func private @training_pass
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
// CHECK-NOT: @training_pass
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

// Training forms: batch norm normalises with the batch's statistics, whose
// moving averages (the variance with Bessel's n/(n-1), n = 2*3 = 6 elements
// per channel) the training pass returns after the gradients and only
// gradients assigns, as train_step does in its own copy; dropout draws its
// mask at the global step, and its gradient is the same mask. eval calls
// @forward, which keeps the inference forms.
// CHECK-LABEL: module @training_forms
// CHECK: func.func @forward(
// CHECK: nn.batch_norm %
// CHECK: nn.dropout %
// CHECK: func.func private @training_pass
// CHECK-SAME: tensor<4xf32> {nn.name = "bn.moving_mean"}, tensor<4xf32> {nn.name = "bn.moving_variance"})
// CHECK: %[[STEP:.*]] = nn.get_param @global_step : tensor<i64>
// CHECK: %[[Y:.*]], %[[MEAN:.*]], %[[VAR:.*]] = nn.batch_norm_train %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64}
// CHECK: nn.dropout_train %[[Y]], %[[STEP]] {rate = 5.000000e-01 : f64, seed = 7 : i64} : (tensor<2x3x4xf32>, tensor<i64>)
// CHECK: %[[MM:.*]] = nn.get_param @bn.moving_mean
// CHECK: %[[NM:.*]] = nn.moving_average %[[MM]], %[[MEAN]] {decay = 9.000000e-01 : f64}
// CHECK: %[[MV:.*]] = nn.get_param @bn.moving_variance
// CHECK: %[[NV:.*]] = nn.moving_average %[[MV]], %[[VAR]] {correction = 1.200000e+00 : f64, decay = 9.000000e-01 : f64}
// CHECK: nn.dropout_train %{{.*}}, %[[STEP]] {rate = 5.000000e-01 : f64, seed = 7 : i64}
// CHECK: nn.batch_norm_grad %{{.*}}, %{{.*}}, %[[MEAN]], %[[VAR]], %{{.*}} {epsilon = 1.000000e-03 : f64}
// CHECK-NOT: nn.assign_param
// CHECK: return {{.*}}, %[[NM]], %[[NV]] :
// CHECK: func.func @forward_backward
// CHECK-NOT: nn.assign_param
// CHECK: func.func @eval
// CHECK-NEXT: call @forward
// CHECK: func.func @train_step
// CHECK: %[[STEP2:.*]] = nn.get_param @global_step
// CHECK: %[[Y2:.*]], %[[MEAN2:.*]], %[[VAR2:.*]] = nn.batch_norm_train
// CHECK: nn.dropout_train %[[Y2]], %[[STEP2]]
// CHECK: %[[NM2:.*]] = nn.moving_average %{{.*}}, %[[MEAN2]] {decay = 9.000000e-01 : f64}
// CHECK: %[[NV2:.*]] = nn.moving_average %{{.*}}, %[[VAR2]] {correction = 1.200000e+00 : f64, decay = 9.000000e-01 : f64}
// CHECK: nn.batch_norm_grad
// CHECK: nn.assign_param @bn.moving_mean, %[[NM2]]
// CHECK-NEXT: nn.assign_param @bn.moving_variance, %[[NV2]]
// CHECK: nn.sgd_update
// CHECK: func.func @gradients
// CHECK: %[[G:.*]]:7 = call @training_pass
// CHECK-NEXT: nn.assign_param @bn.moving_mean, %[[G]]#5
// CHECK-NEXT: nn.assign_param @bn.moving_variance, %[[G]]#6
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

// -----

// A function of the model's own under the training pass's name stays; the
// model compiles for inference, with a warning.
// CHECK-LABEL: module @taken
// CHECK: func.func private @training_pass(%{{.*}}: tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: return
// CHECK-NOT: func.func @forward_backward
module @taken {
  nn.parameter @w : tensor<3xf32> = #nn.zeros
  // expected-warning @+1 {{'func.func' op cannot derive @training_pass: the symbol exists; the model is compiled without its training functions}}
  func.func @loss(%x: tensor<3xf32>) -> tensor<f32> {
    %w = nn.get_param @w : tensor<3xf32>
    %a = nn.add %w, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %l = nn.l2_loss %a : (tensor<3xf32>) -> tensor<f32>
    return %l : tensor<f32>
  }
  func.func private @training_pass(%x: tensor<3xf32>) -> tensor<3xf32> {
    return %x : tensor<3xf32>
  }
}
