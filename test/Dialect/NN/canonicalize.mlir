// RUN: nnc-opt %s --canonicalize --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dropout_zero
// CHECK-NEXT: return %arg0
func.func @dropout_zero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.dropout %x {rate = 0.0 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @dropout_kept
// CHECK: nn.dropout
func.func @dropout_kept(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.dropout %x {rate = 0.5 : f64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @flatten_flat
// CHECK-NEXT: return %arg0
func.func @flatten_flat(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.flatten %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_chain
// CHECK-NEXT: %[[R:.*]] = nn.reshape %arg0 {shape = array<i64: 2, 16>}
// CHECK-NEXT: return %[[R]]
func.func @reshape_chain(%x: tensor<4x8xf32>) -> tensor<2x16xf32> {
  %0 = nn.reshape %x {shape = array<i64: 32>} : (tensor<4x8xf32>) -> tensor<32xf32>
  %1 = nn.reshape %0 {shape = array<i64: 2, 16>} : (tensor<32xf32>) -> tensor<2x16xf32>
  return %1 : tensor<2x16xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_same
// CHECK-NEXT: return %arg0
func.func @reshape_same(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = nn.reshape %x {shape = array<i64: 4, 8>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
