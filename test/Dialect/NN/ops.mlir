// RUN: nnc-opt %s | FileCheck %s
// RUN: nnc-opt %s | nnc-opt | FileCheck %s
// RUN: nnc-opt %s --mlir-print-op-generic | nnc-opt | FileCheck %s

// Every op and attribute of the nn dialect round-trips through its custom
// assembly form.

// CHECK: nn.parameter @w : tensor<3x3x4x8xf32> = #nn.truncated_normal<mean = 0.000000e+00, stddev = 1.000000e-01>
nn.parameter @w : tensor<3x3x4x8xf32> = #nn.truncated_normal<mean = 0.0, stddev = 0.1>
// CHECK: nn.parameter @b : tensor<8xf32> = #nn.zeros
nn.parameter @b : tensor<8xf32> = #nn.zeros
// CHECK: nn.parameter @c : tensor<8xf32> = #nn.constant<1.000000e-01>
nn.parameter @c : tensor<8xf32> = #nn.constant<0.1>
// CHECK: nn.parameter @n : tensor<8x2xf32> = #nn.normal<mean = 1.000000e+00, stddev = 2.000000e+00>
nn.parameter @n : tensor<8x2xf32> = #nn.normal<mean = 1.0, stddev = 2.0>
// CHECK: nn.parameter @u : tensor<8x2xf32> = #nn.uniform<min = -1.000000e+00, max = 1.000000e+00>
nn.parameter @u : tensor<8x2xf32> = #nn.uniform<min = -1.0, max = 1.0>
// CHECK: nn.parameter @g : tensor<8x2xf32> = #nn.glorot_uniform
nn.parameter @g : tensor<8x2xf32> = #nn.glorot_uniform
// CHECK: nn.parameter @gn : tensor<8x2xf32> = #nn.glorot_normal
nn.parameter @gn : tensor<8x2xf32> = #nn.glorot_normal
// CHECK: nn.parameter @h : tensor<3x3x4x8xf32> = #nn.he_normal
nn.parameter @h : tensor<3x3x4x8xf32> = #nn.he_normal
// CHECK: nn.parameter non_trainable @mean : tensor<8xf32> = #nn.zeros
nn.parameter non_trainable @mean : tensor<8xf32> = #nn.zeros
// CHECK: nn.parameter @third : tensor<8xf32> = #nn.constant<0.33333333333333331>
nn.parameter @third : tensor<8xf32> = #nn.constant<0.33333333333333331>

// CHECK: nn.optimizer <sgd> {learning_rate = 1.000000e-01 : f64, momentum = 9.000000e-01 : f64, nesterov = true, schedule = #nn.exponential_decay<rate = 1.000000e-01, steps = 100, staircase = true>}
nn.optimizer <sgd> {learning_rate = 0.1 : f64, momentum = 0.9 : f64, nesterov = true,
                    schedule = #nn.exponential_decay<rate = 0.1, steps = 100, staircase = true>}

// CHECK-LABEL: func.func @layers
func.func @layers(%x: tensor<2x8x8x4xf32>, %y: tensor<2xi32>) -> tensor<f32> {
  // CHECK: nn.get_param @w : tensor<3x3x4x8xf32>
  %w = nn.get_param @w : tensor<3x3x4x8xf32>
  %b = nn.get_param @b : tensor<8xf32>
  // CHECK: nn.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 2, 2>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.conv2d {{.*}}pad = array<i64: 1, 2, 0, 1>, padding = #nn.padding<EXPLICIT>{{.*}} -> tensor<2x5x3x8xf32>
  %e = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, pad = array<i64: 1, 2, 0, 1>, padding = #nn.padding<EXPLICIT>, strides = array<i64: 2, 3>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x5x3x8xf32>
  // CHECK: nn.conv2d {{.*}}dilations = array<i64: 2, 2>, padding = #nn.padding<VALID>{{.*}} -> tensor<2x4x4x8xf32>
  %d = nn.conv2d %x, %w {dilations = array<i64: 2, 2>, padding = #nn.padding<VALID>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x4x8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.bias_add
  %1 = nn.bias_add %0, %b : (tensor<2x4x4x8xf32>, tensor<8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.relu
  %2 = nn.relu %1 : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.sigmoid
  %3 = nn.sigmoid %2 : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.tanh
  %4 = nn.tanh %3 : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.lrn {{.*}}{alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 2.000000e+00 : f64, depth_radius = 2 : i64}
  %5 = nn.lrn %4 {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 2 : i64} : (tensor<2x4x4x8xf32>) -> tensor<2x4x4x8xf32>
  // CHECK: nn.max_pool2d {{.*}} -> tensor<2x1x1x8xf32>
  %6 = nn.max_pool2d %5 {padding = #nn.padding<VALID>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<2x4x4x8xf32>) -> tensor<2x1x1x8xf32>
  // CHECK: nn.avg_pool2d {{.*}} -> tensor<2x2x2x8xf32>
  %7 = nn.avg_pool2d %5 {padding = #nn.padding<SAME>, strides = array<i64: 2, 2>, window = array<i64: 3, 3>} : (tensor<2x4x4x8xf32>) -> tensor<2x2x2x8xf32>
  // CHECK: nn.concat {{.*}} {axis = 1 : i64} {{.*}} -> tensor<2x4x2x8xf32>
  %8 = nn.concat %7, %7 {axis = 1 : i64} : (tensor<2x2x2x8xf32>, tensor<2x2x2x8xf32>) -> tensor<2x4x2x8xf32>
  %stats = nn.get_param @mean : tensor<8xf32>
  // CHECK: nn.batch_norm {{.*}} {epsilon = 1.000000e-03 : f64}
  %9 = nn.batch_norm %8, %stats, %stats, %stats, %stats {epsilon = 1.0e-3 : f64} : (tensor<2x4x2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x2x8xf32>
  // CHECK: nn.dropout {{.*}} {rate = 5.000000e-01 : f64}
  %10 = nn.dropout %9 {rate = 0.5 : f64} : (tensor<2x4x2x8xf32>) -> tensor<2x4x2x8xf32>
  // CHECK: nn.flatten {{.*}} -> tensor<2x64xf32>
  %11 = nn.flatten %10 : (tensor<2x4x2x8xf32>) -> tensor<2x64xf32>
  // CHECK: nn.reshape {{.*}} {shape = array<i64: 2, 8, 8>} {{.*}} -> tensor<2x8x8xf32>
  %r = nn.reshape %11 {shape = array<i64: 2, 8, 8>} : (tensor<2x64xf32>) -> tensor<2x8x8xf32>
  %u = nn.get_param @n : tensor<8x2xf32>
  %v = nn.reshape %r {shape = array<i64: 16, 8>} : (tensor<2x8x8xf32>) -> tensor<16x8xf32>
  // CHECK: nn.matmul {{.*}} : (tensor<16x8xf32>, tensor<8x2xf32>) -> tensor<16x2xf32>
  %12 = nn.matmul %v, %u : (tensor<16x8xf32>, tensor<8x2xf32>) -> tensor<16x2xf32>
  // CHECK: nn.matmul {{.*}} {transpose_lhs, transpose_rhs} : (tensor<16x2xf32>, tensor<8x16xf32>) -> tensor<2x8xf32>
  %t = nn.reshape %v {shape = array<i64: 8, 16>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %13 = nn.matmul %12, %t {transpose_lhs, transpose_rhs} : (tensor<16x2xf32>, tensor<8x16xf32>) -> tensor<2x8xf32>
  // CHECK: nn.softmax {{.*}} {axis = 0 : i64}
  %14 = nn.softmax %13 {axis = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: nn.add
  %15 = nn.add %14, %13 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: nn.l2_loss {{.*}} -> tensor<f32>
  %l2 = nn.l2_loss %15 : (tensor<2x8xf32>) -> tensor<f32>
  // CHECK: nn.sparse_softmax_cross_entropy {{.*}} : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<f32>
  %ce = nn.sparse_softmax_cross_entropy %15, %y : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<f32>
  // The default epsilon (1e-7) is elided.
  // CHECK: nn.categorical_cross_entropy %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<f32>
  %cc = nn.categorical_cross_entropy %14, %y {epsilon = 1.0e-7 : f64} : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<f32>
  // CHECK: nn.weight_decay {{.*}} {scale = 4.000000e-03 : f64}
  %wd = nn.weight_decay %w {scale = 0.004 : f64} : (tensor<3x3x4x8xf32>) -> tensor<f32>
  %s0 = nn.add %l2, %ce : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %s1 = nn.add %s0, %cc : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %s2 = nn.add %s1, %wd : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %s2 : tensor<f32>
}

// Element types stay generic.
// CHECK-LABEL: func.func @bf16
func.func @bf16(%x: tensor<4x16xbf16>) -> tensor<4x16xbf16> {
  // CHECK: nn.relu {{.*}} : (tensor<4x16xbf16>) -> tensor<4x16xbf16>
  %0 = nn.relu %x : (tensor<4x16xbf16>) -> tensor<4x16xbf16>
  return %0 : tensor<4x16xbf16>
}
