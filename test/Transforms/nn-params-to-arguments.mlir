// RUN: nnc-opt %s --nn-params-to-arguments --split-input-file | FileCheck %s

// Functions that read parameters take all of them, in declaration order;
// calls pass the caller's on; functions that read none keep their signature.
// CHECK-LABEL: module
// CHECK: nn.parameter @w
// CHECK: nn.parameter @b
// CHECK: func.func @forward(%[[W:.*]]: tensor<4x3xf32> {nn.param = "w"}, %[[B:.*]]: tensor<3xf32> {nn.param = "b"}, %[[X:.*]]: tensor<2x4xf32> {nn.name = "x"}) -> tensor<2x3xf32>
// CHECK-NOT: nn.get_param
// CHECK: nn.matmul %[[X]], %[[W]]
// CHECK: nn.bias_add %{{.*}}, %[[B]]
// CHECK: func.func @loss(%[[LW:.*]]: tensor<4x3xf32> {nn.param = "w"}, %[[LB:.*]]: tensor<3xf32> {nn.param = "b"}, %[[LX:.*]]: tensor<2x4xf32>)
// CHECK: call @forward(%[[LW]], %[[LB]], %[[LX]])
// CHECK: func.func @helper(%{{.*}}: tensor<2x3xf32>) -> tensor<2x3xf32>
nn.parameter @w : tensor<4x3xf32> = #nn.glorot_uniform
nn.parameter @b : tensor<3xf32> = #nn.zeros
func.func @forward(%x: tensor<2x4xf32> {nn.name = "x"}) -> tensor<2x3xf32> {
  %w = nn.get_param @w : tensor<4x3xf32>
  %0 = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %b = nn.get_param @b : tensor<3xf32>
  %1 = nn.bias_add %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
func.func @loss(%x: tensor<2x4xf32>) -> tensor<f32> {
  %0 = call @forward(%x) : (tensor<2x4xf32>) -> tensor<2x3xf32>
  %1 = call @helper(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = nn.l2_loss %1 : (tensor<2x3xf32>) -> tensor<f32>
  return %2 : tensor<f32>
}
func.func @helper(%y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = nn.relu %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A model without parameters is unchanged.
// CHECK-LABEL: func.func @forward(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @forward(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = nn.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A write becomes a result tagged nn.updates, materialised in the
// parameter's argument.
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:.*]]: tensor<4xf32> {nn.param = "w"}, %[[X:.*]]: tensor<4xf32>)
// CHECK-SAME: -> (tensor<f32>, tensor<4xf32> {nn.updates = "w"})
// CHECK: %[[N:.*]] = bufferization.materialize_in_destination %[[X]] in %[[W]]
// CHECK: return %{{.*}}, %[[N]]
nn.parameter @w : tensor<4xf32> = #nn.zeros
func.func @train_step(%x: tensor<4xf32>) -> tensor<f32> {
  %w = nn.get_param @w : tensor<4xf32>
  %l = nn.l2_loss %w : (tensor<4xf32>) -> tensor<f32>
  nn.assign_param @w, %x : tensor<4xf32>
  return %l : tensor<f32>
}
