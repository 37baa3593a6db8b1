// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-duplicate-shared-fills))" | FileCheck %s

// Two products start from the same zero fill (as after CSE): each gets its
// own empty tensor and fill, so both accumulate in place once bufferized.
// CHECK-LABEL: func.func @two_products
// CHECK: %[[E0:.*]] = tensor.empty
// CHECK: %[[F0:.*]] = linalg.fill {{.*}} outs(%[[E0]]
// CHECK: linalg.matmul {{.*}} outs(%[[F0]]
// CHECK: %[[E1:.*]] = tensor.empty
// CHECK: %[[F1:.*]] = linalg.fill {{.*}} outs(%[[E1]]
// CHECK: linalg.matmul {{.*}} outs(%[[F1]]
func.func @two_products(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.matmul ins(%b, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// A fill with one use is left alone.
// CHECK-LABEL: func.func @one_use
// CHECK-COUNT-1: linalg.fill
// CHECK-NOT: linalg.fill
func.func @one_use(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
