// One-shot bufferization of linalg.generic with nnc's model
// (compiler/lib/Transforms/GenericBufferization.cpp), which answers from
// operand numbers what upstream's answers from the op's init range: an
// init is written and aliases its result, an init is read only when the
// body reads it, and an elementwise op may write over an input it reads
// through the same identity map.
// RUN: nnc-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   | FileCheck %s

// An init the body does not read is not copied into the new buffer that
// keeps the tensor the function still returns.
// CHECK-LABEL: func.func @unread_init
// CHECK: %[[NEW:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} outs(%[[NEW]] : memref<8xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @unread_init(%a: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<8xf32>
  return %r, %b : tensor<8xf32>, tensor<8xf32>
}

// An init the body reads (an accumulation) is copied first.
// CHECK-LABEL: func.func @read_init
// CHECK: %[[NEW:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK: memref.copy %{{.*}}, %[[NEW]]
// CHECK: linalg.generic {{.*}} outs(%[[NEW]] : memref<8xf32>)
func.func @read_init(%a: tensor<8xf32>, %b: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r, %b : tensor<8xf32>, tensor<8xf32>
}

// Elementwise, an op may overwrite the input it reads: each element is
// read before it is written.
// CHECK-LABEL: func.func @elementwise_in_place
// CHECK-SAME: (%[[A:.*]]: memref<8x4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<8x4xf32>) outs(%[[A]] : memref<8x4xf32>)
func.func @elementwise_in_place(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%a : tensor<8x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// Read through another map (a reversal), it may not: the op would read
// elements it has already written.
// CHECK-LABEL: func.func @reversed_out_of_place
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>)
// CHECK: %[[NEW:.*]] = memref.alloc() {{.*}} : memref<8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : memref<8xf32>) outs(%[[NEW]] : memref<8xf32>)
func.func @reversed_out_of_place(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (7 - d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
