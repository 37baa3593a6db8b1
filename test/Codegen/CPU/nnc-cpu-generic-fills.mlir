// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-cpu-generic-fills))' | FileCheck %s
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-cpu-generic-fills),nnc-cpu-outline-kernels)' | FileCheck %s --check-prefix=MERGED

// A top-level fill of an entry point stores through a view of its buffer
// with the contiguous dimensions merged and dynamic sizes and strides (a
// unit innermost stride stays static): threads over chunks of 8192
// elements when one dimension is left, over rows otherwise.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<4x8xf32>, %[[B:[a-z0-9]+]]: memref<2x3x4xf32, strided<[40, 4, 1], offset: 8>>, %[[C:[a-z0-9]+]]: memref<5xf32, strided<[2]>>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[A]] {{\[}}[0, 1]] : memref<4x8xf32> into memref<32xf32>
// CHECK: %[[VIEW:.*]] = memref.cast %[[FLAT]] : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK: %[[N:.*]] = memref.dim %[[VIEW]], %{{.*}}
// CHECK: %[[CHUNK:.*]] = arith.constant 8192 : index
// CHECK: %[[CHUNKS:.*]] = arith.ceildivui %[[N]], %[[CHUNK]]
// CHECK: scf.forall (%[[I:.*]]) in (%[[CHUNKS]]) {
// CHECK: %[[LO:.*]] = arith.muli %[[I]], %{{.*}}
// CHECK: %[[END:.*]] = arith.addi %[[LO]], %{{.*}}
// CHECK: %[[HI:.*]] = arith.minui %[[END]], %[[N]]
// CHECK: scf.for %[[J:.*]] = %[[LO]] to %[[HI]]
// CHECK-NEXT: memref.store %[[ZERO]], %[[VIEW]][%[[J]]]
// The last two dimensions of B walk one range: rows of 12 elements.
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %[[B]] {{\[}}[0], [1, 2]] : memref<2x3x4xf32, strided<[40, 4, 1], offset: 8>> into memref<2x12xf32, strided<[40, 1], offset: 8>>
// CHECK: %[[VIEW2:.*]] = memref.cast %[[ROWS]] : {{.*}} to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK: scf.forall (%[[R:.*]]) in (%{{.*}}) {
// CHECK: scf.for %[[K:.*]] =
// CHECK-NEXT: memref.store %[[ZERO]], %[[VIEW2]][%[[R]], %[[K]]]
// A strided innermost dimension stays dynamic.
// CHECK: memref.cast %[[C]] : memref<5xf32, strided<[2]>> to memref<?xf32, strided<[?], offset: ?>>
// A fill inside a loop keeps its shape.
// CHECK: scf.for %{{.*}} = %c0 to %c2
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4x8xf32>)
// A private function's (the training pass the entry points call) does not.
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT: linalg.fill
// CHECK: memref.collapse_shape
// CHECK-NOT: linalg.fill
// CHECK: return

// Fills of any shape of the same rank and value are one kernel.
// MERGED-LABEL: func.func @two_shapes(
// MERGED: call @[[FILL:nnc_kernel_[0-9]+]](
// MERGED: call @[[FILL]](
// MERGED: func.func private @[[FILL]](
// MERGED-SAME: memref<?xf32, strided<[1], offset: ?>>
func.func @entry(%a: memref<4x8xf32>,
                 %b: memref<2x3x4xf32, strided<[40, 4, 1], offset: 8>>,
                 %c: memref<5xf32, strided<[2]>>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  linalg.fill ins(%zero : f32) outs(%a : memref<4x8xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<2x3x4xf32, strided<[40, 4, 1], offset: 8>>)
  linalg.fill ins(%zero : f32) outs(%c : memref<5xf32, strided<[2]>>)
  scf.for %i = %c0 to %c2 step %c1 {
    linalg.fill ins(%zero : f32) outs(%a : memref<4x8xf32>)
  }
  return
}

func.func private @helper(%a: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<4x8xf32>)
  return
}

func.func @two_shapes(%a: memref<4x8xf32>, %b: memref<100xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<4x8xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<100xf32>)
  return
}
