// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-cpu-contractions))" | FileCheck %s
// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-cpu-contractions{vector-bits=512 vector-registers=32}))" | FileCheck %s --check-prefix=AVX512

// A dense layer: the zero fill is absorbed (the first K block stores), the
// bias and ReLU are applied in the stores to D, and C is gone. Tiles of
// two 8-wide rows of B per k step and as many rows of C as leave the least
// padding for M = 50 (AVX2 has room for 6: 5 x 16 tiles, 10 accumulators;
// AVX-512 for 14: 10 x 32 tiles, 20 accumulators); the last panel of 37
// columns is masked. Each k step prefetches its row of the panel 1 KiB of
// panel ahead (16 rows of B, 8 with AVX-512): B's rows of 37 floats are
// not line-aligned, so the row's last element too.
// CHECK-LABEL: func.func @dense
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.
// CHECK: scf.forall
// CHECK: scf.if
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, index) {
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c592{{[_0-9]*}} : index
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[AHEAD]]], read, locality<3>, data : memref<2590xf32>
// CHECK: %[[LAST:.*]] = arith.addi %{{.*}}, %c607{{[_0-9]*}} : index
// CHECK-NEXT: memref.prefetch %{{.*}}[%[[LAST]]], read, locality<3>, data : memref<2590xf32>
// CHECK-COUNT-10: vector.fma {{.*}} : vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.store
// CHECK: vector.maskedload
// CHECK: vector.maskedstore
// CHECK-NOT: linalg.generic
// CHECK: return
// AVX512-LABEL: func.func @dense
// AVX512: iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, index) {
// AVX512: arith.addi %{{.*}}, %c296{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch {{.*}} : memref<2590xf32>
// AVX512: arith.addi %{{.*}}, %c312{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch {{.*}} : memref<2590xf32>
// AVX512: arith.addi %{{.*}}, %c327{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch {{.*}} : memref<2590xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @dense(%a: memref<50x70xf32>, %b: memref<70x37xf32>, %bias: memref<37xf32>, %d: memref<50x37xf32>) {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<50x37xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<50x37xf32>)
  linalg.matmul ins(%a, %b : memref<50x70xf32>, memref<70x37xf32>) outs(%c : memref<50x37xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<50x37xf32>, memref<37xf32>) outs(%d : memref<50x37xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<50x37xf32>
  return
}

// -----

// Without a zero fill, the product adds to what C holds; a long K runs in
// blocks, the first adding to C's initial value like the others.
// CHECK-LABEL: func.func @accumulate
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: vector.fma
// CHECK: vector.load
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: vector.store
func.func @accumulate(%a: memref<64x600xf32>, %b: memref<600x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x600xf32>, memref<600x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// B transposed (the input gradient of a dense layer, dY * W^T): A and B are
// both unit-stride along k, so each tile is 3 x 3 dot products along k,
// reduced once at the end.
// CHECK-LABEL: func.func @transposed_b
// CHECK: scf.forall
// CHECK: iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, index) {
// CHECK-COUNT-9: vector.fma
// CHECK: vector.reduction <add>
// CHECK-NOT: linalg.matmul
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_b(%a: memref<32x96xf32>, %b: memref<40x96xf32>, %c: memref<32x40xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<32x40xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c] ins(%a, %b : memref<32x96xf32>, memref<40x96xf32>) outs(%c : memref<32x40xf32>)
  return
}

// -----

// Dot products along a K that 16-lane vectors do not divide (1000, the
// gradient of a 1000-unit layer's input): AVX-512 runs them 8 lanes wide
// rather than leave the product to the generic loops.
// CHECK-LABEL: func.func @dot_k1000
// CHECK: vector.fma {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.matmul
// AVX512-LABEL: func.func @dot_k1000
// AVX512: scf.forall
// AVX512: vector.fma {{.*}} : vector<8xf32>
// AVX512: vector.reduction <add>
// AVX512-NOT: linalg.matmul
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @dot_k1000(%a: memref<32x1000xf32>, %b: memref<64x1000xf32>, %c: memref<32x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<32x64xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c] ins(%a, %b : memref<32x1000xf32>, memref<64x1000xf32>) outs(%c : memref<32x64xf32>)
  return
}

// -----

// A convolution reads its input through the addresses of an implicit
// im2col: rows of C are output pixels, the K loops run over the filter
// taps and input channels, and B is the HWIO filter itself. Nothing is
// copied; the input view ends at the last element a window reaches
// (row and column 14 of 16: 7920 elements).
// CHECK-LABEL: func.func @conv
// CHECK-DAG: memref.reinterpret_cast {{.*}} sizes: [7920], strides: [1] : memref<f32> to memref<7920xf32>
// CHECK-DAG: memref.reinterpret_cast {{.*}} sizes: [9216], strides: [1] : memref<f32> to memref<9216xf32>
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: vector.fma
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
func.func @conv(%x: memref<2x16x16x16xf32>, %w: memref<3x3x16x64xf32>, %y: memref<2x7x7x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<2x7x7x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x16x16x16xf32>, memref<3x3x16x64xf32>) outs(%y : memref<2x7x7x64xf32>)
  return
}

// -----

// A batched product is no contraction of this form: it keeps its linalg op.
// CHECK-LABEL: func.func @batched
// CHECK: linalg.batch_matmul
// CHECK-NOT: scf.forall
func.func @batched(%a: memref<2x8x8xf32>, %b: memref<2x8x8xf32>, %c: memref<2x8x8xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x8x8xf32>, memref<2x8x8xf32>) outs(%c : memref<2x8x8xf32>)
  return
}

// -----

// The input gradient of a dense layer after a flatten keeps the
// convolution's shape: C[n, h, w, c] = sum_j dY[n, j] * W[h, w, c, j]. The
// columns of C are (h, w, c) flattened; A and B are unit-stride along j, so
// the tiles are dot products.
// CHECK-LABEL: func.func @unflattened
// CHECK: scf.forall
// CHECK: vector.fma
// CHECK: vector.reduction <add>
// CHECK-NOT: linalg.generic
#dy = affine_map<(n, h, w, c, j) -> (n, j)>
#w = affine_map<(n, h, w, c, j) -> (h, w, c, j)>
#dx = affine_map<(n, h, w, c, j) -> (n, h, w, c)>
func.func @unflattened(%dy: memref<8x32xf32>, %wt: memref<3x3x16x32xf32>, %dx: memref<8x3x3x16xf32>) {
  linalg.generic {indexing_maps = [#dy, #w, #dx], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
    ins(%dy, %wt : memref<8x32xf32>, memref<3x3x16x32xf32>) outs(%dx : memref<8x3x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Many rows of C reuse B: it is first packed into 16-wide panels (K = 300
// each, zero-padded). The C blocks split N into equal column blocks and go
// columns outer, so each thread's consecutive blocks share B's panel block.
// Each k step prefetches its panel's line 1 KiB (256 floats) ahead: one
// line of a 16-wide panel; AVX-512's tiles of packed B are 6 rows by 4
// vectors, 24 accumulators, and prefetch the 4 lines of a 64-wide one.
// CHECK-LABEL: func.func @packed
// CHECK: %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<76800xf32>
// CHECK: scf.forall ({{.*}}) in (16)
// CHECK: vector.store {{.*}}, %[[PACKED]]
// CHECK: scf.forall ({{.*}}, {{.*}}) in (2, 13)
// CHECK: scf.for {{.*}} step %c6{{[_0-9]*}} {
// CHECK: scf.for {{.*}} step %c16{{[_0-9]*}} {
// CHECK: vector.load %[[PACKED]]
// CHECK: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c256{{[_0-9]*}} : index
// CHECK-NEXT: memref.prefetch %[[PACKED]][%[[AHEAD]]], read, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK-COUNT-12: vector.fma
// CHECK: memref.dealloc %[[PACKED]]
// AVX512-LABEL: func.func @packed
// AVX512: %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<76800xf32>
// AVX512: scf.for {{.*}} step %c6{{[_0-9]*}} {
// AVX512: scf.for {{.*}} step %c64{{[_0-9]*}} {
// AVX512-COUNT-4: vector.load %[[PACKED]]
// AVX512: %[[AHEAD:.*]] = arith.addi %{{.*}}, %c256{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch %[[PACKED]][%[[AHEAD]]], read, locality<3>, data
// AVX512: %[[NEXT:.*]] = arith.addi %{{.*}}, %c272{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch %[[PACKED]][%[[NEXT]]], read, locality<3>, data
// AVX512: arith.addi %{{.*}}, %c288{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch %[[PACKED]]
// AVX512: arith.addi %{{.*}}, %c304{{[_0-9]*}} : index
// AVX512-NEXT: memref.prefetch %[[PACKED]]
// AVX512-NOT: memref.prefetch
// AVX512-COUNT-24: vector.fma
func.func @packed(%a: memref<600x300xf32>, %b: memref<300x256xf32>, %c: memref<600x256xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<600x256xf32>)
  linalg.matmul ins(%a, %b : memref<600x300xf32>, memref<300x256xf32>) outs(%c : memref<600x256xf32>)
  return
}

// -----

// A filter row's taps and channels are contiguous in both the NHWC input
// and the HWIO filter: the micro-kernel runs them as one loop of 3 x 32
// iterations, inside the loop over filter rows. Its induction variable is
// A's offset, from the filter row's first to 96 past it.
// CHECK-LABEL: func.func @conv_taps
// CHECK: scf.for {{.*}} to %c3{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args(
// CHECK-NOT: scf.for
// CHECK: %[[TO:.*]] = arith.addi %[[FROM:.*]], %c96{{[_0-9]*}} : index
// CHECK-NEXT: scf.for {{.*}} = %[[FROM]] to %[[TO]] step %c4{{[_0-9]*}} iter_args(
func.func @conv_taps(%x: memref<8x18x18x32xf32>, %w: memref<3x3x32x64xf32>, %y: memref<8x16x16x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<8x16x16x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<8x18x18x32xf32>, memref<3x3x32x64xf32>) outs(%y : memref<8x16x16x64xf32>)
  return
}

// -----

// A K long beside a small C (a filter gradient's shape: K is the batch
// times the output positions) is split: 16 slices, run in parallel beside
// C's single block, sum into their own copies of C (their first stores
// overwrite), then one pass over C's rows adds the copies into C. The
// consumer (bias and ReLU) stays a kernel of its own: reading C back costs
// nothing beside a reduction of 8192 (worthFusingEpilogue). A slice's view
// has a dynamic size, so that kernels whose C differ in size alone merge.
// CHECK-LABEL: func.func @split_k
// CHECK: %[[C:.*]] = memref.alloc() : memref<32x64xf32>
// CHECK: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32768xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (16, 1, 1)
// CHECK: memref.reinterpret_cast %[[P]] to offset: [%{{.*}}], sizes: [%c2048{{[_0-9]*}}], strides: [1] : memref<32768xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: vector.fma
// CHECK: scf.forall (%{{.*}}) in (32)
// CHECK-COUNT-16: vector.load %[[P]]
// CHECK-NOT: arith.maximumf
// CHECK: memref.dealloc %[[P]]
// CHECK: linalg.generic {{.*}} ins(%[[C]], %{{.*}} : memref<32x64xf32>, memref<64xf32>)
// CHECK: arith.maximumf
// CHECK: memref.dealloc %[[C]]
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @split_k(%a: memref<32x8192xf32>, %b: memref<8192x64xf32>, %bias: memref<64xf32>, %d: memref<32x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<32x64xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<32x64xf32>)
  linalg.matmul ins(%a, %b : memref<32x8192xf32>, memref<8192x64xf32>) outs(%c : memref<32x64xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<32x64xf32>, memref<64xf32>) outs(%d : memref<32x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<32x64xf32>
  return
}

// -----

// Whether the consumer is fused depends on how much C's round trip would
// cost beside the contraction (worthFusingEpilogue). With K = 256 (above
// 24 k steps per lane with AVX2, below with AVX-512's 16 lanes), a C of
// 160 KB, which the caches hold, is left to its consumer with AVX2...
// CHECK-LABEL: func.func @consumer_of_small_c
// CHECK: scf.forall
// CHECK-NOT: arith.maximumf
// CHECK: linalg.generic
// CHECK: arith.maximumf
// AVX512-LABEL: func.func @consumer_of_small_c
// AVX512: scf.forall
// AVX512: arith.maximumf {{.*}} : vector<16xf32>
// AVX512-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @consumer_of_small_c(%a: memref<64x256xf32>, %b: memref<256x640xf32>, %bias: memref<640xf32>, %d: memref<64x640xf32>) {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x640xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<64x640xf32>)
  linalg.matmul ins(%a, %b : memref<64x256xf32>, memref<256x640xf32>) outs(%c : memref<64x640xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<64x640xf32>, memref<640xf32>) outs(%d : memref<64x640xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<64x640xf32>
  return
}

// -----

// ... but a C of 20 MB, larger than the caches, is fused (K below 512 k
// steps per lane): written and read back, it would come from memory.
// CHECK-LABEL: func.func @consumer_of_large_c
// CHECK-NOT: memref.alloc() : memref<8192x640xf32>
// CHECK: scf.forall
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @consumer_of_large_c(%a: memref<8192x256xf32>, %b: memref<256x640xf32>, %bias: memref<640xf32>, %d: memref<8192x640xf32>) {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8192x640xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<8192x640xf32>)
  linalg.matmul ins(%a, %b : memref<8192x256xf32>, memref<256x640xf32>) outs(%c : memref<8192x640xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<8192x640xf32>, memref<640xf32>) outs(%d : memref<8192x640xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<8192x640xf32>
  return
}

// -----

// A filter gradient: K is the batch, the rows and the columns (2 x 32 x 32).
// A micro-kernel over one row of 32 would store its accumulators every 32
// steps; instead the rows are chunked, so that the micro-kernel runs 8 rows
// (AVX2; 4 with AVX-512's wider tiles) of 32 columns each between stores,
// under block loops over the batch (one image per K slice here) and the
// chunks of rows.
// CHECK-LABEL: func.func @filter_grad
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (2, 12, 1)
// CHECK: scf.for {{.*}} to %c1{{[_0-9]*}} step
// CHECK: scf.for {{.*}} to %c4{{[_0-9]*}} step
// CHECK: scf.for {{.*}} to %c8{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args
// CHECK: %[[TO:.*]] = arith.addi %[[FROM:.*]], %c256{{[_0-9]*}} : index
// CHECK-NEXT: scf.for {{.*}} = %[[FROM]] to %[[TO]] step %c32{{[_0-9]*}} iter_args
// CHECK-COUNT-48: vector.fma
// AVX512-LABEL: func.func @filter_grad
// AVX512: scf.for {{.*}} to %c8{{[_0-9]*}} step
// AVX512: scf.for {{.*}} to %c4{{[_0-9]*}} step %c1{{[_0-9]*}} iter_args
// AVX512: %[[TO:.*]] = arith.addi %[[FROM:.*]], %c256{{[_0-9]*}} : index
// AVX512-NEXT: scf.for {{.*}} = %[[FROM]] to %[[TO]] step %c16{{[_0-9]*}} iter_args
#x = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h + kh, w + kw, ci)>
#dy = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h, w, co)>
#dw = affine_map<(kh, kw, ci, co, n, h, w) -> (kh, kw, ci, co)>
func.func @filter_grad(%x: memref<2x34x34x8xf32>, %dy: memref<2x32x32x32xf32>, %dw: memref<3x3x8x32xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%dw : memref<3x3x8x32xf32>)
  linalg.generic {indexing_maps = [#x, #dy, #dw], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %dy : memref<2x34x34x8xf32>, memref<2x32x32x32xf32>) outs(%dw : memref<3x3x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows of A 4 KiB apart (K = 1024): with AVX-512's 9-row tiles (3 vectors
// wide: N = 48), more rows than L1 has ways would share one set, so each
// tile's rows of the K block (256: the tile's rows in half of L1) are first
// copied, a vector at a time, into a buffer of the thread's with rows
// 256 + 16 floats apart, and the micro-kernel broadcasts from there.
// AVX2's 6-row tiles fit the ways but crowd the set: the C block's rows
// (36 of them, 6 tiles: 17 blocks of equal heights) of each K block (256:
// B's micro-panel in half of L1) are copied k-major, tile after tile 1552
// floats apart, 8 k's of the 6 rows (and 2 rows of zeros) at a time
// transposed into a vector per k, stored 6 floats apart; then the tiles run
// panels outer, rows inner, each micro-kernel stepping 6 floats of its
// tile's copy.
// CHECK-LABEL: func.func @rows_4k_apart
// CHECK: scf.forall {{.*}} in (1, 17)
// CHECK: %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<9312xf32>
// CHECK: scf.for {{.*}} to %c4{{[_0-9]*}} step %c1
// CHECK: scf.for %[[R:.*]] = %[[M0:.*]] to %{{.*}} step %c6
// CHECK: %[[D:.*]] = arith.subi %[[R]], %[[M0]]
// CHECK: %[[P:.*]] = arith.muli %[[D]], %c5726623062
// CHECK: %[[TILE:.*]] = arith.shrui %[[P]], %c35
// CHECK: arith.muli %[[TILE]], %c1552
// CHECK: scf.for {{.*}} to %c256{{[_0-9]*}} step %c8
// CHECK-COUNT-6: vector.load
// CHECK-COUNT-24: vector.shuffle
// CHECK-COUNT-8: vector.store %{{.*}}, %[[T]]
// CHECK: scf.for {{.*}} step %c16
// CHECK-NEXT: scf.for {{.*}} step %c6
// CHECK: scf.for {{.*}} to %c1536{{[_0-9]*}} step %c24
// CHECK: memref.load %[[T]]
// CHECK-COUNT-2: vector.fma
// AVX512-LABEL: func.func @rows_4k_apart
// AVX512: scf.forall
// AVX512: %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2448xf32>
// AVX512: scf.for %[[R:.*]] = %{{.*}} to %c9{{[_0-9]*}} step
// AVX512: arith.muli %[[R]], %c272
// AVX512: scf.for {{.*}} to %c256{{[_0-9]*}} step %c16
// AVX512: vector.store %{{.*}}, %[[T]]
// AVX512: scf.for {{.*}} iter_args
// AVX512: memref.load %[[T]]
// AVX512-COUNT-2: vector.fma
func.func @rows_4k_apart(%a: memref<600x1024xf32>, %b: memref<1024x48xf32>, %c: memref<600x48xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<600x48xf32>)
  linalg.matmul ins(%a, %b : memref<600x1024xf32>, memref<1024x48xf32>) outs(%c : memref<600x48xf32>)
  return
}

// -----

// N = 80 is panels of 32, 32 and 16 with AVX-512: the last panel's tiles
// compute one vector per row, not two with the second masked off, and need
// no mask (AVX2: panels of 16, all full).
// CHECK-LABEL: func.func @narrow_panel
// CHECK-NOT: vector.mask
// CHECK: return
// AVX512-LABEL: func.func @narrow_panel
// AVX512-NOT: vector.mask
// AVX512: iter_args({{.*}}) -> (vector<16xf32>{{(, vector<16xf32>){15}, index[)]}}
// AVX512: iter_args({{.*}}) -> (vector<16xf32>{{(, vector<16xf32>){7}, index[)]}}
// AVX512-NOT: vector.mask
// AVX512: return
func.func @narrow_panel(%a: memref<64x32xf32>, %b: memref<32x80xf32>, %c: memref<64x80xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<64x80xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x80xf32>) outs(%c : memref<64x80xf32>)
  return
}

// -----

// An epilogue that reads an operand as large as C (a residual) prefetches
// it, and the lines of D it will write, for the tile's rows before the K
// loop; the bias, the same for every row, once. AVX2: 6 x 16 tiles, one
// line per row; AVX-512: 8 x 32 tiles, two. In the K loop, only B's panel
// is prefetched.
// CHECK-LABEL: func.func @epilogue_prefetch
// CHECK: memref.prefetch {{.*}}, read, locality<3>, data : memref<64xf32>
// CHECK-COUNT-6: memref.prefetch {{.*}}, read, locality<3>, data : memref<16384xf32>
// CHECK-COUNT-6: memref.prefetch {{.*}}, write, locality<3>, data : memref<16384xf32>
// CHECK-NOT: memref.prefetch
// CHECK: scf.for {{.*}} iter_args
// CHECK-NOT: memref.prefetch {{.*}} : memref<16384xf32>
// CHECK: memref.prefetch {{.*}}, read, locality<3>, data : memref<4096xf32>
// CHECK-NOT: memref.prefetch {{.*}} : memref<16384xf32>
// CHECK: return
// AVX512-LABEL: func.func @epilogue_prefetch
// AVX512-COUNT-2: memref.prefetch {{.*}}, read, locality<3>, data : memref<64xf32>
// AVX512-COUNT-16: memref.prefetch {{.*}}, read, locality<3>, data : memref<16384xf32>
// AVX512-COUNT-16: memref.prefetch {{.*}}, write, locality<3>, data : memref<16384xf32>
// AVX512-NOT: memref.prefetch
// AVX512: scf.for {{.*}} iter_args
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @epilogue_prefetch(%a: memref<256x64xf32>, %b: memref<64x64xf32>, %bias: memref<64xf32>, %res: memref<256x64xf32>, %d: memref<256x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x64xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<256x64xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x64xf32>) outs(%c : memref<256x64xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias, %res : memref<256x64xf32>, memref<64xf32>, memref<256x64xf32>) outs(%d : memref<256x64xf32>) {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %r : f32
    %m = arith.maximumf %t, %cst : f32
    linalg.yield %m : f32
  }
  memref.dealloc %c : memref<256x64xf32>
  return
}

// -----

// Output rows 27 pixels wide, K's inner loop (5 taps x 8 channels) unrolled.
// AVX-512 tiles are 9 rows, which divide the width (12 would also divide
// M): each tile lies in one output row, its rows' addresses are one frozen
// address per operand (the first row's, divided into its indices) plus
// constants. AVX2 tiles of 6 rows can cross a row end, but their halves
// cannot (3 divides 27): two frozen addresses per operand. The inner K loop
// runs over A's offsets and carries B's beside the accumulators.
// CHECK-LABEL: func.func @rows_in_line
// CHECK: scf.for {{.*}} step %c6
// CHECK-COUNT-4: llvm.freeze
// CHECK-NOT: arith.divui
// CHECK: scf.for {{.*}} step %c4{{[_0-9]*}} iter_args({{.*}}) -> ({{(vector<8xf32>, ){12}index}})
// CHECK-NOT: llvm.freeze
// CHECK: return
// AVX512-LABEL: func.func @rows_in_line
// AVX512: scf.for {{.*}} step %c9
// AVX512-COUNT-2: llvm.freeze
// AVX512-NOT: arith.divui
// AVX512: scf.for {{.*}} step %c4{{[_0-9]*}} iter_args({{.*}}) -> ({{(vector<16xf32>, ){18}index}})
// AVX512-COUNT-72: vector.fma
func.func @rows_in_line(%x: memref<4x31x31x8xf32>, %w: memref<5x5x8x32xf32>, %y: memref<4x27x27x32xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%y : memref<4x27x27x32xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<4x31x31x8xf32>, memref<5x5x8x32xf32>) outs(%y : memref<4x27x27x32xf32>)
  return
}

// -----

// A filter gradient of an RGB input: its rows are (tap row, tap column,
// channel). The channels of a tap row's 5 columns are 15 consecutive
// pixels of the image, and 15 consecutive elements of the gradient: lines
// of 15 rows. AVX-512 tiles are 12 rows, four groups of 3 that each lie in
// a line, each addressed from its first row (one frozen address per group
// and operand; the first row clamped to the last group, 72, as M = 75 is
// not a multiple of 12). AVX2 tiles of 5 rows (15 of them make M) lie in a
// line: one frozen address per operand.
// CHECK-LABEL: func.func @filter_grad_rgb
// CHECK: scf.for {{.*}} step %c5
// CHECK-COUNT-2: llvm.freeze
// CHECK-NOT: arith.divui
// CHECK: scf.for {{.*}} step %c12{{[_0-9]*}} iter_args
// CHECK-NOT: llvm.freeze
// CHECK: return
// AVX512-LABEL: func.func @filter_grad_rgb
// AVX512: scf.for {{.*}} step %c12
// AVX512: arith.minsi {{.*}}, %c72
// AVX512-COUNT-8: llvm.freeze
// AVX512-NOT: arith.divui
// AVX512: scf.for {{.*}} step %c6{{[_0-9]*}} iter_args({{.*}}) -> ({{(vector<16xf32>, ){24}index}})
// AVX512-COUNT-48: vector.fma
#x = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h + kh, w + kw, ci)>
#dy = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h, w, co)>
#dw = affine_map<(kh, kw, ci, co, n, h, w) -> (kh, kw, ci, co)>
func.func @filter_grad_rgb(%x: memref<2x36x36x3xf32>, %dy: memref<2x32x32x32xf32>, %dw: memref<5x5x3x32xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%dw : memref<5x5x3x32xf32>)
  linalg.generic {indexing_maps = [#x, #dy, #dw], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %dy : memref<2x36x36x3xf32>, memref<2x32x32x32xf32>) outs(%dw : memref<5x5x3x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A filter gradient of 32 input channels, 9-pixel output rows. Its rows
// (tap row, tap column, channel) are 10 consecutive channels of a pixel
// (AVX-512; 5 with AVX2), its k steps (batch, row, column) a pixel apart.
// Each tile's rows are first copied k-major, one vector per k (masked to
// the rows), into a copy of the thread's: 162 k steps of 10 rows, a vector
// of padding. The kernel's K loops (2 x 9 x 9) are one over that copy and
// B's panels, unrolled by 4 (20 floats of the copy), the last 2 steps
// after it.
// CHECK-LABEL: func.func @filter_grad_panel
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<818xf32>
// CHECK: vector.maskedload
// CHECK: vector.store
// CHECK: scf.for {{.*}} = %c0{{[_0-9]*}} to %c800{{[_0-9]*}} step %c20{{[_0-9]*}} iter_args({{.*}}) -> ({{(vector<8xf32>, ){10}index}})
// CHECK-COUNT-40: vector.fma
// CHECK: }
// CHECK-COUNT-20: vector.fma
// CHECK-NOT: vector.fma
// CHECK: return
// AVX512-LABEL: func.func @filter_grad_panel
// AVX512: memref.alloca() {alignment = 64 : i64} : memref<1636xf32>
// AVX512: vector.maskedload
// AVX512: vector.store
// AVX512: scf.for {{.*}} = %c0{{[_0-9]*}} to %c1600{{[_0-9]*}} step %c40{{[_0-9]*}} iter_args({{.*}}) -> ({{(vector<16xf32>, ){20}index}})
// AVX512-COUNT-80: vector.fma
// AVX512: }
// AVX512-COUNT-40: vector.fma
// AVX512-NOT: vector.fma
// AVX512: return
#xp = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h + kh, w + kw, ci)>
#dyp = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h, w, co)>
#dwp = affine_map<(kh, kw, ci, co, n, h, w) -> (kh, kw, ci, co)>
func.func @filter_grad_panel(%x: memref<2x13x13x32xf32>, %dy: memref<2x9x9x64xf32>, %dw: memref<5x5x32x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%dw : memref<5x5x32x64xf32>)
  linalg.generic {indexing_maps = [#xp, #dyp, #dwp], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %dy : memref<2x13x13x32xf32>, memref<2x9x9x64xf32>) outs(%dw : memref<5x5x32x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A product whose rows are one line of A and C (M = 1000, A's rows along
// K): AVX-512 takes the tallest tiles of its 4-vector panels (N = 64), 6
// rows (1002, the last tile's 2 extra rows clamped to row 999 and not
// stored: its row 1 to row min(r, 998) + 1); 5 rows would divide M but load each k step of B's panel per 20
// FMAs, not 24. AVX2's tiles are 6 rows of 2 vectors too.
// CHECK-LABEL: func.func @tall_tiles
// CHECK: scf.for {{.*}} step %c6{{[_0-9]*}} {
// CHECK: arith.minsi %{{.*}}, %c998
// AVX512-LABEL: func.func @tall_tiles
// AVX512: scf.for {{.*}} step %c6{{[_0-9]*}} {
// AVX512: arith.minsi %{{.*}}, %c998
// AVX512: scf.for {{.*}} iter_args
// AVX512-COUNT-24: vector.fma
// AVX512: scf.if
// AVX512: vector.store
func.func @tall_tiles(%a: memref<1000x64xf32>, %b: memref<64x64xf32>, %c: memref<1000x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<1000x64xf32>)
  linalg.matmul ins(%a, %b : memref<1000x64xf32>, memref<64x64xf32>) outs(%c : memref<1000x64xf32>)
  return
}

// -----

// With AVX-512, B is packed into 64-wide panels and K runs in 4 blocks of
// 512 (the 6-row tile's rows of A in half of L1); A's rows, 8 KiB apart,
// are read in place (6 rows fit L1's ways). The micro-kernel's groups of
// k steps (2 of 24 FMAs each) also prefetch, into L2 (locality 2), the
// lines of its panel's next K block (the next one 32768 floats on, or back
// to the first after the last), and, for writing, the lines of the C tile
// it updates after its K loop. Both have fewer lines than the kernel has
// groups: only every second group computes an address of the next block,
// every eighth one of C's, behind a test of the group index's low bits.
// With AVX2, B's panels are 16 wide and K runs in 8 blocks of 256: A's
// rows, 8 KiB apart, share one set of L1, so the C block's rows are copied
// k-major once per K block and the tiles run panels outer; a panel's next
// K block comes after all of the block's other panels, and no tile
// prefetches it. Each still prefetches its C tile's lines.
// CHECK-LABEL: func.func @next_blocks
// CHECK: %[[C:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [262144]
// CHECK: %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<524288xf32>
// CHECK: scf.for {{.*}} to %c8{{[_0-9]*}} step %c1{{[_0-9]*}} {
// CHECK-NOT: locality<2>
// CHECK: scf.for {{.*}} to %c1536{{[_0-9]*}} step %c24{{[_0-9]*}} iter_args(
// CHECK-NOT: locality<2>
// CHECK: memref.prefetch %[[C]][%{{.*}}], write, locality<3>, data
// CHECK-NOT: locality<2>
// CHECK: vector.load %[[PACKED]]
// AVX512-LABEL: func.func @next_blocks
// AVX512: %[[C:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [262144]
// AVX512: %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<524288xf32>
// AVX512: scf.for {{.*}} to %c4{{[_0-9]*}} step %c1{{[_0-9]*}} {
// AVX512-NOT: memref.alloca
// AVX512: arith.select %{{.*}}, %c-98304{{[_0-9]*}}, %c32768{{[_0-9]*}} : index
// AVX512: scf.for {{.*}} to %c512{{[_0-9]*}} step %c2{{[_0-9]*}} iter_args(
// AVX512: %[[G:.*]] = arith.divui %{{.*}}, %c128{{[_0-9]*}} : index
// AVX512: %[[EVERY2:.*]] = arith.andi %[[G]], %c1{{[_0-9]*}} : index
// AVX512: scf.if
// AVX512: memref.prefetch %[[PACKED]][%{{.*}}], read, locality<2>, data
// AVX512-NOT: locality<2>
// AVX512: %[[EVERY8:.*]] = arith.andi %[[G]], %c7{{[_0-9]*}} : index
// AVX512: scf.if
// AVX512: memref.prefetch %[[C]][%{{.*}}], write, locality<3>, data
// AVX512: vector.load %[[PACKED]]
func.func @next_blocks(%a: memref<1024x2048xf32>, %b: memref<2048x256xf32>, %c: memref<1024x256xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<1024x256xf32>)
  linalg.matmul ins(%a, %b : memref<1024x2048xf32>, memref<2048x256xf32>) outs(%c : memref<1024x256xf32>)
  return
}

// -----

// An odd K (301) is unrolled like any other (by 4 with AVX2's 12 FMAs a
// step, by 2 with AVX-512's 24), the last step after the loop, so it does
// not change the tile height: AVX-512 takes its 6-row tiles of 4 vectors
// over M = 999 (the last tile's 3 rows past M clamped), not the 3 rows
// that divide M. AVX2 takes its tallest tiles too, 6 rows
// of 2 vectors: 3 rows would keep 6 accumulators, too few to cover the FMA
// latency (the product of 999 on two Zen 4 cores: 128 GFLOP/s, against 170).
// CHECK-LABEL: func.func @odd_k
// CHECK: scf.for {{.*}} step %c6{{[_0-9]*}} {
// AVX512-LABEL: func.func @odd_k
// AVX512: scf.for {{.*}} step %c6{{[_0-9]*}} {
// AVX512: scf.for {{.*}} step %c64{{[_0-9]*}} {
// AVX512: scf.for {{.*}} to %c300{{[_0-9]*}} step %c2{{[_0-9]*}} iter_args(
// AVX512-COUNT-24: vector.fma
func.func @odd_k(%a: memref<999x301xf32>, %b: memref<301x256xf32>, %c: memref<999x256xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<999x256xf32>)
  linalg.matmul ins(%a, %b : memref<999x301xf32>, memref<301x256xf32>) outs(%c : memref<999x256xf32>)
  return
}

// -----

// B transposed and packed (the input gradient of a dense layer over 600
// rows, dY * W^T: B's rows run along K): a vector's width of the panel's
// columns at a time (a loop, not unrolled), their K in square blocks of as
// many k's, a vector along k from each column, transposed by shuffles
// (log2(lanes) stages) into a vector of the panel row per k. The 4
// iterations past K's last whole block go an element at a time; the
// columns past N's 40 are zeros.
// CHECK-LABEL: func.func @packed_transposed
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<4800xf32>
// CHECK: scf.forall ({{.*}}) in (3)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c2{{[_0-9]*}} step %c1
// CHECK: scf.for %{{.*}} = %{{.*}} to %c96{{[_0-9]*}} step %c8
// CHECK-COUNT-8: vector.load {{.*}} : memref<4000xf32>, vector<8xf32>
// CHECK-COUNT-24: vector.shuffle {{.*}} : vector<8xf32>, vector<8xf32>
// CHECK-COUNT-8: vector.store {{.*}} : memref<4800xf32>, vector<8xf32>
// CHECK-NOT: vector.shuffle
// CHECK: scf.for %{{.*}} = %c96{{[_0-9]*}} to %c100{{[_0-9]*}} step %c1
// CHECK-COUNT-8: memref.store {{.*}} : memref<4800xf32>
// CHECK-NOT: memref.store {{.*}} : memref<4800xf32>
// CHECK: scf.forall
// AVX512-LABEL: func.func @packed_transposed
// AVX512: memref.alloc() {alignment = 64 : i64} : memref<4800xf32>
// AVX512: scf.for %{{.*}} = %{{.*}} to %c3{{[_0-9]*}} step %c1
// AVX512: scf.for %{{.*}} = %{{.*}} to %c96{{[_0-9]*}} step %c16
// AVX512-COUNT-16: vector.load {{.*}} : memref<4000xf32>, vector<16xf32>
// AVX512-COUNT-64: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// AVX512-COUNT-16: vector.store {{.*}} : memref<4800xf32>, vector<16xf32>
// AVX512-NOT: vector.shuffle
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @packed_transposed(%a: memref<600x100xf32>, %b: memref<40x100xf32>, %c: memref<600x40xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%c : memref<600x40xf32>)
  linalg.matmul indexing_maps = [#a, #bt, #c] ins(%a, %b : memref<600x100xf32>, memref<40x100xf32>) outs(%c : memref<600x40xf32>)
  return
}

// -----

// An epilogue of several operands (a convolution's result summed with two
// other gradients, as where branches meet): every access to a row of C
// (a pixel) takes the same (n, h, w), whose divisions are made once, where
// the row is defined, however many operands read it (the tile's rows past
// the last are clamped to it). The contraction's constants are made once,
// before its code. Each division by 7 is a multiplication by
// ceil(2^35 / 7) and a shift by 35, its remainder the row less the
// quotient times 7: constants that kernels dividing by other sizes take
// as arguments once merged.
// CHECK-LABEL: func.func @shared_row_indices
// CHECK-NOT: scf.forall
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[MAGIC:.*]] = arith.constant 4908534053 : index
// CHECK-DAG: %[[C35:.*]] = arith.constant 35 : index
// CHECK-NOT: arith.constant 7 : index
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.minsi
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[ROW]], %[[MAGIC]] : index
// CHECK-NEXT: %[[NH:.*]] = arith.shrui %[[P]], %[[C35]] : index
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[NH]], %[[C7]] : index
// CHECK-NEXT: arith.subi %[[ROW]], %[[T]] : index
// CHECK-NEXT: %[[P2:.*]] = arith.muli %[[NH]], %[[MAGIC]] : index
// CHECK-NEXT: %[[N:.*]] = arith.shrui %[[P2]], %[[C35]] : index
// CHECK-NEXT: %[[T2:.*]] = arith.muli %[[N]], %[[C7]] : index
// CHECK-NEXT: arith.subi %[[NH]], %[[T2]] : index
// CHECK-NOT: arith.muli %[[ROW]], %[[MAGIC]]
// CHECK-NOT: arith.muli %[[NH]], %[[MAGIC]]
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: arith.addf {{.*}} : vector<8xf32>
// CHECK: return
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
func.func @shared_row_indices(%x: memref<2x16x16x16xf32>, %w: memref<3x3x16x64xf32>, %g1: memref<2x7x7x64xf32>, %g2: memref<2x7x7x64xf32>, %d: memref<2x7x7x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<2x7x7x64xf32>
  linalg.fill ins(%cst : f32) outs(%y : memref<2x7x7x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x16x16x16xf32>, memref<3x3x16x64xf32>) outs(%y : memref<2x7x7x64xf32>)
  linalg.generic {indexing_maps = [#id4, #id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y, %g1, %g2 : memref<2x7x7x64xf32>, memref<2x7x7x64xf32>, memref<2x7x7x64xf32>) outs(%d : memref<2x7x7x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  }
  memref.dealloc %y : memref<2x7x7x64xf32>
  return
}

// -----

// A filter gradient whose C (3x3 taps of 64 channels by 64: 144 KiB) fits
// in L2 is one block that each K slice takes whole: every slice reads its
// share of the image and of the output gradient once, where each of C's
// blocks would read it again. Eight slices are work enough without
// dividing C again.
// CHECK-LABEL: func.func @filter_grad_whole_c
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<294912xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (8, 1, 1)
// AVX512-LABEL: func.func @filter_grad_whole_c
// AVX512: memref.alloc() {alignment = 64 : i64} : memref<294912xf32>
// AVX512: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (8, 1, 1)
#x = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h + kh, w + kw, ci)>
#dy = affine_map<(kh, kw, ci, co, n, h, w) -> (n, h, w, co)>
#dw = affine_map<(kh, kw, ci, co, n, h, w) -> (kh, kw, ci, co)>
func.func @filter_grad_whole_c(%x: memref<8x30x30x64xf32>, %dy: memref<8x28x28x64xf32>, %dw: memref<3x3x64x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%dw : memref<3x3x64x64xf32>)
  linalg.generic {indexing_maps = [#x, #dy, #dw], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %dy : memref<8x30x30x64xf32>, memref<8x28x28x64xf32>) outs(%dw : memref<3x3x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The output gradient of 1024 channels steps 4 KiB from one pixel to the
// next: in place, the rows of a micro-panel of B would all fall in one set
// of L1. So B is packed (a copy of its 6272 x 1024 elements, in 64 or 32
// panels) though C has only 64 rows, and the kernel reads the copy.
// CHECK-LABEL: func.func @filter_grad_wide
// CHECK: %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6422528xf32>
// CHECK: scf.forall (%{{.*}}) in (64)
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (16, 1, 1)
// CHECK: vector.load %[[B]]
// CHECK: vector.fma
// AVX512-LABEL: func.func @filter_grad_wide
// AVX512: %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6422528xf32>
// AVX512: scf.forall (%{{.*}}) in (32)
// AVX512: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (16, 1, 1)
// AVX512: vector.load %[[B]]
// AVX512: vector.fma
#x1 = affine_map<(ci, co, n, h, w) -> (n, h, w, ci)>
#dy1 = affine_map<(ci, co, n, h, w) -> (n, h, w, co)>
#dw1 = affine_map<(ci, co, n, h, w) -> (ci, co)>
func.func @filter_grad_wide(%x: memref<32x14x14x64xf32>, %dy: memref<32x14x14x1024xf32>, %dw: memref<64x1024xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%dw : memref<64x1024xf32>)
  linalg.generic {indexing_maps = [#x1, #dy1, #dw1], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %dy : memref<32x14x14x64xf32>, memref<32x14x14x1024xf32>) outs(%dw : memref<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A filter gradient over images of 17 x 17 (a prime): with AVX-512's
// wider tiles the budget of a micro-kernel is 178 steps, which neither 17
// rows nor any divisor of 17 fit, and one row alone would store the
// accumulators every 17 steps. The micro-kernel runs all 289 pixels of an
// image instead: 144 groups of 2 steps of its 14-row panel of A (28
// elements each), then the last step. AVX2's narrower tiles fit them in
// their budget anyway (6-row panels).
// CHECK-LABEL: func.func @filter_grad_prime_rows
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (10, 1, 1)
// CHECK: scf.for {{.*}} to %c1728{{[_0-9]*}} step %c24{{[_0-9]*}} iter_args
// AVX512-LABEL: func.func @filter_grad_prime_rows
// AVX512: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) in (10, 1, 1)
// AVX512: scf.for {{.*}} to %c4032{{[_0-9]*}} step %c28{{[_0-9]*}} iter_args
#x = affine_map<(kw, ci, co, n, h, w) -> (n, h, w + kw, ci)>
#dy = affine_map<(kw, ci, co, n, h, w) -> (n, h, w, co)>
#dw = affine_map<(kw, ci, co, n, h, w) -> (kw, ci, co)>
func.func @filter_grad_prime_rows(%x: memref<10x17x23x96xf32>, %dy: memref<10x17x17x64xf32>, %dw: memref<7x96x64xf32>) {
  %cst = arith.constant 0.0 : f32
  linalg.fill ins(%cst : f32) outs(%dw : memref<7x96x64xf32>)
  linalg.generic {indexing_maps = [#x, #dy, #dw], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %dy : memref<10x17x23x96xf32>, memref<10x17x17x64xf32>) outs(%dw : memref<7x96x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An epilogue that reads three operands besides C runs row by row: the
// accumulators are stored to a tile on the stack after the K loop, and one
// loop over the tile's rows (6 with AVX2, the last tile's cut at M = 256;
// 8 with AVX-512) reads them back with the operands' rows. Its prefetches
// run in a loop over the rows too, before the K loop.
// CHECK-LABEL: func.func @epilogue_by_rows
// CHECK: scf.forall
// CHECK: %[[TILE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<96xf32>
// CHECK: %[[ROWS:.*]] = arith.minsi {{.*}}, %c6 : index
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %[[ROWS]] step %c1 {
// CHECK-COUNT-3: memref.prefetch {{.*}}, read, locality<3>, data : memref<16384xf32>
// CHECK-NOT: scf.for
// CHECK: memref.prefetch {{.*}}, write, locality<3>, data : memref<16384xf32>
// CHECK-NEXT: }
// CHECK: scf.for {{.*}} iter_args
// CHECK: }
// CHECK-COUNT-12: vector.store {{.*}}, %[[TILE]][{{.*}}] : memref<96xf32>, vector<8xf32>
// CHECK: %[[ROWS2:.*]] = arith.minsi {{.*}}, %c6 : index
// CHECK-NEXT: scf.for %[[R:.*]] = %c0 to %[[ROWS2]] step %c1 {
// CHECK: %[[AT:.*]] = arith.muli %[[R]], %c16 : index
// CHECK-NEXT: %[[AT0:.*]] = arith.addi %[[AT]], %c0 : index
// CHECK-NEXT: vector.load %[[TILE]][%[[AT0]]] : memref<96xf32>, vector<8xf32>
// CHECK-COUNT-3: vector.load {{.*}} : memref<16384xf32>, vector<8xf32>
// CHECK: vector.store {{.*}} : memref<16384xf32>, vector<8xf32>
// CHECK: vector.load %[[TILE]]
// CHECK: vector.store {{.*}} : memref<16384xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK-NOT: vector.store
// CHECK: return
// AVX512-LABEL: func.func @epilogue_by_rows
// AVX512: memref.alloca() {alignment = 64 : i64} : memref<256xf32>
// AVX512: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// AVX512-COUNT-6: memref.prefetch {{.*}}, read, locality<3>, data : memref<16384xf32>
// AVX512: scf.for {{.*}} iter_args
// AVX512-COUNT-16: vector.store {{.*}} : memref<256xf32>, vector<16xf32>
// AVX512: scf.for %{{.*}} = %c0 to %c8 step %c1 {
// AVX512-COUNT-2: vector.store {{.*}} : memref<16384xf32>, vector<16xf32>
// AVX512-NEXT: }
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @epilogue_by_rows(%a: memref<256x64xf32>, %b: memref<64x64xf32>, %g1: memref<256x64xf32>, %g2: memref<256x64xf32>, %g3: memref<256x64xf32>, %d: memref<256x64xf32>) {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x64xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<256x64xf32>)
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x64xf32>) outs(%c : memref<256x64xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %g1, %g2, %g3 : memref<256x64xf32>, memref<256x64xf32>, memref<256x64xf32>, memref<256x64xf32>) outs(%d : memref<256x64xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %z : f32
    %u = arith.addf %t, %w : f32
    linalg.yield %u : f32
  }
  memref.dealloc %c : memref<256x64xf32>
  return
}
