// RUN: nnc-opt %s --nnc-cpu-merge-flat-kernels | FileCheck %s

// Kernels on flat buffers that differ only in index constants
// (loop bounds, steps, element offsets) and in their buffers' sizes become
// the first of them, which takes each distinct column of differing values
// as a trailing index argument; a value they share stays a constant. Each
// call passes its own values and views its buffers as the first's types.
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[SMALL:.*]]: memref<512xf32>, %[[LARGE:.*]]: memref<4608xf32>, %[[ROW:.*]]: memref<64xf32>, %[[COL:.*]]: memref<192xf32>)
// CHECK: %[[N0:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[S0:.*]] = arith.constant 8 : index
// CHECK-NEXT: call @nnc_kernel_0(%[[SMALL]], %[[N0]], %[[S0]]) : (memref<512xf32>, index, index) -> ()
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[LARGE]] to offset: [0], sizes: [512], strides: [1] : memref<4608xf32> to memref<512xf32>
// CHECK-NEXT: %[[N1:.*]] = arith.constant 192 : index
// CHECK-NEXT: %[[S1:.*]] = arith.constant 20 : index
// CHECK-NEXT: call @nnc_kernel_0(%[[VIEW]], %[[N1]], %[[S1]])
// A divisor keeps its value: kernels that differ in one stay apart.
// CHECK-NEXT: call @nnc_kernel_2(%[[ROW]]) : (memref<64xf32>) -> ()
// CHECK-NEXT: call @nnc_kernel_3(%[[ROW]]) : (memref<64xf32>) -> ()
// Other kernels on flat buffers merge the same way (nnc-cpu-flatten-kernel-
// buffers makes them so), a parallel loop's bounds arguments too.
// CHECK-NEXT: %[[P0:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[Q0:.*]] = arith.constant 8 : index
// CHECK-NEXT: call @nnc_kernel_4(%[[SMALL]], %[[P0]], %[[Q0]]) : (memref<512xf32>, index, index) -> ()
// CHECK: %[[VIEW4:.*]] = memref.reinterpret_cast %[[LARGE]] to offset: [0], sizes: [512], strides: [1] : memref<4608xf32> to memref<512xf32>
// CHECK-NEXT: %[[P1:.*]] = arith.constant 192 : index
// CHECK-NEXT: %[[Q1:.*]] = arith.constant 20 : index
// CHECK-NEXT: call @nnc_kernel_4(%[[VIEW4]], %[[P1]], %[[Q1]])
// Kernels whose buffer is used as a whole (its size matters) stay apart.
// CHECK-NEXT: call @nnc_kernel_6(%[[ROW]]) : (memref<64xf32>) -> ()
// CHECK-NEXT: call @nnc_kernel_7(%[[COL]]) : (memref<192xf32>) -> ()
// A shift amount may differ: a shift by a register costs what one by a
// constant does.
// CHECK-NEXT: %[[SH0:.*]] = arith.constant 2 : index
// CHECK-NEXT: call @nnc_kernel_8(%[[ROW]], %[[SH0]]) : (memref<64xf32>, index) -> ()
// CHECK-NEXT: %[[SH1:.*]] = arith.constant 3 : index
// CHECK-NEXT: call @nnc_kernel_8(%[[ROW]], %[[SH1]]) : (memref<64xf32>, index) -> ()
// A column of values that are all the same multiple of another's (offsets
// of rows 1 and 2, 64 and 128 against 96 and 192) takes no argument: the
// kernel multiplies the other's.
// CHECK-NEXT: %[[R0:.*]] = arith.constant 64 : index
// CHECK-NEXT: call @nnc_kernel_10(%[[SMALL]], %[[R0]]) : (memref<512xf32>, index) -> ()
// CHECK: %[[VIEW10:.*]] = memref.reinterpret_cast %[[LARGE]]
// CHECK-NEXT: %[[R1:.*]] = arith.constant 96 : index
// CHECK-NEXT: call @nnc_kernel_10(%[[VIEW10]], %[[R1]]) : (memref<512xf32>, index) -> ()
// A buffer viewed at a dynamic size whose view is only accessed element by
// element (a split K's partial sums, a slice each) is flat: kernels whose
// slices differ in size merge, the size an argument.
// CHECK-NEXT: %[[Z0:.*]] = arith.constant 256 : index
// CHECK-NEXT: call @nnc_kernel_12(%[[SMALL]], %[[Z0]]) : (memref<512xf32>, index) -> ()
// CHECK: %[[VIEW12:.*]] = memref.reinterpret_cast %[[LARGE]]
// CHECK-NEXT: %[[Z1:.*]] = arith.constant 2304 : index
// CHECK-NEXT: call @nnc_kernel_12(%[[VIEW12]], %[[Z1]]) : (memref<512xf32>, index) -> ()
// Kernels that differ in 13 constants take 13 arguments merged: more than
// nnc-cpu-merge-kernels allows, as a contraction kernel's divisions,
// blocks and prefetches make them.
// CHECK-NEXT: arith.constant 1 : index
// CHECK-COUNT-12: arith.constant
// CHECK-NEXT: call @nnc_kernel_14(%[[SMALL]], %{{.*}}) : (memref<512xf32>, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()
// CHECK-COUNT-13: arith.constant
// CHECK-NEXT: call @nnc_kernel_14(%[[SMALL]], %{{.*}}) : (memref<512xf32>, index, index, index, index, index, index, index, index, index, index, index, index, index) -> ()

// CHECK: func.func private @nnc_kernel_0(%[[A:.*]]: memref<512xf32>, %[[N:.*]]: index, %[[S:.*]]: index)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[I:.*]] = %[[ZERO]] to %[[N]] step %[[ONE]]
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[I]], %[[S]] : index
// CHECK-NEXT: memref.load %[[A]][%[[OFF]]] : memref<512xf32>
// CHECK-NOT: @nnc_kernel_1(
// CHECK: func.func private @nnc_kernel_2(
// CHECK: arith.divui %{{.*}}, %{{.*}} : index
// CHECK: func.func private @nnc_kernel_3(
// CHECK: func.func private @nnc_kernel_4(%{{.*}}: memref<512xf32>, %[[PN:.*]]: index, %[[PS:.*]]: index)
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[PN]]) step
// CHECK: arith.muli %{{.*}}, %[[PS]] : index
// CHECK-NOT: func.func private @nnc_kernel_5(
// CHECK: func.func private @nnc_kernel_6(
// CHECK: func.func private @nnc_kernel_7(
// CHECK: func.func private @nnc_kernel_8(%{{.*}}: memref<64xf32>, %[[SH:.*]]: index)
// CHECK: arith.shrui %{{.*}}, %[[SH]] : index
// CHECK-NOT: @nnc_kernel_9(
// CHECK: func.func private @nnc_kernel_10(%[[B:.*]]: memref<512xf32>, %[[ROW1:.*]]: index)
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[ROW2:.*]] = arith.muli %[[ROW1]], %[[TWO]] : index
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: memref.load %[[B]][%[[J]]]
// CHECK-NEXT: %[[AT1:.*]] = arith.addi %[[J]], %[[ROW1]] : index
// CHECK-NEXT: memref.load %[[B]][%[[AT1]]]
// CHECK-NEXT: %[[AT2:.*]] = arith.addi %[[J]], %[[ROW2]] : index
// CHECK-NEXT: memref.load %[[B]][%[[AT2]]]
// CHECK-NOT: @nnc_kernel_11(
// CHECK: func.func private @nnc_kernel_12(%[[PARTIAL:.*]]: memref<512xf32>, %[[SIZE:.*]]: index)
// CHECK: memref.reinterpret_cast %[[PARTIAL]] to offset: [%{{.*}}], sizes: [%[[SIZE]]], strides: [1]
// CHECK-NOT: @nnc_kernel_13(
// CHECK: func.func private @nnc_kernel_14(
// CHECK-NOT: @nnc_kernel_15(

func.func @entry(%small: memref<512xf32>, %large: memref<4608xf32>, %row: memref<64xf32>, %col: memref<192xf32>) {
  call @nnc_kernel_0(%small) : (memref<512xf32>) -> ()
  call @nnc_kernel_1(%large) : (memref<4608xf32>) -> ()
  call @nnc_kernel_2(%row) : (memref<64xf32>) -> ()
  call @nnc_kernel_3(%row) : (memref<64xf32>) -> ()
  call @nnc_kernel_4(%small) : (memref<512xf32>) -> ()
  call @nnc_kernel_5(%large) : (memref<4608xf32>) -> ()
  call @nnc_kernel_6(%row) : (memref<64xf32>) -> ()
  call @nnc_kernel_7(%col) : (memref<192xf32>) -> ()
  call @nnc_kernel_8(%row) : (memref<64xf32>) -> ()
  call @nnc_kernel_9(%row) : (memref<64xf32>) -> ()
  call @nnc_kernel_10(%small) : (memref<512xf32>) -> ()
  call @nnc_kernel_11(%large) : (memref<4608xf32>) -> ()
  call @nnc_kernel_12(%small) : (memref<512xf32>) -> ()
  call @nnc_kernel_13(%large) : (memref<4608xf32>) -> ()
  call @nnc_kernel_14(%small) : (memref<512xf32>) -> ()
  call @nnc_kernel_15(%small) : (memref<512xf32>) -> ()
  return
}

// Doubles every 8th element of 512: N = 64, stride 8.
func.func private @nnc_kernel_0(%a: memref<512xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %s = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %zero to %n step %one {
    %off = arith.muli %i, %s : index
    %x = memref.load %a[%off] : memref<512xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%off] : memref<512xf32>
  }
  return
}

// The same over N = 192 with stride 20.
func.func private @nnc_kernel_1(%a: memref<4608xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 192 : index
  %s = arith.constant 20 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %zero to %n step %one {
    %off = arith.muli %i, %s : index
    %x = memref.load %a[%off] : memref<4608xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%off] : memref<4608xf32>
  }
  return
}

// Halves the element at i / 4 for i < 64, then the same with i / 8.
func.func private @nnc_kernel_2(%a: memref<64xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %d = arith.constant 4 : index
  %half = arith.constant 0.5 : f32
  scf.for %i = %zero to %n step %one {
    %off = arith.divui %i, %d : index
    %x = memref.load %a[%off] : memref<64xf32>
    %y = arith.mulf %x, %half : f32
    memref.store %y, %a[%off] : memref<64xf32>
  }
  return
}

func.func private @nnc_kernel_3(%a: memref<64xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %d = arith.constant 8 : index
  %half = arith.constant 0.5 : f32
  scf.for %i = %zero to %n step %one {
    %off = arith.divui %i, %d : index
    %x = memref.load %a[%off] : memref<64xf32>
    %y = arith.mulf %x, %half : f32
    memref.store %y, %a[%off] : memref<64xf32>
  }
  return
}

// kernel_0's loop, parallel, in kernels that are no contraction kernels.
func.func private @nnc_kernel_4(%a: memref<512xf32>) attributes {llvm.bareptr, passthrough = ["noinline"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %s = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%zero) to (%n) step (%one) {
    %off = arith.muli %i, %s : index
    %x = memref.load %a[%off] : memref<512xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%off] : memref<512xf32>
    scf.reduce
  }
  return
}

func.func private @nnc_kernel_5(%a: memref<4608xf32>) attributes {llvm.bareptr, passthrough = ["noinline"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 192 : index
  %s = arith.constant 20 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%zero) to (%n) step (%one) {
    %off = arith.muli %i, %s : index
    %x = memref.load %a[%off] : memref<4608xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%off] : memref<4608xf32>
    scf.reduce
  }
  return
}

// Fills the whole buffer: its size is what the kernel computes.
func.func private @nnc_kernel_6(%a: memref<64xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  return
}

func.func private @nnc_kernel_7(%a: memref<192xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%a : memref<192xf32>)
  return
}

// Halves the element at i >> 2 for i < 64, then the same with i >> 3.
func.func private @nnc_kernel_8(%a: memref<64xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %d = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  scf.for %i = %zero to %n step %one {
    %off = arith.shrui %i, %d : index
    %x = memref.load %a[%off] : memref<64xf32>
    %y = arith.mulf %x, %half : f32
    memref.store %y, %a[%off] : memref<64xf32>
  }
  return
}

func.func private @nnc_kernel_9(%a: memref<64xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 64 : index
  %d = arith.constant 3 : index
  %half = arith.constant 0.5 : f32
  scf.for %i = %zero to %n step %one {
    %off = arith.shrui %i, %d : index
    %x = memref.load %a[%off] : memref<64xf32>
    %y = arith.mulf %x, %half : f32
    memref.store %y, %a[%off] : memref<64xf32>
  }
  return
}

// Sums rows 0, 1 and 2 of 16 columns, 64 apart, into row 0; then the same
// with rows 96 apart.
func.func private @nnc_kernel_10(%a: memref<512xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 16 : index
  %r1 = arith.constant 64 : index
  %r2 = arith.constant 128 : index
  scf.for %j = %zero to %n step %one {
    %x0 = memref.load %a[%j] : memref<512xf32>
    %i1 = arith.addi %j, %r1 : index
    %x1 = memref.load %a[%i1] : memref<512xf32>
    %i2 = arith.addi %j, %r2 : index
    %x2 = memref.load %a[%i2] : memref<512xf32>
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    memref.store %s2, %a[%j] : memref<512xf32>
  }
  return
}

func.func private @nnc_kernel_11(%a: memref<4608xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 16 : index
  %r1 = arith.constant 96 : index
  %r2 = arith.constant 192 : index
  scf.for %j = %zero to %n step %one {
    %x0 = memref.load %a[%j] : memref<4608xf32>
    %i1 = arith.addi %j, %r1 : index
    %x1 = memref.load %a[%i1] : memref<4608xf32>
    %i2 = arith.addi %j, %r2 : index
    %x2 = memref.load %a[%i2] : memref<4608xf32>
    %s1 = arith.addf %x0, %x1 : f32
    %s2 = arith.addf %s1, %x2 : f32
    memref.store %s2, %a[%j] : memref<4608xf32>
  }
  return
}

// Doubles the first element of the second of two slices: of 256 elements,
// then of 2304.
func.func private @nnc_kernel_12(%p: memref<512xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %size = arith.constant 256 : index
  %two = arith.constant 2.0 : f32
  %slice = memref.reinterpret_cast %p to offset: [%size], sizes: [%size], strides: [1] : memref<512xf32> to memref<?xf32, strided<[1], offset: ?>>
  %x = memref.load %slice[%zero] : memref<?xf32, strided<[1], offset: ?>>
  %y = arith.mulf %x, %two : f32
  memref.store %y, %slice[%zero] : memref<?xf32, strided<[1], offset: ?>>
  return
}

func.func private @nnc_kernel_13(%p: memref<4608xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %size = arith.constant 2304 : index
  %two = arith.constant 2.0 : f32
  %slice = memref.reinterpret_cast %p to offset: [%size], sizes: [%size], strides: [1] : memref<4608xf32> to memref<?xf32, strided<[1], offset: ?>>
  %x = memref.load %slice[%zero] : memref<?xf32, strided<[1], offset: ?>>
  %y = arith.mulf %x, %two : f32
  memref.store %y, %slice[%zero] : memref<?xf32, strided<[1], offset: ?>>
  return
}

// Zeroes 13 elements: 1 to 13, then 14 to 26 (no column of values a
// multiple of another).
func.func private @nnc_kernel_14(%a: memref<512xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0.0 : f32
  %i1 = arith.constant 1 : index
  %i2 = arith.constant 2 : index
  %i3 = arith.constant 3 : index
  %i4 = arith.constant 4 : index
  %i5 = arith.constant 5 : index
  %i6 = arith.constant 6 : index
  %i7 = arith.constant 7 : index
  %i8 = arith.constant 8 : index
  %i9 = arith.constant 9 : index
  %i10 = arith.constant 10 : index
  %i11 = arith.constant 11 : index
  %i12 = arith.constant 12 : index
  %i13 = arith.constant 13 : index
  memref.store %zero, %a[%i1] : memref<512xf32>
  memref.store %zero, %a[%i2] : memref<512xf32>
  memref.store %zero, %a[%i3] : memref<512xf32>
  memref.store %zero, %a[%i4] : memref<512xf32>
  memref.store %zero, %a[%i5] : memref<512xf32>
  memref.store %zero, %a[%i6] : memref<512xf32>
  memref.store %zero, %a[%i7] : memref<512xf32>
  memref.store %zero, %a[%i8] : memref<512xf32>
  memref.store %zero, %a[%i9] : memref<512xf32>
  memref.store %zero, %a[%i10] : memref<512xf32>
  memref.store %zero, %a[%i11] : memref<512xf32>
  memref.store %zero, %a[%i12] : memref<512xf32>
  memref.store %zero, %a[%i13] : memref<512xf32>
  return
}

func.func private @nnc_kernel_15(%a: memref<512xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0.0 : f32
  %i1 = arith.constant 14 : index
  %i2 = arith.constant 15 : index
  %i3 = arith.constant 16 : index
  %i4 = arith.constant 17 : index
  %i5 = arith.constant 18 : index
  %i6 = arith.constant 19 : index
  %i7 = arith.constant 20 : index
  %i8 = arith.constant 21 : index
  %i9 = arith.constant 22 : index
  %i10 = arith.constant 23 : index
  %i11 = arith.constant 24 : index
  %i12 = arith.constant 25 : index
  %i13 = arith.constant 26 : index
  memref.store %zero, %a[%i1] : memref<512xf32>
  memref.store %zero, %a[%i2] : memref<512xf32>
  memref.store %zero, %a[%i3] : memref<512xf32>
  memref.store %zero, %a[%i4] : memref<512xf32>
  memref.store %zero, %a[%i5] : memref<512xf32>
  memref.store %zero, %a[%i6] : memref<512xf32>
  memref.store %zero, %a[%i7] : memref<512xf32>
  memref.store %zero, %a[%i8] : memref<512xf32>
  memref.store %zero, %a[%i9] : memref<512xf32>
  memref.store %zero, %a[%i10] : memref<512xf32>
  memref.store %zero, %a[%i11] : memref<512xf32>
  memref.store %zero, %a[%i12] : memref<512xf32>
  memref.store %zero, %a[%i13] : memref<512xf32>
  return
}
