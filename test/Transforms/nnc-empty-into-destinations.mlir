// RUN: nnc-opt %s --split-input-file --nnc-empty-into-destinations | FileCheck %s

// A parameter's update, computed into an empty tensor and then written to
// the parameter's argument, is computed into the argument, which it reads
// at the element it writes.
// CHECK-LABEL: func.func @update
// CHECK-NOT: tensor.empty
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

// The parameter is read after the update is computed: written early, it
// would be read overwritten, so the update keeps its own tensor.
// CHECK-LABEL: func.func @read_after
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
#map = affine_map<(d0) -> (d0)>
func.func private @use(tensor<8xf32>) -> f32
func.func @read_after(%w: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%w, %g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %s = call @use(%w) : (tensor<8xf32>) -> f32
  %m = bufferization.materialize_in_destination %u in %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %m, %s : tensor<8xf32>, f32
}

// -----

// A call that reads the parameter before the update leaves it writable.
// CHECK-LABEL: func.func @call_before
// CHECK: call @use(%arg0)
// CHECK: %[[U:.*]] = linalg.generic {{.*}} outs(%arg0 : tensor<8xf32>)
// CHECK: bufferization.materialize_in_destination %[[U]] in %arg0
#map = affine_map<(d0) -> (d0)>
func.func private @use(tensor<8xf32>) -> f32
func.func @call_before(%w: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %s = call @use(%w) : (tensor<8xf32>) -> f32
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%w, %g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %m = bufferization.materialize_in_destination %u in %w : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %m, %s : tensor<8xf32>, f32
}

// -----

// An update that reads the parameter reversed would read elements it has
// already written: it keeps its own tensor.
// CHECK-LABEL: func.func @reversed
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<8xf32>)
#map = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (7 - d0)>
func.func @reversed(%w: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %u = linalg.generic {indexing_maps = [#rev, #map], iterator_types = ["parallel"]} ins(%w : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
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

// The padded tensor is filled after the activation, which shares its
// tensor.empty with another op: the fill moves up to the activation, whose
// use alone is replaced.
// CHECK-LABEL: func.func @padded_later
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x4x4x2xf32>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<1x4x4x2xf32>)
// CHECK: %[[F:.*]] = linalg.fill
// CHECK-NEXT: %[[IN:.*]] = tensor.extract_slice %[[F]][0, 1, 1, 0]
// CHECK-NEXT: %[[A:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<1x4x4x2xf32>)
// CHECK: tensor.insert_slice %[[A]] into %[[F]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padded_later(%x: tensor<1x4x4x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x6x6x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x2xf32>) outs(%e : tensor<1x4x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x2xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x2xf32>) outs(%e : tensor<1x4x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x2xf32>
  %big = tensor.empty() : tensor<1x6x6x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%big : tensor<1x6x6x2xf32>) -> tensor<1x6x6x2xf32>
  %p = tensor.insert_slice %a into %f[0, 1, 1, 0] [1, 4, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> into tensor<1x6x6x2xf32>
  return %n, %p : tensor<1x4x4x2xf32>, tensor<1x6x6x2xf32>
}

// -----

// A convolution accumulates into a filled tensor that is then inserted at
// a stride into a tensor.empty (one phase of a strided convolution's input
// gradient): the fill starts from the strided slice.
// CHECK-LABEL: func.func @strided_phase
// CHECK: %[[ALL:.*]] = tensor.empty() : tensor<1x5x5x2xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[ALL]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: %[[F:.*]] = linalg.fill {{.*}} outs(%[[S]] : tensor<1x3x3x2xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} outs(%[[F]] : tensor<1x3x3x2xf32>)
// CHECK: tensor.insert_slice %[[C]] into %[[ALL]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
func.func @strided_phase(%x: tensor<1x4x4x2xf32>, %k: tensor<2x2x2x2xf32>) -> tensor<1x5x5x2xf32> {
  %zero = arith.constant 0.0 : f32
  %all = tensor.empty() : tensor<1x5x5x2xf32>
  %e = tensor.empty() : tensor<1x3x3x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %k : tensor<1x4x4x2xf32>, tensor<2x2x2x2xf32>) outs(%f : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %p = tensor.insert_slice %c into %all[0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1] : tensor<1x3x3x2xf32> into tensor<1x5x5x2xf32>
  return %p : tensor<1x5x5x2xf32>
}
