// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-cpu-vectorizable-loop-order))" | FileCheck %s

// The output's last dimension becomes the innermost loop, the reductions
// move before it: C[m, n] += A[m, k] * B[k, n] runs m, k, n.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// A convolution runs n, oh, ow, kh, kw, c, f.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d3, d2 + d4, d5)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>
// CHECK-DAG: #[[Y:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d6)>

// CHECK-LABEL: func.func @matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK:   arith.mulf
// CHECK:   arith.addf
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// CHECK-LABEL: func.func @conv
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[Y]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]}
func.func @conv(%x: memref<1x8x8x3xf32>, %w: memref<3x3x3x16xf32>, %y: memref<1x6x6x16xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x8x3xf32>, memref<3x3x3x16xf32>) outs(%y : memref<1x6x6x16xf32>)
  return
}

// A reduction with a single parallel loop keeps its order, so that loop
// stays outermost and parallel; so do ops without reductions.
// CHECK-LABEL: func.func @row_sum
// CHECK: linalg.reduce
// CHECK-LABEL: func.func @add
// CHECK: linalg.add
func.func @row_sum(%x: memref<4x16xf32>, %y: memref<4xf32>) {
  linalg.reduce ins(%x : memref<4x16xf32>) outs(%y : memref<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
func.func @add(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  linalg.add ins(%x, %x : memref<4x16xf32>, memref<4x16xf32>) outs(%y : memref<4x16xf32>)
  return
}

// The output's last dimension already innermost: unchanged.
// CHECK-LABEL: func.func @column_sum
// CHECK: linalg.reduce
func.func @column_sum(%x: memref<4x16xf32>, %y: memref<16xf32>) {
  linalg.reduce ins(%x : memref<4x16xf32>) outs(%y : memref<16xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}
