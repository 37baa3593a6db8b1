// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-cpu-vectorize,canonicalize))" | FileCheck %s

// Bias and ReLU on NHWC: threads over (n, h, w), vectors along the channels
// (4 lanes: the widest vector that divides 20 with 256-bit registers).
// CHECK-LABEL: func.func @bias_relu
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 4, 4)
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c4
// CHECK: vector.load {{.*}} : memref<{{.*}}>, vector<4xf32>
// CHECK: vector.load {{.*}} : memref<{{.*}}>, vector<4xf32>
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK: arith.maximumf {{.*}} : vector<4xf32>
// CHECK: vector.store {{.*}} : memref<{{.*}}>, vector<4xf32>
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @bias_relu(%x: memref<2x4x4x20xf32>, %b: memref<20xf32>, %y: memref<2x4x4x20xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %b : memref<2x4x4x20xf32>, memref<20xf32>) outs(%y : memref<2x4x4x20xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A bias gradient (sum over n, h, w): vectors of channels spread over the
// threads; each vector's accumulator is read once, carried through the
// reduction loops in a register and written once.
// CHECK-LABEL: func.func @bias_grad
// CHECK: scf.forall (%{{.*}}) = (0) to (16) step (8)
// CHECK: %[[INIT:.*]] = vector.load {{.*}} : memref<{{.*}}>, vector<8xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (vector<8xf32>)
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: scf.for {{.*}} -> (vector<8xf32>)
// CHECK: vector.load
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: vector.store %[[SUM]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#c = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @bias_grad(%x: memref<2x4x4x16xf32>, %g: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id, #c], iterator_types = ["reduction", "reduction", "reduction", "parallel"]} ins(%x : memref<2x4x4x16xf32>) outs(%g : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A channel sum over each row's columns (batch norm's first stage): four
// vectors of channels side by side (4 x 8 lanes), four chains of adds,
// each step one contiguous 128-byte run of a row.
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK: vector.load {{.*}} : memref<{{.*}}>, vector<32xf32>
// CHECK: scf.for {{.*}} -> (vector<1x1x32xf32>)
// CHECK: vector.load {{.*}} : memref<{{.*}}>, vector<32xf32>
// CHECK: arith.addf {{.*}} : vector<1x1x32xf32>
// CHECK: vector.store {{.*}} : memref<{{.*}}>, vector<32xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @row_sums(%x: memref<2x4x5x64xf32>, %s: memref<2x4x64xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%x : memref<2x4x5x64xf32>) outs(%s : memref<2x4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Two sums of one pass (batch norm's gradient: sum(dy) and sum(dy * (x -
// mean))): one loop over the rows reads x, dy (and the mean) once, and
// carries both accumulators in registers; each is written once after it.
// CHECK-LABEL: func.func @two_row_sums
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK-COUNT-2: vector.load {{.*}} : memref<{{.*}}>, vector<32xf32>
// CHECK: %[[SUMS:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (vector<1x1x32xf32>, vector<1x1x32xf32>)
// CHECK-COUNT-3: vector.load {{.*}} : memref<{{.*}}>, vector<32xf32>
// CHECK-NOT: vector.load
// CHECK: scf.yield %{{.*}}, %{{.*}} : vector<1x1x32xf32>, vector<1x1x32xf32>
// CHECK: vector.extract %[[SUMS]]#0
// CHECK: vector.store
// CHECK: vector.extract %[[SUMS]]#1
// CHECK: vector.store
// CHECK-NOT: vector.store
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @two_row_sums(%x: memref<2x4x5x64xf32>, %dy: memref<2x4x5x64xf32>, %mean: memref<64xf32>, %s: memref<2x4x64xf32>, %t: memref<2x4x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #ch, #row, #row], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%x, %dy, %mean : memref<2x4x5x64xf32>, memref<2x4x5x64xf32>, memref<64xf32>) outs(%s, %t : memref<2x4x64xf32>, memref<2x4x64xf32>) {
  ^bb0(%a: f32, %d: f32, %m: f32, %o: f32, %p: f32):
    %c = arith.subf %a, %m : f32
    %dc = arith.mulf %d, %c : f32
    %u = arith.addf %o, %d : f32
    %v = arith.addf %p, %dc : f32
    linalg.yield %u, %v : f32, f32
  }
  return
}

// -----

// The same sum of a transposed operand reads single lanes along the
// vector loop: one vector at a time.
// CHECK-LABEL: func.func @transposed_row_sums
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c8
// CHECK: scf.for {{.*}} -> (vector<1x1x8xf32>)
// CHECK: vector.transfer_read {{.*}} vector<8xf32>
// CHECK-NOT: vector<32xf32>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
func.func @transposed_row_sums(%x: memref<2x4x64x5xf32>, %s: memref<2x4x64xf32>) {
  linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%x : memref<2x4x64x5xf32>) outs(%s : memref<2x4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// A transposing op whose map is not a projected permutation (a flipped
// filter) keeps its linalg form.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.generic
#flip = affine_map<(d0, d1) -> (2 - d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @kept(%w: memref<3x16xf32>, %f: memref<3x16xf32>) {
  linalg.generic {indexing_maps = [#flip, #id2], iterator_types = ["parallel", "parallel"]} ins(%w : memref<3x16xf32>) outs(%f : memref<3x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// An image's three channels pad into a larger buffer: the fill of the
// contiguous buffer runs as one dimension, the copy into its interior over
// rows of 16 x 3 floats (contiguous in both), in whole vectors.
// CHECK-LABEL: func.func @padded_image
// CHECK: memref.collapse_shape %arg1 {{\[}}[0, 1, 2, 3]] : memref<2x19x19x3xf32> into memref<2166xf32>
// CHECK: scf.forall (%{{.*}}) = (0) to (2166) step (2)
// CHECK: vector.store {{.*}} : memref<2xf32, {{.*}}>, vector<2xf32>
// CHECK: memref.collapse_shape %arg0 {{\[}}[0], [1], [2, 3]] : memref<2x16x16x3xf32> into memref<2x16x48xf32>
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : memref<2x16x16x3xf32, strided<[1083, 57, 3, 1], offset: 60>> into memref<2x16x48xf32, strided<[1083, 57, 1], offset: 60>>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 16)
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c8
// CHECK: vector.load {{.*}} vector<8xf32>
// CHECK: vector.store {{.*}} vector<8xf32>
// CHECK-NOT: linalg.
func.func @padded_image(%in: memref<2x16x16x3xf32>, %out: memref<2x19x19x3xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%out : memref<2x19x19x3xf32>)
  %in_out = memref.subview %out[0, 1, 1, 0] [2, 16, 16, 3] [1, 1, 1, 1] : memref<2x19x19x3xf32> to memref<2x16x16x3xf32, strided<[1083, 57, 3, 1], offset: 60>>
  linalg.copy ins(%in : memref<2x16x16x3xf32>) outs(%in_out : memref<2x16x16x3xf32, strided<[1083, 57, 3, 1], offset: 60>>)
  return
}

// -----

// Dimensions merge only where every operand allows it: a bias over three
// channels reads them alone (not (w, c) as one), and channels padded in
// the output (a row of 4 x 3 floats among 4 x 4) are not contiguous with
// the columns.
// CHECK-LABEL: func.func @not_merged
// CHECK-NOT: collapse_shape
// CHECK: linalg.generic
// CHECK: linalg.generic
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#c = affine_map<(d0, d1, d2) -> (d2)>
func.func @not_merged(%x: memref<2x4x3xf32>, %b: memref<3xf32>, %y: memref<2x4x3xf32>, %p: memref<2x4x4xf32>) {
  linalg.generic {indexing_maps = [#id, #c, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %b : memref<2x4x3xf32>, memref<3xf32>) outs(%y : memref<2x4x3xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  }
  %pv = memref.subview %p[0, 0, 0] [2, 4, 3] [1, 1, 1] : memref<2x4x4xf32> to memref<2x4x3xf32, strided<[16, 4, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<2x4x3xf32>) outs(%pv : memref<2x4x3xf32, strided<[16, 4, 1]>>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// An elementwise op merges its trailing dimensions for an operand that
// reads only them: the bias over (w, c) becomes one dimension of 12, like
// the input's and output's rows.
// CHECK-LABEL: func.func @merged_bias
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0], [1, 2]] : memref<2x4x3xf32> into memref<2x12xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<4x3xf32> into memref<12xf32>
// CHECK-DAG: memref.collapse_shape %arg2 {{\[}}[0], [1, 2]] : memref<2x4x3xf32> into memref<2x12xf32>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#wc = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @merged_bias(%x: memref<2x4x3xf32>, %b: memref<4x3xf32>, %y: memref<2x4x3xf32>) {
  linalg.generic {indexing_maps = [#id3, #wc, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %b : memref<2x4x3xf32>, memref<4x3xf32>) outs(%y : memref<2x4x3xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A filter flipped for an input gradient, (2 - kh, 2 - kw) with the
// channels swapped: the channels are not read in order, so nothing merges.
// CHECK-LABEL: func.func @flipped_filter
// CHECK-NOT: collapse_shape
// CHECK: return
#flip = affine_map<(d0, d1, d2, d3) -> (2 - d0, 2 - d1, d3, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @flipped_filter(%w: memref<3x3x4x8xf32>, %f: memref<3x3x8x4xf32>) {
  linalg.generic {indexing_maps = [#flip, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%w : memref<3x3x4x8xf32>) outs(%f : memref<3x3x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
