// RUN: nnc-opt %s --split-input-file --verify-diagnostics

func.func @f(%dy: tensor<2x5x5x4xf32>, %w: tensor<3x3x3x4xf32>) {
  // expected-error @+1 {{'nn.conv2d_backprop_input' op output_grad has type 'tensor<2x5x5x4xf32>'; the forward op gives 'tensor<2x6x6x4xf32>'}}
  %0 = nn.conv2d_backprop_input %dy, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x5x5x4xf32>, tensor<3x3x3x4xf32>) -> tensor<2x11x11x3xf32>
  return
}

// -----

func.func @f(%x: tensor<2x10x10x3xf32>, %dy: tensor<2x5x5x4xf32>) {
  // expected-error @+1 {{'nn.conv2d_backprop_filter' op does not describe a valid forward op}}
  %0 = nn.conv2d_backprop_filter %x, %dy {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x10x10x3xf32>, tensor<2x5x5x4xf32>) -> tensor<3x3x5x4xf32>
  return
}

// -----

func.func @f(%dy: tensor<2x5x5x4xf32>) {
  // expected-error @+1 {{'nn.bias_add_grad' op result must be the last axis of output_grad, 'tensor<4xf32>'}}
  %0 = nn.bias_add_grad %dy : (tensor<2x5x5x4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @f(%x: tensor<2x10x10x3xf32>, %dy: tensor<2x4x4x3xf32>) {
  // expected-error @+1 {{'nn.max_pool2d_grad' op output_grad has type 'tensor<2x4x4x3xf32>'; the forward op gives 'tensor<2x5x5x3xf32>'}}
  %0 = nn.max_pool2d_grad %x, %dy {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<2x10x10x3xf32>, tensor<2x4x4x3xf32>) -> tensor<2x10x10x3xf32>
  return
}

// -----

func.func @f(%l: tensor<2x5xf32>, %lab: tensor<3xi32>, %s: tensor<f32>) {
  // expected-error @+1 {{'nn.sparse_softmax_cross_entropy_grad' op expects logits [N, C] and labels [N], got 'tensor<2x5xf32>' and 'tensor<3xi32>'}}
  %0 = nn.sparse_softmax_cross_entropy_grad %l, %lab, %s : (tensor<2x5xf32>, tensor<3xi32>, tensor<f32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @f(%w: tensor<4xf32>, %lr: tensor<f32>) {
  // expected-error @+1 {{'nn.sgd_update' op nesterov needs a velocity}}
  %0 = nn.sgd_update %w, %w, %lr {nesterov} : (tensor<4xf32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%w: tensor<4xf32>, %g: tensor<3xf32>, %lr: tensor<f32>) {
  // expected-error @+1 {{'nn.sgd_update' op grad must have type 'tensor<4xf32>', got 'tensor<3xf32>'}}
  %0 = nn.sgd_update %w, %g, %lr : (tensor<4xf32>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

module {
  nn.parameter @w : tensor<4xf32> = #nn.zeros
  func.func @f(%v: tensor<3xf32>) {
    // expected-error @+1 {{'nn.assign_param' op value of type 'tensor<3xf32>' does not match parameter 'w' of type 'tensor<4xf32>'}}
    nn.assign_param @w, %v : tensor<3xf32>
    return
  }
}

// -----

func.func @f(%v: tensor<3xf32>) {
  // expected-error @+1 {{'nn.assign_param' op 'nowhere' is not an nn.parameter}}
  nn.assign_param @nowhere, %v : tensor<3xf32>
  return
}
