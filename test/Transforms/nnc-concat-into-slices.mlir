// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-concat-into-slices))" | FileCheck %s
// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-concat-into-slices),one-shot-bufferize{bufferize-function-boundaries},cse,canonicalize)" | FileCheck %s --check-prefix=BUF

// Both inputs are computed by generic ops into empty tensors: they are
// computed into slices of one tensor instead, the first slice taken before
// the first producer, each result put back right after its producer.
// CHECK-LABEL: func.func @two_producers
// CHECK: %[[ALL:.*]] = tensor.empty() : tensor<2x4x4x12xf32>
// CHECK-NEXT: %[[S0:.*]] = tensor.extract_slice %[[ALL]][0, 0, 0, 0] [2, 4, 4, 8] [1, 1, 1, 1]
// CHECK-NEXT: %[[A:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x4x4x8xf32>) outs(%[[S0]] : tensor<2x4x4x8xf32>)
// CHECK: %[[ALL1:.*]] = tensor.insert_slice %[[A]] into %[[ALL]][0, 0, 0, 0] [2, 4, 4, 8] [1, 1, 1, 1]
// CHECK-NEXT: %[[S1:.*]] = tensor.extract_slice %[[ALL1]][0, 0, 0, 8] [2, 4, 4, 4] [1, 1, 1, 1]
// CHECK-NEXT: %[[B:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<2x4x4x4xf32>) outs(%[[S1]] : tensor<2x4x4x4xf32>)
// CHECK: %[[ALL2:.*]] = tensor.insert_slice %[[B]] into %[[ALL1]][0, 0, 0, 8] [2, 4, 4, 4] [1, 1, 1, 1]
// CHECK-NOT: tensor.concat
// CHECK: return %[[ALL2]]
// Bufferized (and the identical subviews merged): one allocation, the
// producers write its subviews, no copy.
// BUF-LABEL: func.func @two_producers
// BUF: %[[ALL:.*]] = memref.alloc() {{.*}} : memref<2x4x4x12xf32>
// BUF-NEXT: %[[S0:.*]] = memref.subview %[[ALL]][0, 0, 0, 0] [2, 4, 4, 8] [1, 1, 1, 1]
// BUF-NEXT: linalg.generic {{.*}} outs(%[[S0]] : memref<2x4x4x8xf32, strided<[192, 48, 12, 1]>>)
// BUF: %[[S1:.*]] = memref.subview %[[ALL]][0, 0, 0, 8] [2, 4, 4, 4] [1, 1, 1, 1]
// BUF-NEXT: linalg.generic {{.*}} outs(%[[S1]] : memref<2x4x4x4xf32, strided<[192, 48, 12, 1], offset: 8>>)
// BUF-NOT: memref.copy
// BUF: return %[[ALL]]
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @two_producers(%x: tensor<2x4x4x8xf32>, %y: tensor<2x4x4x4xf32>) -> tensor<2x4x4x12xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x4x8xf32>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x4x8xf32>) outs(%e0 : tensor<2x4x4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4x8xf32>
  %e1 = tensor.empty() : tensor<2x4x4x4xf32>
  %b = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<2x4x4x4xf32>) outs(%e1 : tensor<2x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4x4xf32>
  %c = tensor.concat dim(3) %a, %b : (tensor<2x4x4x8xf32>, tensor<2x4x4x4xf32>) -> tensor<2x4x4x12xf32>
  return %c : tensor<2x4x4x12xf32>
}

// -----

// An argument is copied in where the concat was; the producer listed
// second but computed first writes its slice in place, and so does one
// whose result is used again: that use, after the concat, reads the slice
// of the concatenation (bufferized, a subview of the buffer no later
// producer writes).
// CHECK-LABEL: func.func @mixed
// CHECK: %[[ALL:.*]] = tensor.empty() : tensor<4x9xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[ALL]][0, 3] [4, 2] [1, 1]
// CHECK-NEXT: %[[A:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<4x2xf32>)
// CHECK: %[[ALL1:.*]] = tensor.insert_slice %[[A]] into %[[ALL]][0, 3] [4, 2] [1, 1]
// CHECK-NEXT: %[[S2:.*]] = tensor.extract_slice %[[ALL1]][0, 5] [4, 4] [1, 1]
// CHECK-NEXT: %[[B:.*]] = linalg.generic {{.*}} outs(%[[S2]] : tensor<4x4xf32>)
// CHECK: %[[ALL2:.*]] = tensor.insert_slice %[[B]] into %[[ALL1]][0, 5] [4, 4] [1, 1]
// CHECK-NEXT: %[[ALL3:.*]] = tensor.insert_slice %arg0 into %[[ALL2]][0, 0] [4, 3] [1, 1]
// CHECK-NEXT: %[[BS:.*]] = tensor.extract_slice %[[ALL3]][0, 5] [4, 4] [1, 1]
// CHECK-NEXT: return %[[ALL3]], %[[BS]]
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @mixed(%x: tensor<4x3xf32>, %y: tensor<4x2xf32>, %z: tensor<4x4xf32>) -> (tensor<4x9xf32>, tensor<4x4xf32>) {
  %e0 = tensor.empty() : tensor<4x2xf32>
  %a = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<4x2xf32>) outs(%e0 : tensor<4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %b = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %c = tensor.concat dim(1) %x, %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<4x9xf32>
  return %c, %b : tensor<4x9xf32>, tensor<4x4xf32>
}

// -----

// No input computed into an empty tensor, or one taken twice: the concat
// stays.
// CHECK-LABEL: func.func @arguments
// CHECK: tensor.concat dim(0) %arg0, %arg1
func.func @arguments(%x: tensor<2x3xf32>, %y: tensor<1x3xf32>) -> tensor<3x3xf32> {
  %c = tensor.concat dim(0) %x, %y : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  return %c : tensor<3x3xf32>
}

// CHECK-LABEL: func.func @twice
// CHECK: tensor.concat dim(0) %[[A:.*]], %[[A]]
#map4 = affine_map<(d0, d1) -> (d0, d1)>
func.func @twice(%x: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %a = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %c = tensor.concat dim(0) %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %c : tensor<4x3xf32>
}

// -----

// The producer's empty tensor also starts a fill (as the CPU's convolution
// and its bias share one): only the producer's use becomes the slice.
// CHECK-LABEL: func.func @shared_empty
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x2xf32>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} outs(%[[E]] : tensor<4x2xf32>)
// CHECK: %[[ALL:.*]] = tensor.empty() : tensor<4x4xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[ALL]][0, 0] [4, 2] [1, 1]
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0, %[[F]] : tensor<4x2xf32>, tensor<4x2xf32>) outs(%[[S]] : tensor<4x2xf32>)
#map3 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shared_empty(%x: tensor<4x2xf32>, %y: tensor<4x2xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %a = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%x, %f : tensor<4x2xf32>, tensor<4x2xf32>) outs(%e : tensor<4x2xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %r = arith.addf %in, %in2 : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %c = tensor.concat dim(1) %a, %y : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}
