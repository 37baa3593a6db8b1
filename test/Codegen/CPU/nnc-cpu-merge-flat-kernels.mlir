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
// CHECK-NEXT: %[[S1:.*]] = arith.constant 24 : index
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
// CHECK-NEXT: %[[Q1:.*]] = arith.constant 24 : index
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

// The same over N = 192 with stride 24.
func.func private @nnc_kernel_1(%a: memref<4608xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]} {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  %n = arith.constant 192 : index
  %s = arith.constant 24 : index
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
  %s = arith.constant 24 : index
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
