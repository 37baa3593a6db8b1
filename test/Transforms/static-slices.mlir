// One-shot bufferization with nnc's models of tensor.extract_slice and
// tensor.insert_slice (compiler/lib/Transforms/StaticSlices.cpp), which
// compare static slices by their constants. A slice computed in place and
// written back to where it was read from needs no copy; one written
// elsewhere does, or the computation would overwrite the rows it read.
// (The copy of the first slice onto itself is left to canonicalisation.)
// RUN: nnc-opt %s --one-shot-bufferize=bufferize-function-boundaries \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @same_slice
// CHECK-NOT: memref.alloc
// CHECK: linalg.exp
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @same_slice(%t: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = tensor.extract_slice %t[4, 0] [4, 4] [1, 1]
      : tensor<8x4xf32> to tensor<4x4xf32>
  %1 = linalg.exp ins(%0 : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>)
      -> tensor<4x4xf32>
  %2 = tensor.insert_slice %1 into %t[4, 0] [4, 4] [1, 1]
      : tensor<4x4xf32> into tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @other_slice
// CHECK: memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK: linalg.exp
// CHECK: memref.copy
func.func @other_slice(%t: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = tensor.extract_slice %t[0, 0] [4, 4] [1, 1]
      : tensor<8x4xf32> to tensor<4x4xf32>
  %1 = linalg.exp ins(%0 : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>)
      -> tensor<4x4xf32>
  %2 = tensor.insert_slice %1 into %t[4, 0] [4, 4] [1, 1]
      : tensor<4x4xf32> into tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}

// A stride that differs is another slice too.
// CHECK-LABEL: func.func @other_stride
// CHECK: memref.alloc() {{.*}} : memref<4x2xf32>
func.func @other_stride(%t: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = tensor.extract_slice %t[0, 0] [4, 2] [1, 2]
      : tensor<8x4xf32> to tensor<4x2xf32>
  %1 = linalg.exp ins(%0 : tensor<4x2xf32>) outs(%0 : tensor<4x2xf32>)
      -> tensor<4x2xf32>
  %2 = tensor.insert_slice %1 into %t[0, 0] [4, 2] [1, 1]
      : tensor<4x2xf32> into tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
