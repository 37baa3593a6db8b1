// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-cpu-vectorize))" | FileCheck %s

// A function with no linalg op (a contraction kernel, already in vectors)
// is left as it is: the vector patterns run only after something was
// vectorised, and the canonicaliser that follows in the pipeline folds the
// rest. Here the address arithmetic stays unfolded and the transfer stays a
// transfer.
// CHECK-LABEL: func.func @vector_kernel
// CHECK: %[[SUM:.*]] = arith.addi %c8, %c8 : index
// CHECK: vector.transfer_read %{{.*}}[%[[SUM]]]
// CHECK: vector.store
func.func @vector_kernel(%a: memref<64xf32>, %b: memref<64xf32>) {
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %at = arith.addi %c8, %c8 : index
  %v = vector.transfer_read %a[%at], %pad {in_bounds = [true]} : memref<64xf32>, vector<8xf32>
  vector.store %v, %b[%at] : memref<64xf32>, vector<8xf32>
  return
}
