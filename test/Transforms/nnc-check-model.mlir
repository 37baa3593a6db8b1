// RUN: nnc-opt %s --nnc-check-model --split-input-file --verify-diagnostics

// Shapes are static.
// expected-error @+1 {{an argument has the type 'tensor<?x8xf32>': nnc compiles static shapes only}}
func.func @forward(%x: tensor<?x8xf32>) -> tensor<2x8xf32> {
  %0 = tensor.empty() : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// At most 2^53 elements (a byte count of 2^66 would overflow).
// expected-error @+1 {{an argument [4, 4294967296, 4294967296] has more than 2^53 elements}}
func.func @forward(%x: tensor<4x4294967296x4294967296xf32>) {
  return
}

// -----

// At most 2^53 bytes.
func.func @forward(%x: tensor<2xf32>) {
  // expected-error @+1 {{a result of 'tensor.empty' 'tensor<1099511627776x4096xf64>' has more than 2^53 bytes}}
  %0 = tensor.empty() : tensor<1099511627776x4096xf64>
  return
}

// -----

// Inputs, parameters and results are f32 (only the first offender is
// reported).
nn.parameter @w : tensor<8x8xf16> = #nn.zeros
// expected-error @+1 {{element type 'f64': nnc compiles f32 models}}
func.func @forward(%x: tensor<2x8xf64>) -> tensor<2x8xf64> {
  return %x : tensor<2x8xf64>
}

// -----

// expected-error @+1 {{element type 'bf16': nnc compiles f32 models}}
nn.parameter @w : tensor<8x8xbf16> = #nn.zeros
func.func @forward(%x: tensor<2x8xf32>, %y: tensor<2xi32>, %s: tensor<i64>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}

// -----

// Integer labels and counters, private helpers with other types, and f32
// everywhere else pass.
nn.parameter @w : tensor<8x8xf32> = #nn.zeros
func.func @forward(%x: tensor<2x8xf32>, %y: tensor<2xi32>, %s: tensor<i64>) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}
func.func private @helper(%x: tensor<2xf64>) -> tensor<2xf64> {
  return %x : tensor<2xf64>
}
