// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-cpu-fold-views))' | FileCheck %s
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-cpu-fold-views{expand-metadata=true}))' | FileCheck %s --check-prefix=EXPAND

// The same rewrites as upstream's passes, op for op:
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-cpu-fold-views))' > %t.ours
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(fold-memref-alias-ops))' > %t.upstream
// RUN: diff %t.ours %t.upstream
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-cpu-fold-views{expand-metadata=true}))' > %t.ours-expanded
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(fold-memref-alias-ops,expand-strided-metadata))' > %t.upstream-expanded
// RUN: diff %t.ours-expanded %t.upstream-expanded

// Upstream's passes need the affine dialect loaded before they run (this
// pass loads it itself): an affine op loads it for the comparison.
func.func @loaded(%i: index) -> index {
  %j = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  return %j : index
}

// A load and a vector store through subviews index the buffer itself; the
// loop's blocks are left as they are.
// CHECK-LABEL: func.func @rows(
// CHECK-NOT: memref.subview
// CHECK: scf.for
// CHECK: memref.load %arg0[
// CHECK: vector.store %{{.*}}, %arg1[
// EXPAND-LABEL: func.func @rows(
// EXPAND-NOT: memref.subview
// EXPAND-NOT: memref.extract_strided_metadata
func.func @rows(%a: memref<64x64xf32>, %c: memref<64x64xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %row = memref.subview %a[%i, 0] [1, 64] [1, 1]
      : memref<64x64xf32> to memref<64xf32, strided<[1], offset: ?>>
  %out = memref.subview %c[%i, 0] [1, 64] [1, 1]
      : memref<64x64xf32> to memref<64xf32, strided<[1], offset: ?>>
  scf.for %j = %c0 to %c8 step %c1 {
    %x = memref.load %row[%j] : memref<64xf32, strided<[1], offset: ?>>
    %v = vector.broadcast %x : f32 to vector<8xf32>
    vector.store %v, %out[%j] : memref<64xf32, strided<[1], offset: ?>>, vector<8xf32>
  }
  return
}

// A view passed on whole: folding leaves it; expanding makes its offset,
// sizes and strides explicit.
// CHECK-LABEL: func.func @passed(
// CHECK: memref.subview
// EXPAND-LABEL: func.func @passed(
// EXPAND: memref.extract_strided_metadata %arg0
// EXPAND: memref.reinterpret_cast
func.func private @use(memref<32xf32, strided<[2], offset: ?>>)
func.func @passed(%a: memref<64xf32>, %i: index) {
  %v = memref.subview %a[%i] [32] [2]
      : memref<64xf32> to memref<32xf32, strided<[2], offset: ?>>
  call @use(%v) : (memref<32xf32, strided<[2], offset: ?>>) -> ()
  return
}
