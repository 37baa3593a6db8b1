// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-cuda-split-reductions{threads=64 chunk=8}))" | FileCheck %s

// A bias gradient: 16 channels summed over 4 x 6 x 6 positions. With 64
// threads wanted, the batch dimension (4) is split in 4: partial sums
// [4, 16] over a view of the input as [4, 1, 6, 6, 16], then the bias
// gradient adds the 4 partials.
// CHECK-LABEL: func.func @bias_grad
// CHECK: %[[VIEW:.*]] = memref.expand_shape %arg0 {{\[}}[0, 1], [2], [3], [4]] output_shape [4, 1, 6, 6, 16]
// CHECK: %[[P:.*]] = memref.alloc() : memref<4x16xf32>
// CHECK: linalg.fill {{.*}} outs(%[[P]]
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction", "reduction", "parallel", "parallel"]} ins(%[[VIEW]] : memref<4x1x6x6x16xf32>) outs(%[[P]] : memref<4x16xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[P]] : memref<4x16xf32>) outs(%arg1 : memref<16xf32>)
// CHECK: memref.dealloc %[[P]]
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#c4 = affine_map<(n, h, w, c) -> (c)>
func.func @bias_grad(%x: memref<4x6x6x16xf32>, %g: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id4, #c4], iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
    ins(%x : memref<4x6x6x16xf32>) outs(%g : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// A sum to a scalar over [96, 40] with 64 threads wanted: 48 pieces (the
// largest divisor of 96 up to 64), then their 48 partial sums in 6 pieces
// (each still adding at least 8), then the scalar.
// CHECK-LABEL: func.func @full_sum
// CHECK: memref.alloc() : memref<48xf32>
// CHECK: ins(%{{.*}} : memref<48x2x40xf32>) outs(%{{.*}} : memref<48xf32>)
// CHECK: memref.alloc() : memref<6xf32>
// CHECK: ins(%{{.*}} : memref<6x8xf32>) outs(%{{.*}} : memref<6xf32>)
// CHECK: ins(%{{.*}} : memref<6xf32>) outs(%arg1 : memref<f32>)
#id2 = affine_map<(i, j) -> (i, j)>
#s2 = affine_map<(i, j) -> ()>
func.func @full_sum(%x: memref<96x40xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id2, #s2], iterator_types = ["reduction", "reduction"]}
    ins(%x : memref<96x40xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %o, %sq : f32
    linalg.yield %t : f32
  }
  return
}

// Many outputs already: left alone.
// CHECK-LABEL: func.func @wide
// CHECK-NOT: memref.alloc
func.func @wide(%x: memref<8x128xf32>, %g: memref<128xf32>) {
  linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
    ins(%x : memref<8x128xf32>) outs(%g : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %o, %a : f32
    linalg.yield %t : f32
  }
  return
}
