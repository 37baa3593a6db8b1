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

// -----

// The entry points take and return what the bench program passes: tensors
// of f32, i32 or i64 (an i8 input was refused only when the program ran,
// as a missing entry point).
// expected-error @+1 {{element type 'i8': the entry points of nnc's models take and return tensors of f32, i32 or i64}}
func.func @forward(%x: tensor<2x8xi8>) -> tensor<2x8xf32> {
  %0 = tensor.empty() : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// expected-error @+1 {{element type 'i1': the entry points of nnc's models take and return tensors of f32, i32 or i64}}
func.func @forward(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2xi1>) {
  %0 = tensor.empty() : tensor<2xi1>
  return %x, %0 : tensor<2x8xf32>, tensor<2xi1>
}

// -----

// expected-error @+1 {{element type 'ui32': the entry points of nnc's models take and return tensors of f32, i32 or i64}}
func.func @forward(%x: tensor<2xui32>) -> tensor<2xui32> {
  return %x : tensor<2xui32>
}

// -----

// expected-error @+1 {{an argument has the type 'i32': entry points take and return tensors}}
func.func @forward(%x: tensor<2x8xf32>, %n: i32) -> tensor<2x8xf32> {
  return %x : tensor<2x8xf32>
}

// -----

// Element types without a bit width of their own are sized, not asserted
// on (index and complex crashed the size check).
// expected-error @+1 {{element type 'index': the entry points of nnc's models take and return tensors of f32, i32 or i64}}
func.func @forward(%x: tensor<2x8xindex>) -> tensor<2x8xindex> {
  return %x : tensor<2x8xindex>
}

// -----

// expected-error @+1 {{element type 'complex<f32>': the entry points of nnc's models take and return tensors of f32, i32 or i64}}
func.func @forward(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  return %x : tensor<2xcomplex<f32>>
}

// -----

func.func @forward(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{a result of 'tensor.empty' 'tensor<1099511627776x4096xcomplex<f64>>' has more than 2^53 bytes}}
  %0 = tensor.empty() : tensor<1099511627776x4096xcomplex<f64>>
  return
}

// -----

// An i64 input (a counter) with an i64 result and no parameters passes.
func.func @forward(%x: tensor<2x8xi64>) -> tensor<2x8xi64> {
  return %x : tensor<2x8xi64>
}
func.func private @helper(%x: tensor<2xindex>) -> tensor<2xi8> {
  %0 = tensor.empty() : tensor<2xi8>
  return %0 : tensor<2xi8>
}
