// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-cpu-sequential-inner-parallel-loops))" | FileCheck %s

// The outer scf.parallel stays; the one nested in it becomes scf.for loops
// over the same bounds, with the body's induction variables in order.
// CHECK-LABEL: func.func @nested
// CHECK:       scf.parallel (%[[I:.*]]) = (%c0) to (%c4) step (%c1) {
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c8 step %c1 {
// CHECK-NEXT:      scf.for %[[J:.*]] = %c0 to %c16 step %c1 {
// CHECK-NEXT:        scf.for %[[L:.*]] = %c0 to %c2 step %c1 {
// CHECK-NEXT:          memref.load %{{.*}}[%[[I]], %[[K]]]
// CHECK-NEXT:          memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %[[L]]]
// CHECK-NOT:   scf.parallel
func.func @nested(%a: memref<4x8xf32>, %c: memref<4x16x2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      scf.parallel (%j, %l) = (%c0, %c0) to (%c16, %c2) step (%c1, %c1) {
        %v = memref.load %a[%i, %k] : memref<4x8xf32>
        memref.store %v, %c[%i, %j, %l] : memref<4x16x2xf32>
        scf.reduce
      }
    }
    scf.reduce
  }
  return
}
