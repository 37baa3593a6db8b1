// RUN: nnc-opt %s --split-input-file --verify-diagnostics

// One case per verifier message of the nn dialect. Layer ops report the
// shape rule that failed, then that result-type inference failed.

// expected-error @below {{conv2d: input must have a static shape, got [?, 8, 8, 4]}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<?x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<?x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<?x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: input must have rank 4 (NHWC), got [8, 8, 4]}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: filter must have rank 4 (HWIO), got [3, 4, 8]}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: filter has element type 'f16' but the input has 'f32'}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf16>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf16>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: strides must have 2 values (height, width), got 3}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: dilations must be positive, got [0, 1]}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 0, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: 'pad' is only allowed with EXPLICIT padding}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: EXPLICIT padding needs 'pad' = [top, bottom, left, right]}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: padding must be non-negative, got [-1, 0, 0, 0]}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, pad = array<i64: -1, 0, 0, 0>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: filter [3, 3, 5, 8] expects 5 input channels but the input [2, 8, 8, 4] has 4}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x5x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x5x8xf32>) -> tensor<2x8x8x8xf32>
  return }

// -----

// expected-error @below {{conv2d: window 11 does not fit the input height 8 with VALID padding}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<11x11x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<VALID>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<11x11x4x8xf32>) -> tensor<2x1x1x8xf32>
  return }

// -----

// expected-error @below {{conv2d: window 3 (dilated) does not fit the input height 8 with VALID padding}}
// expected-error @below {{'nn.conv2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x4x8xf32>) { %0 = nn.conv2d %x, %w {dilations = array<i64: 4, 4>, padding = #nn.padding<VALID>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x1x1x8xf32>
  return }

// -----

// expected-error @below {{max_pool2d: padding [3, 0, 0, 0] must be smaller than the window [3, 3]}}
// expected-error @below {{'nn.max_pool2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>) { %0 = nn.max_pool2d %x {pad = array<i64: 3, 0, 0, 0>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 1, 1>, window = array<i64: 3, 3>} : (tensor<2x8x8x4xf32>) -> tensor<2x9x6x4xf32>
  return }

// -----

// expected-error @below {{avg_pool2d: window must have 2 values (height, width), got 1}}
// expected-error @below {{'nn.avg_pool2d' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>) { %0 = nn.avg_pool2d %x {padding = #nn.padding<VALID>, strides = array<i64: 1, 1>, window = array<i64: 3>} : (tensor<2x8x8x4xf32>) -> tensor<2x6x6x4xf32>
  return }

// -----

// expected-error @below {{bias_add: bias must have rank 1 (channels), got [2, 8]}}
// expected-error @below {{'nn.bias_add' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>, %b: tensor<2x8xf32>) { %0 = nn.bias_add %x, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{bias_add: bias [4] does not match the last axis of the input [2, 8]}}
// expected-error @below {{'nn.bias_add' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>, %b: tensor<4xf32>) { %0 = nn.bias_add %x, %b : (tensor<2x8xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{softmax: axis 2 is out of range for input [2, 8]}}
// expected-error @below {{'nn.softmax' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.softmax %x {axis = 2 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{lrn: depth_radius must be >= 0, got -1}}
// expected-error @below {{'nn.lrn' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>) { %0 = nn.lrn %x {alpha = 1.0 : f64, beta = 0.5 : f64, bias = 1.0 : f64, depth_radius = -1 : i64} : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  return }

// -----

// expected-error @below {{lrn: bias must be positive, got 0}}
// expected-error @below {{'nn.lrn' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>) { %0 = nn.lrn %x {alpha = 1.0 : f64, beta = 0.5 : f64, bias = 0.0 : f64, depth_radius = 2 : i64} : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  return }

// -----

// expected-error @below {{lrn: alpha must be >= 0, got -1}}
// expected-error @below {{'nn.lrn' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>) { %0 = nn.lrn %x {alpha = -1.0 : f64, beta = 0.5 : f64, bias = 1.0 : f64, depth_radius = 2 : i64} : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  return }

// -----

// expected-error @below {{lrn: beta must be finite, got inf}}
// expected-error @below {{'nn.lrn' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x8x4xf32>) { %0 = nn.lrn %x {alpha = 1.0 : f64, beta = 0x7FF0000000000000 : f64, bias = 1.0 : f64, depth_radius = 2 : i64} : (tensor<2x8x8x4xf32>) -> tensor<2x8x8x4xf32>
  return }

// -----

// expected-error @below {{matmul: inner dimensions differ: lhs [2, 3] has 3, rhs [4, 5] has 4}}
// expected-error @below {{'nn.matmul' op failed to infer returned types}}
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) { %0 = nn.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return }

// -----

// expected-error @below {{matmul: lhs must have rank 2 (rows, columns), got [2, 3, 1]}}
// expected-error @below {{'nn.matmul' op failed to infer returned types}}
func.func @f(%a: tensor<2x3x1xf32>, %b: tensor<3x5xf32>) { %0 = nn.matmul %a, %b : (tensor<2x3x1xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  return }

// -----

// expected-error @below {{flatten: input must have a batch axis}}
// expected-error @below {{'nn.flatten' op failed to infer returned types}}
func.func @f(%x: tensor<f32>) { %0 = nn.flatten %x : (tensor<f32>) -> tensor<f32>
  return }

// -----

// expected-error @below {{reshape: dimensions must be positive, got [0, 4]}}
// expected-error @below {{'nn.reshape' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.reshape %x {shape = array<i64: 0, 4>} : (tensor<2x8xf32>) -> tensor<0x4xf32>
  return }

// -----

// expected-error @below {{reshape: cannot reshape [2, 8] (16 elements) to [3, 5] (15 elements)}}
// expected-error @below {{'nn.reshape' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.reshape %x {shape = array<i64: 3, 5>} : (tensor<2x8xf32>) -> tensor<3x5xf32>
  return }

// -----

// expected-error @below {{add: operands must have the same shape and element type, got 'tensor<2x8xf32>' and 'tensor<2x4xf32>'}}
// expected-error @below {{'nn.add' op failed to infer returned types}}
func.func @f(%a: tensor<2x8xf32>, %b: tensor<2x4xf32>) { %0 = nn.add %a, %b : (tensor<2x8xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{concat: needs at least 2 inputs, got 1}}
// expected-error @below {{'nn.concat' op failed to infer returned types}}
func.func @f(%a: tensor<2x8xf32>) { %0 = nn.concat %a {axis = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{concat: axis 4 is out of range for rank 2}}
// expected-error @below {{'nn.concat' op failed to infer returned types}}
func.func @f(%a: tensor<2x8xf32>) { %0 = nn.concat %a, %a {axis = 4 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{concat: input [3, 4] does not match [2, 8] outside axis 1}}
// expected-error @below {{'nn.concat' op failed to infer returned types}}
func.func @f(%a: tensor<2x8xf32>, %b: tensor<3x4xf32>) { %0 = nn.concat %a, %b {axis = 1 : i64} : (tensor<2x8xf32>, tensor<3x4xf32>) -> tensor<2x12xf32>
  return }

// -----

// expected-error @below {{batch_norm: input must have rank >= 2, got [8]}}
// expected-error @below {{'nn.batch_norm' op failed to infer returned types}}
func.func @f(%x: tensor<8xf32>, %s: tensor<8xf32>) { %0 = nn.batch_norm %x, %s, %s, %s, %s {epsilon = 1.0e-3 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return }

// -----

// expected-error @below {{batch_norm: scale, offset, mean and variance must be [8], got [4]}}
// expected-error @below {{'nn.batch_norm' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>, %s: tensor<4xf32>) { %0 = nn.batch_norm %x, %s, %s, %s, %s {epsilon = 1.0e-3 : f64} : (tensor<2x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{batch_norm: epsilon must be positive, got 0}}
// expected-error @below {{'nn.batch_norm' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>, %s: tensor<8xf32>) { %0 = nn.batch_norm %x, %s, %s, %s, %s {epsilon = 0.0 : f64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{dropout: rate must be in [0, 1), got 1}}
// expected-error @below {{'nn.dropout' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.dropout %x {rate = 1.0 : f64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return }

// -----

// expected-error @below {{sparse_softmax_cross_entropy: 3 labels for a batch of 2}}
// expected-error @below {{'nn.sparse_softmax_cross_entropy' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>, %y: tensor<3xi32>) { %0 = nn.sparse_softmax_cross_entropy %x, %y : (tensor<2x8xf32>, tensor<3xi32>) -> tensor<f32>
  return }

// -----

// expected-error @below {{sparse_softmax_cross_entropy: scores must have rank 2 (batch, classes), got [2, 8, 1]}}
// expected-error @below {{'nn.sparse_softmax_cross_entropy' op failed to infer returned types}}
func.func @f(%x: tensor<2x8x1xf32>, %y: tensor<2xi32>) { %0 = nn.sparse_softmax_cross_entropy %x, %y : (tensor<2x8x1xf32>, tensor<2xi32>) -> tensor<f32>
  return }

// -----

// expected-error @below {{categorical_cross_entropy: epsilon must be in (0, 0.5), got 0.5}}
// expected-error @below {{'nn.categorical_cross_entropy' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>, %y: tensor<2xi32>) { %0 = nn.categorical_cross_entropy %x, %y {epsilon = 0.5 : f64} : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<f32>
  return }

// -----

// expected-error @below {{weight_decay: scale must be >= 0, got -1}}
// expected-error @below {{'nn.weight_decay' op failed to infer returned types}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.weight_decay %x {scale = -1.0 : f64} : (tensor<2x8xf32>) -> tensor<f32>
  return }

// -----

// expected-error @below {{'nn.relu' op requires the same type for all operands and results}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.relu %x : (tensor<2x8xf32>) -> tensor<2x4xf32>
  return }

// -----

// expected-error @below {{'nn.l2_loss' op result #0 must be 0D tensor of floating-point values, but got 'tensor<2xf32>'}}
func.func @f(%x: tensor<2x8xf32>) { %0 = nn.l2_loss %x : (tensor<2x8xf32>) -> tensor<2xf32>
  return }

// -----

// expected-error @below {{parameter initialiser must be an #nn initialiser attribute, got 1.000000e+00 : f64}}
nn.parameter @p : tensor<8xf32> = 1.0 : f64

// -----

// expected-error @below {{parameter must have a static shape, got [?, 8]}}
nn.parameter @p : tensor<?x8xf32> = #nn.zeros

// -----

// expected-error @below {{initialiser stddev must be positive, got 0}}
nn.parameter @p : tensor<8x8xf32> = #nn.truncated_normal<mean = 0.0, stddev = 0.0>

// -----

// expected-error @below {{uniform initialiser needs min < max, got [1, 1)}}
nn.parameter @p : tensor<8x8xf32> = #nn.uniform<min = 1.0, max = 1.0>

// -----

// expected-error @below {{fan-based initialisers need a [in, out] matrix or an HWIO filter, got [8]}}
nn.parameter @p : tensor<8xf32> = #nn.glorot_uniform

// -----

// expected-error @below {{'nn.get_param' op 'nothing' is not an nn.parameter}}
func.func @f() { %0 = nn.get_param @nothing : tensor<8xf32>
  return }

// -----

nn.parameter @p : tensor<8xf32> = #nn.zeros
// expected-error @below {{'nn.get_param' op type 'tensor<4xf32>' does not match parameter 'p' of type 'tensor<8xf32>'}}
func.func @f() { %0 = nn.get_param @p : tensor<4xf32>
  return }

// -----

// expected-error @below {{optimizer: learning_rate must be positive, got -1}}
nn.optimizer <sgd> {learning_rate = -1.0 : f64}

// -----

// expected-error @below {{optimizer: momentum must be in [0, 1), got 1}}
nn.optimizer <sgd> {learning_rate = 0.1 : f64, momentum = 1.0 : f64}

// -----

// expected-error @below {{optimizer: weight_decay must be >= 0, got -0.5}}
nn.optimizer <sgd> {learning_rate = 0.1 : f64, weight_decay = -0.5 : f64}

// -----

// expected-error @below {{optimizer: beta1 must be in [0, 1), got 1}}
nn.optimizer <adam> {learning_rate = 0.1 : f64, beta1 = 1.0 : f64}

// -----

// expected-error @below {{optimizer: beta2 must be in [0, 1), got -0.1}}
nn.optimizer <adam> {learning_rate = 0.1 : f64, beta2 = -0.1 : f64}

// -----

// expected-error @below {{optimizer: epsilon must be positive, got 0}}
nn.optimizer <adam> {learning_rate = 0.1 : f64, epsilon = 0.0 : f64}

// -----

// expected-error @below {{optimizer: nesterov needs a non-zero momentum}}
nn.optimizer <sgd> {learning_rate = 0.1 : f64, nesterov = true}

// -----

// expected-error @below {{optimizer: schedule rate must be in (0, 1], got 2}}
nn.optimizer <sgd> {learning_rate = 0.1 : f64, schedule = #nn.exponential_decay<rate = 2.0, steps = 10, staircase = true>}

// -----

// expected-error @below {{optimizer: schedule steps must be positive, got 0}}
nn.optimizer <sgd> {learning_rate = 0.1 : f64, schedule = #nn.exponential_decay<rate = 0.5, steps = 0, staircase = true>}

// -----

// expected-error @below {{optimizer: momentum and nesterov apply to sgd, not adam}}
nn.optimizer <adam> {learning_rate = 0.1 : f64, momentum = 0.9 : f64}

// -----

// expected-error @below {{'nn.optimizer' op a model has at most one optimizer}}
nn.optimizer <sgd> {learning_rate = 0.1 : f64}
nn.optimizer <sgd> {learning_rate = 0.2 : f64}
