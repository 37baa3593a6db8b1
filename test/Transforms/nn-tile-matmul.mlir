// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nn-tile-matmul))" | FileCheck %s

// C in parallel blocks, 4 x 32 register tiles, one outer product per k
// step: four FMAs of 32-wide rows of B, the C tile carried in registers
// across the k loop and written once.
// CHECK-LABEL: func.func @tiled
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (64, 64) step (64, 64)
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step %c4
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step %c32
// CHECK: %[[C:.*]] = vector.transfer_read {{.*}} : memref<4x32xf32, {{.*}}>, vector<4x32xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[C]]) -> (vector<4x32xf32>)
// CHECK-COUNT-4: vector.fma {{.*}} : vector<32xf32>
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[ACC]]
func.func @tiled(%a: memref<64x48xf32>, %b: memref<48x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x48xf32>, memref<48x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// N not a multiple of 16: the plain loops stay.
// CHECK-LABEL: func.func @narrow
// CHECK: linalg.matmul
// CHECK-NOT: vector.fma
func.func @narrow(%a: memref<32x48xf32>, %b: memref<48x3000xf32>, %c: memref<32x3000xf32>) {
  linalg.matmul ins(%a, %b : memref<32x48xf32>, memref<48x3000xf32>) outs(%c : memref<32x3000xf32>)
  return
}
