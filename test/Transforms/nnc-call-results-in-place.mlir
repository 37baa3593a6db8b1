// RUN: nnc-opt %s --split-input-file --nnc-call-results-in-place | FileCheck %s

// What a call computes and its caller returns is computed into the caller's
// out-param: no buffer, no copy. A buffer the caller keeps for itself is
// aligned to a cache line.
// CHECK-LABEL: func.func @returns(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32> {bufferize.result})
// CHECK-NEXT: %[[KEPT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<f32>
// CHECK-NEXT: call @callee(%[[X]], %[[OUT]], %[[KEPT]])
// CHECK-NEXT: return
func.func private @callee(memref<4xf32>, memref<4xf32>, memref<f32>)
func.func @returns(%x: memref<4xf32>, %out: memref<4xf32> {bufferize.result}) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<f32>
  call @callee(%x, %a, %b) : (memref<4xf32>, memref<4xf32>, memref<f32>) -> ()
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The copy stays when the buffer is read after it, when the out-param is
// used elsewhere, when the target is not an out-param, or when two calls
// write the buffer.
// CHECK-LABEL: func.func @stays(
// CHECK-COUNT-4: memref.copy
func.func private @callee(memref<4xf32>)
func.func private @reader(memref<4xf32>)
func.func @stays(%in: memref<4xf32>,
                 %o1: memref<4xf32> {bufferize.result},
                 %o2: memref<4xf32> {bufferize.result},
                 %o3: memref<4xf32> {bufferize.result}) {
  %a = memref.alloc() : memref<4xf32>
  call @callee(%a) : (memref<4xf32>) -> ()
  memref.copy %a, %o1 : memref<4xf32> to memref<4xf32>
  call @reader(%a) : (memref<4xf32>) -> ()
  %b = memref.alloc() : memref<4xf32>
  call @callee(%b) : (memref<4xf32>) -> ()
  memref.copy %b, %o2 : memref<4xf32> to memref<4xf32>
  call @reader(%o2) : (memref<4xf32>) -> ()
  %c = memref.alloc() : memref<4xf32>
  call @callee(%c) : (memref<4xf32>) -> ()
  memref.copy %c, %in : memref<4xf32> to memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  call @callee(%d) : (memref<4xf32>) -> ()
  call @callee(%d) : (memref<4xf32>) -> ()
  memref.copy %d, %o3 : memref<4xf32> to memref<4xf32>
  return
}
