// RUN: nnc-opt %s --split-input-file --verify-diagnostics

// An integer parameter is a counter: never trained, starting at zero, and
// only i64.

// expected-error @below {{'nn.parameter' op an integer parameter must be non_trainable}}
nn.parameter @global_step : tensor<i64> = #nn.zeros

// -----

// expected-error @below {{'nn.parameter' op an integer parameter must be zero-initialised}}
nn.parameter non_trainable @global_step : tensor<i64> = #nn.constant<1.0>

// -----

// expected-error @below {{'nn.parameter' op attribute 'type' failed to satisfy constraint}}
nn.parameter non_trainable @global_step : tensor<i32> = #nn.zeros

// -----

module {
  nn.parameter non_trainable @global_step : tensor<i64> = #nn.zeros
  func.func @f(%v: tensor<f32>) {
    // expected-error @+1 {{'nn.assign_param' op value of type 'tensor<f32>' does not match parameter 'global_step' of type 'tensor<i64>'}}
    nn.assign_param @global_step, %v : tensor<f32>
    return
  }
}

// -----

func.func @f(%s: tensor<f32>) {
  // expected-error @+1 {{'nn.learning_rate' op operand #0 must be 0D tensor of 64-bit signless integer values}}
  %0 = nn.learning_rate %s {rate = 0.1 : f64} : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @f(%x: tensor<3xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'nn.dropout_train' op operand #1 must be 0D tensor of 64-bit signless integer values}}
  %0 = nn.dropout_train %x, %s {rate = 0.5 : f64, seed = 1 : i64} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return
}

// -----

func.func @f(%s: tensor<2xi64>) {
  // expected-error @+1 {{'nn.increment' op operand #0 must be 0D tensor of 64-bit signless integer values}}
  %0 = nn.increment %s : tensor<2xi64>
  return
}
