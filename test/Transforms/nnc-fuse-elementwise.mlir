// RUN: nnc-opt %s --nnc-fuse-elementwise --split-input-file | FileCheck %s

// An elementwise chain becomes one generic: the consumer reads each of the
// producer's elements once.
// CHECK-LABEL: func.func @chain
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%0, %b : tensor<4x8xf32>, tensor<4x8xf32>)
      outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// A reduction that covers every element of its operand once (a row sum)
// takes the producer in.
// CHECK-LABEL: func.func @row_sum
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @row_sum(%a: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row],
                       iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A matrix product reads B once per row of A: an elementwise producer of B
// (as a batch norm's backward pass feeds a filter gradient) would be
// recomputed M times inside it, so it stays a generic of its own.
// CHECK-LABEL: func.func @product_operand
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: math.rsqrt
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[B]] :
// CHECK-NOT: math.rsqrt
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @product_operand(%x: tensor<16x32xf32>, %g: tensor<32x8xf32>,
                           %init: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<32x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<32x8xf32>) outs(%e : tensor<32x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<32x8xf32>
  %1 = linalg.generic {indexing_maps = [#a, #b, #c],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %0 : tensor<16x32xf32>, tensor<32x8xf32>)
      outs(%init : tensor<16x8xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

// -----

// A per-channel value broadcast over every pixel is computed once per
// channel, not once per pixel.
// CHECK-LABEL: func.func @broadcast
// CHECK: %[[S:.*]] = linalg.generic
// CHECK: math.rsqrt
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[S]] :
// CHECK-NOT: math.rsqrt
#v = affine_map<(d0) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#ch = affine_map<(d0, d1) -> (d1)>
func.func @broadcast(%x: tensor<64x4xf32>, %var: tensor<4xf32>) -> tensor<64x4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#v, #v],
                       iterator_types = ["parallel"]}
      ins(%var : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<64x4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #ch, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %0 : tensor<64x4xf32>, tensor<4xf32>)
      outs(%e2 : tensor<64x4xf32>) {
  ^bb0(%u: f32, %s: f32, %o: f32):
    %p = arith.mulf %u, %s : f32
    linalg.yield %p : f32
  } -> tensor<64x4xf32>
  return %1 : tensor<64x4xf32>
}
