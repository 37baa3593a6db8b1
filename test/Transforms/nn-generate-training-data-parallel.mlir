// RUN: nnc-opt %s --nn-generate-training | FileCheck %s
// RUN: nnc-opt %s --nn-generate-training=data-parallel=false | FileCheck %s --check-prefix=FUSED

// train_step's halves for data-parallel training: @gradients returns the
// loss, the correct count and every trainable parameter's gradient without
// updating any parameter; @apply_update takes the gradients (summed across
// processes) and grad_scale, scales them, updates the parameters and counts
// the step, as train_step does.
// CHECK-LABEL: func.func @train_step(
// CHECK-LABEL: func.func @gradients(%{{.*}}: tensor<2x4xf32> {nn.name = "x"}, %{{.*}}: tensor<2xi32> {nn.classes = 3 : i64, nn.name = "y"})
// CHECK-SAME: -> (tensor<f32> {nn.name = "loss"}, tensor<i32> {nn.name = "correct"}, tensor<4x3xf32> {nn.name = "w.grad"}, tensor<3xf32> {nn.name = "b.grad"})
// CHECK-NOT: nn.assign_param
// CHECK-NOT: nn.sgd_update
// CHECK: return
// CHECK-LABEL: func.func @apply_update(
// CHECK-SAME: %[[GW:.*]]: tensor<4x3xf32> {nn.name = "w.grad"}, %[[GB:.*]]: tensor<3xf32> {nn.name = "b.grad"}, %[[S:.*]]: tensor<f32> {nn.name = "grad_scale"})
// CHECK-NOT: ->
// CHECK: %[[SW:.*]] = nn.scale %[[GW]], %[[S]]
// CHECK: %[[SB:.*]] = nn.scale %[[GB]], %[[S]]
// CHECK: %[[STEP:.*]] = nn.get_param @global_step : tensor<i64>
// CHECK: %[[LR:.*]] = nn.learning_rate %[[STEP]] {rate = 5.000000e-01 : f64}
// CHECK: %[[W:.*]] = nn.get_param @w
// CHECK: %[[NW:.*]] = nn.sgd_update %[[W]], %[[SW]], %[[LR]]
// CHECK: nn.assign_param @w, %[[NW]]
// CHECK: nn.sgd_update %{{.*}}, %[[SB]], %[[LR]]
// CHECK: nn.assign_param @b,
// CHECK: %[[NEXT:.*]] = nn.increment %[[STEP]] : tensor<i64>
// CHECK: nn.assign_param @global_step, %[[NEXT]] : tensor<i64>
// CHECK-NEXT: return{{$}}

// FUSED: func.func @train_step(
// FUSED-NOT: func.func @gradients
// FUSED-NOT: func.func @apply_update
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
