// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @dense
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<4x6xf32>, tensor<6x3xf32>) outs(%[[Z]] : tensor<4x3xf32>)
func.func @dense(%x: tensor<4x6xf32>, %w: tensor<6x3xf32>) -> tensor<4x3xf32> {
  %0 = nn.matmul %x, %w : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Transposed operands are read through the product's indexing maps, never
// copied.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transposed
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[A]], #[[B]], #[[C]]] ins(%arg0, %arg1 : tensor<6x4xf32>, tensor<3x6xf32>)
func.func @matmul_transposed(%a: tensor<6x4xf32>, %b: tensor<3x6xf32>) -> tensor<4x3xf32> {
  %0 = nn.matmul %a, %b {transpose_lhs, transpose_rhs} : (tensor<6x4xf32>, tensor<3x6xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @shapes
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : tensor<2x3x4x5xf32> into tensor<2x60xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<2x60xf32> into tensor<120xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [4, 5, 6] : tensor<120xf32> into tensor<4x5x6xf32>
// CHECK: tensor.concat dim(1) %arg1, %arg1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
func.func @shapes(%x: tensor<2x3x4x5xf32>, %y: tensor<2x3xf32>) -> (tensor<4x5x6xf32>, tensor<2x6xf32>) {
  %0 = nn.flatten %x : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  %1 = nn.reshape %0 {shape = array<i64: 4, 5, 6>} : (tensor<2x60xf32>) -> tensor<4x5x6xf32>
  %2 = nn.concat %y, %y {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %1, %2 : tensor<4x5x6xf32>, tensor<2x6xf32>
}
