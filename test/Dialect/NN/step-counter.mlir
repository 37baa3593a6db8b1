// RUN: nnc-opt %s | nnc-opt | FileCheck %s

// The global step is an i64 scalar parameter: read, counted up with
// nn.increment, written back, and fed to the ops that depend on it.
// CHECK-LABEL: module @counter
// CHECK: nn.parameter non_trainable @global_step : tensor<i64> = #nn.zeros
// CHECK: %[[S:.*]] = nn.get_param @global_step : tensor<i64>
// CHECK: nn.learning_rate %[[S]] {{.*}} : (tensor<i64>) -> tensor<f32>
// CHECK: nn.adam_update {{.*}} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<i64>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK: nn.dropout_train %{{.*}}, %[[S]] {{.*}} : (tensor<3xf32>, tensor<i64>) -> tensor<3xf32>
// CHECK: %[[N:.*]] = nn.increment %[[S]] : tensor<i64>
// CHECK: nn.assign_param @global_step, %[[N]] : tensor<i64>
module @counter {
  nn.parameter non_trainable @global_step : tensor<i64> = #nn.zeros
  func.func @f(%w: tensor<3xf32>, %g: tensor<3xf32>) -> tensor<3xf32> {
    %s = nn.get_param @global_step : tensor<i64>
    %lr = nn.learning_rate %s {rate = 0.1 : f64, boundaries = array<i64: 10>, values = array<f64: 0.1, 0.01>, warmup_steps = 5 : i64} : (tensor<i64>) -> tensor<f32>
    %u:3 = nn.adam_update %w, %g, %w, %w, %lr, %s {beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-7 : f64} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<i64>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
    %d = nn.dropout_train %u#0, %s {rate = 0.5 : f64, seed = 1 : i64} : (tensor<3xf32>, tensor<i64>) -> tensor<3xf32>
    %n = nn.increment %s : tensor<i64>
    nn.assign_param @global_step, %n : tensor<i64>
    return %d : tensor<3xf32>
  }
}
