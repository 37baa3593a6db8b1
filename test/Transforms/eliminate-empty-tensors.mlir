// RUN: nnc-opt %s --split-input-file --eliminate-empty-tensors | FileCheck %s

// A parameter's update, computed into an empty tensor and then written to
// the parameter's argument, is computed into the argument: the argument is
// writable, as it is once the function is bufferized.
// CHECK-LABEL: func.func @update
// CHECK: %[[U:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<8xf32>, tensor<8xf32>) outs(%arg0 : tensor<8xf32>)
// CHECK: bufferization.materialize_in_destination %[[U]] in %arg0
#map = affine_map<(d0) -> (d0)>
func.func @update(%w: tensor<8xf32>, %g: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%w, %g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %m = bufferization.materialize_in_destination %u in %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// -----

// An activation inserted into a padded tensor is computed into the
// padded tensor's interior, the slice taken before it.
// CHECK-LABEL: func.func @padded
// CHECK: %[[F:.*]] = linalg.fill
// CHECK-NEXT: %[[IN:.*]] = tensor.extract_slice %[[F]][0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1]
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<1x4x4x2xf32>)
// CHECK: tensor.insert_slice %[[A]] into %[[F]][0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padded(%x: tensor<1x4x4x2xf32>) -> tensor<1x6x6x2xf32> {
  %zero = arith.constant 0.0 : f32
  %big = tensor.empty() : tensor<1x6x6x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%big : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x2xf32>) outs(%e : tensor<1x4x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x2xf32>
  %p = tensor.insert_slice %a into %f[0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> into tensor<1x6x6x2xf32>
  return %p : tensor<1x6x6x2xf32>
}

// -----

// A function that calls another is analysed alone too, the call without
// its callee's summary (as if it read and wrote its operands).
// CHECK-LABEL: func.func @with_call
// CHECK: call @use(%arg1)
// CHECK: %[[U:.*]] = linalg.generic {{.*}} outs(%arg0 : tensor<8xf32>)
// CHECK: bufferization.materialize_in_destination %[[U]] in %arg0
#map = affine_map<(d0) -> (d0)>
func.func private @use(tensor<8xf32>) -> f32
func.func @with_call(%w: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %s = call @use(%g) : (tensor<8xf32>) -> f32
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%w, %g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %m = bufferization.materialize_in_destination %u in %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %m, %s : tensor<8xf32>, f32
}
