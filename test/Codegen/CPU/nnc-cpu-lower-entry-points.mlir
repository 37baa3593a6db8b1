// RUN: nnc-opt %s --split-input-file --nnc-cpu-lower-entry-points | FileCheck %s

// A buffer is its two pointers: the views pass the allocation's, a callee
// taking bare pointers gets the aligned one, a callee taking descriptors
// gets the fields of the view's static layout, and the deallocation frees
// the allocated one. An aligned buffer comes aligned from the runtime's
// aligned allocation, its two pointers one. The declarations become
// llvm.funcs as convert-func-to-llvm makes them, and the attributes stay.
// CHECK-LABEL: module
// CHECK-NOT: func.func
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
// CHECK-DAG: llvm.func @bare(!llvm.ptr, !llvm.ptr, i64) attributes {llvm.bareptr, sym_visibility = "private"}
// CHECK-DAG: llvm.func @described(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, f32) attributes {sym_visibility = "private"}
// CHECK: llvm.func @step(%[[IN:.*]]: !llvm.ptr) attributes {llvm.bareptr, nnc.test, passthrough = ["noinline", "optnone"]} {
// CHECK-DAG: %[[C7:.*]] = llvm.mlir.constant(7 : i64) : i64
// CHECK-DAG: %[[HALF:.*]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK-DAG: %[[ALIGNMENT:.*]] = llvm.mlir.constant(64 : i64) : i64
// CHECK-DAG: %[[SIZE:.*]] = llvm.mlir.constant(1600 : i64) : i64
// CHECK: %[[ALIGNED:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[ALIGNMENT]], %[[SIZE]])
// CHECK-NEXT: llvm.call @bare(%[[IN]], %[[ALIGNED]], %[[C7]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-DAG: %[[OFF:.*]] = llvm.mlir.constant(42 : i64) : i64
// CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[C5:.*]] = llvm.mlir.constant(5 : i64) : i64
// CHECK-DAG: %[[C20:.*]] = llvm.mlir.constant(20 : i64) : i64
// CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.call @described(%[[ALIGNED]], %[[ALIGNED]], %[[OFF]], %[[C3]], %[[C5]], %[[C20]], %[[C1]], %[[HALF]])
// CHECK: %[[PLAIN_SIZE:.*]] = llvm.mlir.constant(80 : i64) : i64
// CHECK-NEXT: %[[PLAIN:.*]] = llvm.call @_mlir_memref_to_llvm_alloc(%[[PLAIN_SIZE]])
// CHECK-NEXT: llvm.call @bare(%[[PLAIN]], %[[ALIGNED]], %[[C7]])
// CHECK: llvm.call @_mlir_memref_to_llvm_free(%[[ALIGNED]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @_mlir_memref_to_llvm_free(%[[PLAIN]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
func.func private @bare(memref<4x5xf32>, memref<4x5xf32, strided<[20, 1], offset: 21>>, index) attributes {llvm.bareptr}
func.func private @described(memref<?x?xf32, strided<[?, 1], offset: ?>>, f32)
func.func @step(%in: memref<4x5xf32>) attributes {llvm.bareptr, nnc.test, passthrough = ["noinline", "optnone"]} {
  %c7 = arith.constant 7 : index
  %half = arith.constant 0.5 : f32
  %buf = memref.alloc() {alignment = 64 : i64} : memref<20x20xf32>
  %view = memref.subview %buf[1, 1] [4, 5] [1, 1] : memref<20x20xf32> to memref<4x5xf32, strided<[20, 1], offset: 21>>
  %back = memref.reinterpret_cast %buf to offset: [21], sizes: [4, 5], strides: [20, 1] : memref<20x20xf32> to memref<4x5xf32, strided<[20, 1], offset: 21>>
  call @bare(%in, %back, %c7) : (memref<4x5xf32>, memref<4x5xf32, strided<[20, 1], offset: 21>>, index) -> ()
  %rows = memref.subview %buf[2, 2] [3, 5] [1, 1] : memref<20x20xf32> to memref<3x5xf32, strided<[20, 1], offset: 42>>
  %any = memref.cast %rows : memref<3x5xf32, strided<[20, 1], offset: 42>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  call @described(%any, %half) : (memref<?x?xf32, strided<[?, 1], offset: ?>>, f32) -> ()
  %plain = memref.alloc() : memref<20xf32>
  %plain2d = memref.reinterpret_cast %plain to offset: [0], sizes: [4, 5], strides: [5, 1] : memref<20xf32> to memref<4x5xf32>
  call @bare(%plain2d, %back, %c7) : (memref<4x5xf32>, memref<4x5xf32, strided<[20, 1], offset: 21>>, index) -> ()
  memref.dealloc %buf : memref<20x20xf32>
  memref.dealloc %plain : memref<20xf32>
  return
}

// -----

// A reshape keeps the pointers; an entry point calling another passes its
// own argument on.
// CHECK-LABEL: module
// CHECK: llvm.func @inner(%{{.*}}: !llvm.ptr) attributes {llvm.bareptr}
// CHECK: llvm.func @outer(%[[ARG:.*]]: !llvm.ptr) attributes {llvm.bareptr}
// CHECK-NEXT: llvm.call @inner(%[[ARG]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @flat(%[[ARG]]) : (!llvm.ptr) -> ()
func.func @inner(%x: memref<2x3xf32>) attributes {llvm.bareptr} {
  return
}
func.func @outer(%x: memref<2x3xf32>) attributes {llvm.bareptr} {
  call @inner(%x) : (memref<2x3xf32>) -> ()
  %flat = memref.collapse_shape %x [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  call @flat(%flat) : (memref<6xf32>) -> ()
  return
}
func.func private @flat(memref<6xf32>) attributes {llvm.bareptr}

// -----

// Anything else in a function of the part (a store, a loop, a call with
// a result, descriptors as arguments) leaves the whole part as it is.
// CHECK-LABEL: module
// CHECK: func.func @stores
// CHECK: func.func @caller
func.func @stores(%x: memref<f32>) attributes {llvm.bareptr} {
  %one = arith.constant 1.0 : f32
  memref.store %one, %x[] : memref<f32>
  return
}
func.func @caller(%x: memref<f32>) attributes {llvm.bareptr} {
  call @stores(%x) : (memref<f32>) -> ()
  return
}

// -----

// CHECK-LABEL: module
// CHECK: func.func @not_bare
func.func private @k(memref<4xf32>) attributes {llvm.bareptr}
func.func @not_bare(%x: memref<4xf32>) {
  call @k(%x) : (memref<4xf32>) -> ()
  return
}

// -----

// Index computations on static layouts are their values: a dimension
// through a cast to dynamic sizes (a fill's, nnc-cpu-generic-fills), a
// layout's fields, arithmetic on them. The base buffer of a layout's
// fields is the buffer's pointers; what nothing uses is left out.
// CHECK-LABEL: module
// CHECK-NOT: func.func
// CHECK: llvm.func @sizes(%[[X:.*]]: !llvm.ptr)
// CHECK-DAG: %[[CHUNKS:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK-DAG: %[[ROWS:.*]] = llvm.mlir.constant(6 : i64) : i64
// CHECK: llvm.call @fill(%[[CHUNKS]], %[[X]], %[[X]], %{{.*}}, %{{.*}}, %{{.*}}, %[[ROWS]])
// CHECK-NEXT: llvm.call @flat(%[[X]])
// CHECK-NEXT: llvm.return
func.func private @fill(index, memref<?xf32, strided<[1], offset: ?>>, index) attributes {}
func.func private @flat(memref<20xf32>) attributes {llvm.bareptr}
func.func @sizes(%x: memref<4x5xf32>) attributes {llvm.bareptr} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %unused = arith.constant dense<1.0> : vector<8xf32>
  %all = memref.collapse_shape %x [[0, 1]] : memref<4x5xf32> into memref<20xf32>
  %any = memref.cast %all : memref<20xf32> to memref<?xf32, strided<[1], offset: ?>>
  %n = memref.dim %any, %c0 : memref<?xf32, strided<[1], offset: ?>>
  %chunks = arith.ceildivui %n, %c8 : index
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %x : memref<4x5xf32> -> memref<f32>, index, index, index, index, index
  %rows = arith.muli %sizes#0, %c2 : index
  %rows2 = arith.subi %rows, %c2 : index
  call @fill(%chunks, %any, %rows2) : (index, memref<?xf32, strided<[1], offset: ?>>, index) -> ()
  %view = memref.reinterpret_cast %base to offset: [0], sizes: [20], strides: [1] : memref<f32> to memref<20xf32>
  call @flat(%view) : (memref<20xf32>) -> ()
  return
}
