// RUN: nnc-opt %s --nnc-cpu-merge-kernels | FileCheck %s

// Kernels that differ only in the values of integer constants that index,
// bound a loop or are compared become the first of them, which takes each
// distinct column of differing values as a trailing i64 argument; a value
// the kernels share stays a constant, and a constant repeated in a kernel
// is one argument. Every call passes its own kernel's values. A column
// whose values are all the same multiple of another's (N = 8 S here) is
// no argument: the kernel multiplies the other's.
// CHECK: llvm.func @entry(%[[P:.*]]: !llvm.ptr)
// CHECK: %[[S0:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_0(%[[P]], %[[S0]]) : (!llvm.ptr, i64) -> ()
// CHECK: %[[S1:.*]] = llvm.mlir.constant(24 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_0(%[[P]], %[[S1]]) : (!llvm.ptr, i64) -> ()
// CHECK: %[[S2:.*]] = llvm.mlir.constant(8 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_0(%[[P]], %[[S2]]) : (!llvm.ptr, i64) -> ()
// A divisor keeps its value: kernels that differ in one stay apart.
// CHECK-NEXT: llvm.call @nnc_kernel_2(%[[P]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @nnc_kernel_3(%[[P]]) : (!llvm.ptr) -> ()
// So do kernels that differ in an operation, and functions that are not
// kernels.
// CHECK-NEXT: llvm.call @nnc_kernel_4(%[[P]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @helper_0(%[[P]]) : (!llvm.ptr) -> ()
// CHECK-NEXT: llvm.call @helper_1(%[[P]]) : (!llvm.ptr) -> ()

// CHECK: llvm.func @nnc_kernel_0(%[[A:.*]]: !llvm.ptr, %[[S:.*]]: i64)
// CHECK-NEXT: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT: %[[N:.*]] = llvm.mul %[[S]], %[[EIGHT]] : i64
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : index) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK: llvm.br ^bb1(%[[ZERO]] : i64)
// CHECK: ^bb1(%[[I:.*]]: i64):
// CHECK-NEXT: llvm.icmp "slt" %[[I]], %[[N]] : i64
// CHECK: llvm.mul %[[I]], %[[S]] : i64
// CHECK: llvm.getelementptr %[[A]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK: llvm.add %[[I]], %[[ONE]] : i64
// CHECK-NOT: @nnc_kernel_1(
// CHECK: llvm.func @nnc_kernel_2(
// CHECK: llvm.udiv %{{.*}}, %{{.*}} : i64
// CHECK: llvm.func @nnc_kernel_3(
// CHECK: llvm.func @nnc_kernel_4(
// CHECK-NOT: @nnc_kernel_5(
// CHECK: llvm.func @helper_0(
// CHECK: llvm.func @helper_1(

llvm.func @entry(%p: !llvm.ptr) {
  llvm.call @nnc_kernel_0(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_1(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_5(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_2(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_3(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_4(%p) : (!llvm.ptr) -> ()
  llvm.call @helper_0(%p) : (!llvm.ptr) -> ()
  llvm.call @helper_1(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// Scales the first N elements of a strided row by two: N = 64, stride 8.
llvm.func @nnc_kernel_0(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %zero = llvm.mlir.constant(0 : index) : i64
  %one = llvm.mlir.constant(1 : index) : i64
  %n = llvm.mlir.constant(64 : index) : i64
  %s = llvm.mlir.constant(8 : index) : i64
  %two = llvm.mlir.constant(2.0 : f32) : f32
  llvm.br ^loop(%zero : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^exit
^body:
  %off = llvm.mul %i, %s : i64
  %q = llvm.getelementptr %a[%off] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %q : !llvm.ptr -> f32
  %y = llvm.fmul %x, %two : f32
  llvm.store %y, %q : f32, !llvm.ptr
  %next = llvm.add %i, %one : i64
  llvm.br ^loop(%next : i64)
^exit:
  llvm.return
}

// The same over N = 192 with stride 24.
llvm.func @nnc_kernel_1(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %zero = llvm.mlir.constant(0 : index) : i64
  %one = llvm.mlir.constant(1 : index) : i64
  %n = llvm.mlir.constant(192 : index) : i64
  %s = llvm.mlir.constant(24 : index) : i64
  %two = llvm.mlir.constant(2.0 : f32) : f32
  llvm.br ^loop(%zero : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^exit
^body:
  %off = llvm.mul %i, %s : i64
  %q = llvm.getelementptr %a[%off] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %q : !llvm.ptr -> f32
  %y = llvm.fmul %x, %two : f32
  llvm.store %y, %q : f32, !llvm.ptr
  %next = llvm.add %i, %one : i64
  llvm.br ^loop(%next : i64)
^exit:
  llvm.return
}

// Element 17 / D, for D = 3 and D = 5.
llvm.func @nnc_kernel_2(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %i = llvm.mlir.constant(17 : index) : i64
  %d = llvm.mlir.constant(3 : index) : i64
  %q = llvm.udiv %i, %d : i64
  %p = llvm.getelementptr %a[%q] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_3(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %i = llvm.mlir.constant(17 : index) : i64
  %d = llvm.mlir.constant(5 : index) : i64
  %q = llvm.udiv %i, %d : i64
  %p = llvm.getelementptr %a[%q] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}

// Stores element 4 plus one, not element 4 times two.
llvm.func @nnc_kernel_4(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %i = llvm.mlir.constant(4 : index) : i64
  %p = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %p : !llvm.ptr -> f32
  %one = llvm.mlir.constant(1.0 : f32) : f32
  %y = llvm.fadd %x, %one : f32
  llvm.store %y, %p : f32, !llvm.ptr
  llvm.return
}

// nnc_kernel_0 again, with N = 64 and stride 8: identical, merged too.
llvm.func @nnc_kernel_5(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %zero = llvm.mlir.constant(0 : index) : i64
  %one = llvm.mlir.constant(1 : index) : i64
  %n = llvm.mlir.constant(64 : index) : i64
  %s = llvm.mlir.constant(8 : index) : i64
  %two = llvm.mlir.constant(2.0 : f32) : f32
  llvm.br ^loop(%zero : i64)
^loop(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^body, ^exit
^body:
  %off = llvm.mul %i, %s : i64
  %q = llvm.getelementptr %a[%off] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %x = llvm.load %q : !llvm.ptr -> f32
  %y = llvm.fmul %x, %two : f32
  llvm.store %y, %q : f32, !llvm.ptr
  %next = llvm.add %i, %one : i64
  llvm.br ^loop(%next : i64)
^exit:
  llvm.return
}

// Not kernels: left alone.
llvm.func @helper_0(%a: !llvm.ptr) {
  %i = llvm.mlir.constant(1 : index) : i64
  %p = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}

llvm.func @helper_1(%a: !llvm.ptr) {
  %i = llvm.mlir.constant(2 : index) : i64
  %p = llvm.getelementptr %a[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}
