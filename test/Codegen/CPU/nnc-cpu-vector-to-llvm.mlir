// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-cpu-vector-to-llvm))" | FileCheck %s --check-prefixes=CHECK,DIRECT
// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(convert-vector-to-llvm))" | FileCheck %s --check-prefixes=CHECK,UPSTREAM

// One-dimensional loads, a broadcast of a scalar, an FMA and stores: they
// convert as upstream's pass converts them, and the two identical blocks
// that store the result are one, as upstream's rewrite leaves them. That
// rewrite is not run: the addition of zero is left for the conversion of
// arith (upstream's rewrite folds it).
// CHECK-LABEL: func.func @direct
// DIRECT: arith.addi
// UPSTREAM-NOT: arith.addi
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<8xf32>
// CHECK: llvm.insertelement
// CHECK: llvm.shufflevector %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xf32>
// CHECK: llvm.intr.fmuladd
// CHECK: cf.cond_br %{{.*}}, ^bb1, ^bb1
// CHECK: llvm.store
// CHECK-NOT: llvm.store
// CHECK-NOT: vector.
func.func @direct(%a: memref<64xf32>, %b: memref<64xf32>, %s: f32, %i: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %j = arith.addi %i, %c0 : index
  %x = vector.load %a[%j] : memref<64xf32>, vector<8xf32>
  %y = vector.load %b[%j] : memref<64xf32>, vector<8xf32>
  %s8 = vector.broadcast %s : f32 to vector<8xf32>
  %r = vector.fma %s8, %x, %y : vector<8xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  vector.store %r, %b[%j] : memref<64xf32>, vector<8xf32>
  return
^bb2:
  vector.store %r, %b[%j] : memref<64xf32>, vector<8xf32>
  return
}

// -----

// A mask of constants has no direct conversion: the function goes through
// upstream's pass, which makes it a constant.
// CHECK-LABEL: func.func @constant_mask
// CHECK: arith.constant dense<[true, true, true, false, false, false, false, false]> : vector<8xi1>
// CHECK: llvm.intr.masked.load
// CHECK-NOT: vector.
func.func @constant_mask(%a: memref<64xf32>, %i: index, %p: vector<8xf32>) -> vector<8xf32> {
  %m = vector.constant_mask [3] : vector<8xi1>
  %x = vector.maskedload %a[%i], %m, %p : memref<64xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  return %x : vector<8xf32>
}

// -----

// A two-dimensional FMA is first unrolled into rows by upstream's pass.
// CHECK-LABEL: func.func @two_dims
// CHECK-COUNT-2: llvm.intr.fmuladd
// CHECK-NOT: vector.fma
func.func @two_dims(%x: vector<2x8xf32>, %y: vector<2x8xf32>, %z: vector<2x8xf32>) -> vector<2x8xf32> {
  %r = vector.fma %x, %y, %z : vector<2x8xf32>
  return %r : vector<2x8xf32>
}
