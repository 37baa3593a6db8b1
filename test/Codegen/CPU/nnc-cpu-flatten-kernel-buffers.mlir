// RUN: nnc-opt %s --nnc-cpu-flatten-kernel-buffers | FileCheck %s
// RUN: nnc-opt %s --nnc-cpu-flatten-kernel-buffers --nnc-cpu-merge-flat-kernels | FileCheck %s --check-prefix=MERGED

// A kernel's buffers of static layout, only read and written element by
// element, become flat: each access's indices one, each index times its
// stride plus the offset (even 1 and 0), in arithmetic that neither wraps
// nor goes negative. Each call views the buffer it passes as the flat type
// (the same base).
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[IMAGE:.*]]: memref<2x3x8xf32>, %[[BIG:.*]]: memref<2x5x16xf32>, %[[SUM:.*]]: memref<f32>, %[[ROWS:.*]]: memref<4x8xf32>)
// CHECK: %[[FLAT_IMAGE:.*]] = memref.reinterpret_cast %[[IMAGE]] to offset: [0], sizes: [48], strides: [1] : memref<2x3x8xf32> to memref<48xf32>
// CHECK: %[[FLAT_SUM:.*]] = memref.reinterpret_cast %[[SUM]] to offset: [0], sizes: [1], strides: [1] : memref<f32> to memref<1xf32>
// CHECK: call @nnc_kernel_0(%[[FLAT_IMAGE]], %[[FLAT_SUM]]) : (memref<48xf32>, memref<1xf32>) -> ()
// A view with an offset: its elements span 24 + 1 * 80 + 2 * 16 + 7 + 1.
// CHECK: %[[SLICE:.*]] = memref.subview %[[BIG]][0, 1, 8] [2, 3, 8] [1, 1, 1]
// CHECK: %[[FLAT_SLICE:.*]] = memref.reinterpret_cast %[[SLICE]] to offset: [0], sizes: [144], strides: [1] : memref<2x3x8xf32, strided<[80, 16, 1], offset: 24>> to memref<144xf32>
// CHECK: call @nnc_kernel_1(%[[FLAT_SLICE]], %{{.*}}) : (memref<144xf32>, memref<1xf32>) -> ()
// Left as they are: a buffer used whole, a vector across rows, a kernel
// that takes descriptors.
// CHECK: call @nnc_kernel_2(%[[ROWS]]) : (memref<4x8xf32>) -> ()
// CHECK: call @nnc_kernel_3(%[[ROWS]]) : (memref<4x8xf32>) -> ()
// CHECK: call @nnc_kernel_4(%[[ROWS]]) : (memref<4x8xf32>) -> ()

// CHECK-LABEL: func.func private @nnc_kernel_0
// CHECK-SAME: (%[[X:.*]]: memref<48xf32>, %[[S:.*]]: memref<1xf32>)
// CHECK: scf.parallel (%[[N:.*]], %[[H:.*]]) =
// CHECK: %[[STRIDE_N:.*]] = arith.constant 24 : index
// CHECK-NEXT: %[[AT_N:.*]] = arith.muli %[[N]], %[[STRIDE_N]] overflow<nsw, nuw> : index
// CHECK-NEXT: %[[STRIDE_H:.*]] = arith.constant 8 : index
// CHECK-NEXT: %[[AT_H:.*]] = arith.muli %[[H]], %[[STRIDE_H]] overflow<nsw, nuw> : index
// CHECK-NEXT: %[[AT_NH:.*]] = arith.addi %[[AT_N]], %[[AT_H]] overflow<nsw, nuw> : index
// CHECK-NEXT: %[[NO_OFFSET:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[AT_NH]], %[[NO_OFFSET]] overflow<nsw, nuw> : index
// CHECK-NEXT: vector.load %[[X]][%[[AT]]] : memref<48xf32>, vector<8xf32>
// CHECK: %[[FIRST:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.load %[[S]][%[[FIRST]]] : memref<1xf32>
// CHECK: memref.store %{{.*}}, %[[S]][%{{.*}}] : memref<1xf32>

// CHECK-LABEL: func.func private @nnc_kernel_1
// CHECK-SAME: (%[[X:.*]]: memref<144xf32>, %{{.*}}: memref<1xf32>)
// CHECK: arith.constant 80 : index
// CHECK: arith.constant 16 : index
// CHECK: %[[OFFSET:.*]] = arith.constant 24 : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %[[OFFSET]] overflow<nsw, nuw> : index
// CHECK-NEXT: vector.load %[[X]][%[[AT]]] : memref<144xf32>, vector<8xf32>

// CHECK-LABEL: func.func private @nnc_kernel_2
// CHECK-SAME: memref<4x8xf32>
// CHECK: linalg.fill
// CHECK-LABEL: func.func private @nnc_kernel_3
// CHECK-SAME: memref<4x8xf32>
// CHECK-LABEL: func.func private @nnc_kernel_4
// CHECK-SAME: memref<4x8xf32>

// The two sums then differ in constants alone, and are one kernel.
// MERGED-LABEL: func.func @entry
// MERGED: call @nnc_kernel_0(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<48xf32>, memref<1xf32>, index, index, index) -> ()
// MERGED: call @nnc_kernel_0(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<48xf32>, memref<1xf32>, index, index, index) -> ()
// MERGED-NOT: func.func private @nnc_kernel_1(

func.func @entry(%image: memref<2x3x8xf32>, %big: memref<2x5x16xf32>, %sum: memref<f32>, %rows: memref<4x8xf32>) {
  call @nnc_kernel_0(%image, %sum) : (memref<2x3x8xf32>, memref<f32>) -> ()
  %slice = memref.subview %big[0, 1, 8] [2, 3, 8] [1, 1, 1] : memref<2x5x16xf32> to memref<2x3x8xf32, strided<[80, 16, 1], offset: 24>>
  call @nnc_kernel_1(%slice, %sum) : (memref<2x3x8xf32, strided<[80, 16, 1], offset: 24>>, memref<f32>) -> ()
  call @nnc_kernel_2(%rows) : (memref<4x8xf32>) -> ()
  call @nnc_kernel_3(%rows) : (memref<4x8xf32>) -> ()
  call @nnc_kernel_4(%rows) : (memref<4x8xf32>) -> ()
  return
}

// Adds every row of 8 of an image into %s, one vector at a time.
func.func private @nnc_kernel_0(%x: memref<2x3x8xf32>, %s: memref<f32>) attributes {llvm.bareptr, passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%n, %h) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
    %v = vector.load %x[%n, %h, %c0] : memref<2x3x8xf32>, vector<8xf32>
    %r = vector.reduction <add>, %v : vector<8xf32> into f32
    %old = memref.load %s[] : memref<f32>
    %new = arith.addf %old, %r : f32
    memref.store %new, %s[] : memref<f32>
    scf.reduce
  }
  return
}

// The same on a view of a larger image.
func.func private @nnc_kernel_1(%x: memref<2x3x8xf32, strided<[80, 16, 1], offset: 24>>, %s: memref<f32>) attributes {llvm.bareptr, passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%n, %h) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
    %v = vector.load %x[%n, %h, %c0] : memref<2x3x8xf32, strided<[80, 16, 1], offset: 24>>, vector<8xf32>
    %r = vector.reduction <add>, %v : vector<8xf32> into f32
    %old = memref.load %s[] : memref<f32>
    %new = arith.addf %old, %r : f32
    memref.store %new, %s[] : memref<f32>
    scf.reduce
  }
  return
}

func.func private @nnc_kernel_2(%x: memref<4x8xf32>) attributes {llvm.bareptr, passthrough = ["noinline"]} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<4x8xf32>)
  return
}

// Two rows at a time: not consecutive elements once flat.
func.func private @nnc_kernel_3(%x: memref<4x8xf32>) attributes {llvm.bareptr, passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : vector<2x8xf32>
  vector.store %zero, %x[%c0, %c0] : memref<4x8xf32>, vector<2x8xf32>
  return
}

func.func private @nnc_kernel_4(%x: memref<4x8xf32>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %x[%c0, %c0] : memref<4x8xf32>
  return
}
