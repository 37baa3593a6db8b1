// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-cpu-copies-to-linalg))" | FileCheck %s

// A copy into the interior of a padded buffer becomes linalg.copy (parallel,
// vectorised loops later), not a call to the runtime's generic copy.
// CHECK-LABEL: func.func @into_padded
// CHECK: %[[V:.*]] = memref.subview
// CHECK: linalg.copy ins(%arg0 : memref<2x4x4x3xf32>) outs(%[[V]] : memref<2x4x4x3xf32, strided<[108, 18, 3, 1], offset: 21>>)
// CHECK-NOT: memref.copy
func.func @into_padded(%x: memref<2x4x4x3xf32>, %p: memref<2x6x6x3xf32>) {
  %v = memref.subview %p[0, 1, 1, 0] [2, 4, 4, 3] [1, 1, 1, 1] : memref<2x6x6x3xf32> to memref<2x4x4x3xf32, strided<[108, 18, 3, 1], offset: 21>>
  memref.copy %x, %v : memref<2x4x4x3xf32> to memref<2x4x4x3xf32, strided<[108, 18, 3, 1], offset: 21>>
  return
}

// A rank-0 copy (a scalar result) stays as it is.
// CHECK-LABEL: func.func @scalar
// CHECK: memref.copy
func.func @scalar(%x: memref<f32>, %y: memref<f32>) {
  memref.copy %x, %y : memref<f32> to memref<f32>
  return
}
