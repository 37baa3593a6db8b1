// RUN: nnc-opt %s --split-input-file --nnc-deallocate-buffers | FileCheck %s

// Straight-line functions returning no buffer: every heap buffer is freed
// at the return, in the order of the allocations, views and calls
// included; stack buffers and arguments are not. A function without
// allocations stays as it was.
// CHECK-LABEL: func.func private @callee
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK-LABEL: func.func @step
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: %[[S:.*]] = memref.alloca() : memref<4xf32>
// CHECK: %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
// CHECK: call @callee(%[[A]], %{{.*}})
// CHECK: memref.copy
// CHECK-NEXT: memref.dealloc %[[A]] : memref<8xf32>
// CHECK-NEXT: memref.dealloc %[[B]] : memref<2x4xf32>
// CHECK-NEXT: return
func.func private @callee(%x: memref<8xf32>, %y: memref<4xf32>) {
  linalg.copy ins(%x : memref<8xf32>) outs(%x : memref<8xf32>)
  return
}
func.func @step(%in: memref<8xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %s = memref.alloca() : memref<4xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<2x4xf32>
  memref.copy %in, %a : memref<8xf32> to memref<8xf32>
  %row = memref.subview %b[0, 0] [1, 4] [1, 1]
      : memref<2x4xf32> to memref<4xf32, strided<[1]>>
  call @callee(%a, %s) : (memref<8xf32>, memref<4xf32>) -> ()
  memref.copy %row, %out : memref<4xf32, strided<[1]>> to memref<4xf32>
  return
}

// -----

// A buffer allocated in a loop's body is not freed at the return: the
// module goes through upstream's ownership-based deallocation, which frees
// it in the body.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: memref.dealloc %[[A]] : memref<8xf32>
// CHECK: }
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @loop(%in: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.alloc() : memref<8xf32>
    memref.copy %in, %a : memref<8xf32> to memref<8xf32>
  }
  return
}

// -----

// A function that returns a buffer hands its ownership to the caller:
// upstream's pipeline decides, and the caller frees it.
// CHECK-LABEL: func.func private @make
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK-LABEL: func.func @use
// CHECK: %[[R:.*]] = call @make()
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[R]]
// CHECK: memref.dealloc %[[BASE]]
func.func private @make() -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  return %a : memref<8xf32>
}
func.func @use(%out: memref<8xf32>) {
  %r = call @make() : () -> memref<8xf32>
  memref.copy %r, %out : memref<8xf32> to memref<8xf32>
  return
}
