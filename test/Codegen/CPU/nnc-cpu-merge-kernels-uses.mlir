// RUN: nnc-opt %s --nnc-cpu-merge-kernels | FileCheck %s

// Kernels merge use by use: a constant that several uses share in one
// kernel (the canonicaliser keeps one op per value) matches separate
// constants in another; a divisor keeps its value while the same
// constant's other uses become arguments; a vector of one integer that is
// compared becomes an argument splat in the kernel.

// CHECK-LABEL: llvm.func @entry(
// CHECK: %[[B0:.*]] = llvm.mlir.constant(3 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_0(%{{.*}}, %[[B0]])
// CHECK: %[[B1:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_0(%{{.*}}, %[[B1]])
// CHECK: %[[E0:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_2(%{{.*}}, %[[E0]])
// CHECK: %[[E1:.*]] = llvm.mlir.constant(32 : index) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_2(%{{.*}}, %[[E1]])
// CHECK: %[[W0:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_4(%{{.*}}, %[[W0]])
// CHECK: %[[W1:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: llvm.call @nnc_kernel_4(%{{.*}}, %[[W1]])
// At most 12 arguments: the first two of these merge, and the last two.
// CHECK-COUNT-12: llvm.mlir.constant
// CHECK-NEXT: llvm.call @nnc_kernel_6(
// CHECK-COUNT-12: llvm.mlir.constant
// CHECK-NEXT: llvm.call @nnc_kernel_6(
// CHECK-COUNT-12: llvm.mlir.constant
// CHECK-NEXT: llvm.call @nnc_kernel_8(
// CHECK-COUNT-12: llvm.mlir.constant
// CHECK-NEXT: llvm.call @nnc_kernel_8(

// Two nested loops of trip counts N and M: 3 and 3 (one constant), then
// 3 and 64.
// CHECK-LABEL: llvm.func @nnc_kernel_0(
// CHECK-SAME: %[[A:.*]]: !llvm.ptr, %[[M:.*]]: i64)
// CHECK: %[[N:.*]] = llvm.mlir.constant(3 : index) : i64
// CHECK: llvm.icmp "slt" %{{.*}}, %[[N]] : i64
// CHECK: llvm.icmp "slt" %{{.*}}, %[[M]] : i64
// CHECK-NOT: @nnc_kernel_1(

// A row of 64 elements: element I / 64 of the first D, for D = 64 and
// D = 32.
// CHECK-LABEL: llvm.func @nnc_kernel_2(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[D:.*]]: i64)
// CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : index) : i64
// CHECK: llvm.udiv %{{.*}}, %[[C64]] : i64
// CHECK: llvm.icmp "ult" %{{.*}}, %[[D]] : i64
// CHECK-NOT: @nnc_kernel_3(

// CHECK-LABEL: llvm.func @nnc_kernel_4(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[W:.*]]: i64)
// CHECK: %[[T:.*]] = llvm.trunc %[[W]] : i64 to i32
// CHECK: %[[V:.*]] = llvm.insertelement %[[T]]
// CHECK: %[[S:.*]] = llvm.shufflevector %[[V]], %{{.*}} [0, 0, 0, 0, 0, 0, 0, 0]
// CHECK: llvm.icmp "eq" %{{.*}}, %[[S]] : vector<8xi32>
// CHECK-NOT: @nnc_kernel_5(

// CHECK-LABEL: llvm.func @nnc_kernel_6(
// CHECK-NOT: @nnc_kernel_7(
// CHECK-LABEL: llvm.func @nnc_kernel_8(
// CHECK-NOT: @nnc_kernel_9(

llvm.func @entry(%p: !llvm.ptr, %q: !llvm.ptr) {
  llvm.call @nnc_kernel_0(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_1(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_2(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_3(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_4(%q) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_5(%q) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_6(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_7(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_8(%p) : (!llvm.ptr) -> ()
  llvm.call @nnc_kernel_9(%p) : (!llvm.ptr) -> ()
  llvm.return
}

llvm.func @nnc_kernel_0(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %zero = llvm.mlir.constant(0 : index) : i64
  %one = llvm.mlir.constant(1 : index) : i64
  %n = llvm.mlir.constant(3 : index) : i64
  %f = llvm.mlir.constant(0.0 : f32) : f32
  llvm.br ^outer(%zero : i64)
^outer(%i: i64):
  %ci = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %ci, ^inner(%zero : i64), ^exit
^inner(%j: i64):
  %cj = llvm.icmp "slt" %j, %n : i64
  llvm.cond_br %cj, ^body, ^next
^body:
  %row = llvm.mul %i, %n : i64
  %k = llvm.add %row, %j : i64
  %q = llvm.getelementptr %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %f, %q : f32, !llvm.ptr
  %j1 = llvm.add %j, %one : i64
  llvm.br ^inner(%j1 : i64)
^next:
  %i1 = llvm.add %i, %one : i64
  llvm.br ^outer(%i1 : i64)
^exit:
  llvm.return
}

llvm.func @nnc_kernel_1(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %zero = llvm.mlir.constant(0 : index) : i64
  %one = llvm.mlir.constant(1 : index) : i64
  %n = llvm.mlir.constant(3 : index) : i64
  %m = llvm.mlir.constant(64 : index) : i64
  %f = llvm.mlir.constant(0.0 : f32) : f32
  llvm.br ^outer(%zero : i64)
^outer(%i: i64):
  %ci = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %ci, ^inner(%zero : i64), ^exit
^inner(%j: i64):
  %cj = llvm.icmp "slt" %j, %m : i64
  llvm.cond_br %cj, ^body, ^next
^body:
  %row = llvm.mul %i, %m : i64
  %k = llvm.add %row, %j : i64
  %q = llvm.getelementptr %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  llvm.store %f, %q : f32, !llvm.ptr
  %j1 = llvm.add %j, %one : i64
  llvm.br ^inner(%j1 : i64)
^next:
  %i1 = llvm.add %i, %one : i64
  llvm.br ^outer(%i1 : i64)
^exit:
  llvm.return
}

llvm.func @nnc_kernel_2(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %i = llvm.mlir.constant(100 : index) : i64
  %c64 = llvm.mlir.constant(64 : index) : i64
  %row = llvm.udiv %i, %c64 : i64
  %in = llvm.icmp "ult" %row, %c64 : i64
  %k = llvm.select %in, %row, %i : i1, i64
  %q = llvm.getelementptr %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %f = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %f, %q : f32, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_3(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %i = llvm.mlir.constant(100 : index) : i64
  %c64 = llvm.mlir.constant(64 : index) : i64
  %d = llvm.mlir.constant(32 : index) : i64
  %row = llvm.udiv %i, %c64 : i64
  %in = llvm.icmp "ult" %row, %d : i64
  %k = llvm.select %in, %row, %i : i1, i64
  %q = llvm.getelementptr %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %f = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %f, %q : f32, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_4(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %w = llvm.mlir.constant(dense<0> : vector<8xi32>) : vector<8xi32>
  %x = llvm.load %a : !llvm.ptr -> vector<8xi32>
  %c = llvm.icmp "eq" %x, %w : vector<8xi32>
  %e = llvm.zext %c : vector<8xi1> to vector<8xi32>
  llvm.store %e, %a : vector<8xi32>, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_5(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %w = llvm.mlir.constant(dense<1> : vector<8xi32>) : vector<8xi32>
  %x = llvm.load %a : !llvm.ptr -> vector<8xi32>
  %c = llvm.icmp "eq" %x, %w : vector<8xi32>
  %e = llvm.zext %c : vector<8xi1> to vector<8xi32>
  llvm.store %e, %a : vector<8xi32>, !llvm.ptr
  llvm.return
}

// Thirteen values added up: the first two kernels differ in twelve, the
// third in all thirteen from either, the fourth in twelve from the third.
llvm.func @nnc_kernel_6(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %x0 = llvm.mlir.constant(0 : index) : i64
  %c0 = llvm.mlir.constant(1 : index) : i64
  %x1 = llvm.add %x0, %c0 : i64
  %c1 = llvm.mlir.constant(2 : index) : i64
  %x2 = llvm.add %x1, %c1 : i64
  %c2 = llvm.mlir.constant(3 : index) : i64
  %x3 = llvm.add %x2, %c2 : i64
  %c3 = llvm.mlir.constant(4 : index) : i64
  %x4 = llvm.add %x3, %c3 : i64
  %c4 = llvm.mlir.constant(5 : index) : i64
  %x5 = llvm.add %x4, %c4 : i64
  %c5 = llvm.mlir.constant(6 : index) : i64
  %x6 = llvm.add %x5, %c5 : i64
  %c6 = llvm.mlir.constant(7 : index) : i64
  %x7 = llvm.add %x6, %c6 : i64
  %c7 = llvm.mlir.constant(8 : index) : i64
  %x8 = llvm.add %x7, %c7 : i64
  %c8 = llvm.mlir.constant(9 : index) : i64
  %x9 = llvm.add %x8, %c8 : i64
  %c9 = llvm.mlir.constant(10 : index) : i64
  %x10 = llvm.add %x9, %c9 : i64
  %c10 = llvm.mlir.constant(11 : index) : i64
  %x11 = llvm.add %x10, %c10 : i64
  %c11 = llvm.mlir.constant(12 : index) : i64
  %x12 = llvm.add %x11, %c11 : i64
  %c12 = llvm.mlir.constant(13 : index) : i64
  %x13 = llvm.add %x12, %c12 : i64
  %p = llvm.getelementptr %a[%x13] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_7(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %x0 = llvm.mlir.constant(0 : index) : i64
  %c0 = llvm.mlir.constant(101 : index) : i64
  %x1 = llvm.add %x0, %c0 : i64
  %c1 = llvm.mlir.constant(102 : index) : i64
  %x2 = llvm.add %x1, %c1 : i64
  %c2 = llvm.mlir.constant(103 : index) : i64
  %x3 = llvm.add %x2, %c2 : i64
  %c3 = llvm.mlir.constant(104 : index) : i64
  %x4 = llvm.add %x3, %c3 : i64
  %c4 = llvm.mlir.constant(105 : index) : i64
  %x5 = llvm.add %x4, %c4 : i64
  %c5 = llvm.mlir.constant(106 : index) : i64
  %x6 = llvm.add %x5, %c5 : i64
  %c6 = llvm.mlir.constant(107 : index) : i64
  %x7 = llvm.add %x6, %c6 : i64
  %c7 = llvm.mlir.constant(108 : index) : i64
  %x8 = llvm.add %x7, %c7 : i64
  %c8 = llvm.mlir.constant(109 : index) : i64
  %x9 = llvm.add %x8, %c8 : i64
  %c9 = llvm.mlir.constant(110 : index) : i64
  %x10 = llvm.add %x9, %c9 : i64
  %c10 = llvm.mlir.constant(111 : index) : i64
  %x11 = llvm.add %x10, %c10 : i64
  %c11 = llvm.mlir.constant(112 : index) : i64
  %x12 = llvm.add %x11, %c11 : i64
  %c12 = llvm.mlir.constant(13 : index) : i64
  %x13 = llvm.add %x12, %c12 : i64
  %p = llvm.getelementptr %a[%x13] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_8(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %x0 = llvm.mlir.constant(0 : index) : i64
  %c0 = llvm.mlir.constant(201 : index) : i64
  %x1 = llvm.add %x0, %c0 : i64
  %c1 = llvm.mlir.constant(202 : index) : i64
  %x2 = llvm.add %x1, %c1 : i64
  %c2 = llvm.mlir.constant(203 : index) : i64
  %x3 = llvm.add %x2, %c2 : i64
  %c3 = llvm.mlir.constant(204 : index) : i64
  %x4 = llvm.add %x3, %c3 : i64
  %c4 = llvm.mlir.constant(205 : index) : i64
  %x5 = llvm.add %x4, %c4 : i64
  %c5 = llvm.mlir.constant(206 : index) : i64
  %x6 = llvm.add %x5, %c5 : i64
  %c6 = llvm.mlir.constant(207 : index) : i64
  %x7 = llvm.add %x6, %c6 : i64
  %c7 = llvm.mlir.constant(208 : index) : i64
  %x8 = llvm.add %x7, %c7 : i64
  %c8 = llvm.mlir.constant(209 : index) : i64
  %x9 = llvm.add %x8, %c8 : i64
  %c9 = llvm.mlir.constant(210 : index) : i64
  %x10 = llvm.add %x9, %c9 : i64
  %c10 = llvm.mlir.constant(211 : index) : i64
  %x11 = llvm.add %x10, %c10 : i64
  %c11 = llvm.mlir.constant(212 : index) : i64
  %x12 = llvm.add %x11, %c11 : i64
  %c12 = llvm.mlir.constant(213 : index) : i64
  %x13 = llvm.add %x12, %c12 : i64
  %p = llvm.getelementptr %a[%x13] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}

llvm.func @nnc_kernel_9(%a: !llvm.ptr) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %x0 = llvm.mlir.constant(0 : index) : i64
  %c0 = llvm.mlir.constant(301 : index) : i64
  %x1 = llvm.add %x0, %c0 : i64
  %c1 = llvm.mlir.constant(302 : index) : i64
  %x2 = llvm.add %x1, %c1 : i64
  %c2 = llvm.mlir.constant(303 : index) : i64
  %x3 = llvm.add %x2, %c2 : i64
  %c3 = llvm.mlir.constant(304 : index) : i64
  %x4 = llvm.add %x3, %c3 : i64
  %c4 = llvm.mlir.constant(305 : index) : i64
  %x5 = llvm.add %x4, %c4 : i64
  %c5 = llvm.mlir.constant(306 : index) : i64
  %x6 = llvm.add %x5, %c5 : i64
  %c6 = llvm.mlir.constant(307 : index) : i64
  %x7 = llvm.add %x6, %c6 : i64
  %c7 = llvm.mlir.constant(308 : index) : i64
  %x8 = llvm.add %x7, %c7 : i64
  %c8 = llvm.mlir.constant(309 : index) : i64
  %x9 = llvm.add %x8, %c8 : i64
  %c9 = llvm.mlir.constant(310 : index) : i64
  %x10 = llvm.add %x9, %c9 : i64
  %c10 = llvm.mlir.constant(311 : index) : i64
  %x11 = llvm.add %x10, %c10 : i64
  %c11 = llvm.mlir.constant(312 : index) : i64
  %x12 = llvm.add %x11, %c11 : i64
  %c12 = llvm.mlir.constant(213 : index) : i64
  %x13 = llvm.add %x12, %c12 : i64
  %p = llvm.getelementptr %a[%x13] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %zero = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store %zero, %p : f32, !llvm.ptr
  llvm.return
}
