// RUN: nnc-opt %s --nnc-packed-entry-points | FileCheck %s
// RUN: nnc-opt %s --nnc-packed-entry-points | FileCheck %s --check-prefix=BARE

// nnc_<entry>(args) loads args[i] and calls the C interface with them.
// CHECK: llvm.func @nnc_forward(%[[ARGS:.*]]: !llvm.ptr) {
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P1:.*]] = llvm.getelementptr %[[ARGS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK: %[[A1:.*]] = llvm.load %[[P1]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.call @_mlir_ciface_forward(%[[A0]], %[[A1]])
// CHECK: llvm.return
// Declarations and other functions get no wrapper.
// CHECK-NOT: @nnc_external
// CHECK-NOT: @nnc_other
llvm.func @_mlir_ciface_forward(%a: !llvm.ptr, %b: !llvm.ptr) {
  llvm.return
}
llvm.func @_mlir_ciface_external(!llvm.ptr)
llvm.func @other(%a: !llvm.ptr) {
  llvm.return
}

// An entry point taking bare pointers first gets its C interface: each
// descriptor's aligned pointer, moved by its offset in elements of the
// buffer's type. Both wrappers are compiled as the entry point is (its
// passthrough attributes). An entry point that another calls keeps its
// body, which its C interface calls; the body of one that nothing else
// calls moves into its C interface.
// BARE-LABEL: llvm.func @_mlir_ciface_bare(
// BARE-SAME: %[[D0:.*]]: !llvm.ptr, %[[D1:.*]]: !llvm.ptr) attributes {passthrough = ["noinline", "optnone"]} {
// BARE: %[[AL0:.*]] = llvm.getelementptr %[[D0]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64)>
// BARE: %[[PTR0:.*]] = llvm.load %[[AL0]] : !llvm.ptr -> !llvm.ptr
// BARE: %[[OF0:.*]] = llvm.getelementptr %[[D0]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64)>
// BARE: %[[OFF0:.*]] = llvm.load %[[OF0]] : !llvm.ptr -> i64
// BARE: %[[B0:.*]] = llvm.getelementptr %[[PTR0]][%[[OFF0]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// BARE: %[[B1:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// BARE: llvm.call @bare(%[[B0]], %[[B1]]) : (!llvm.ptr, !llvm.ptr) -> ()
// BARE: llvm.func @bare(
// BARE-NOT: nnc.bare_c_interface
// BARE: llvm.return
// BARE-LABEL: llvm.func @_mlir_ciface_top(
// BARE-SAME: %[[T0:.*]]: !llvm.ptr, %[[T1:.*]]: !llvm.ptr) attributes {passthrough = ["noinline", "optnone"]} {
// BARE: %[[C0:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// BARE: %[[C1:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// BARE-NEXT: llvm.call @bare(%[[C1]], %[[C0]]) : (!llvm.ptr, !llvm.ptr) -> ()
// BARE-NEXT: llvm.return
// BARE-NEXT: }
// BARE-NOT: llvm.func @top(
// BARE: llvm.func @nnc_bare(%{{.*}}: !llvm.ptr) attributes {passthrough = ["noinline", "optnone"]}
// BARE: llvm.call @_mlir_ciface_bare(
// BARE: llvm.func @nnc_top(%{{.*}}: !llvm.ptr) attributes {passthrough = ["noinline", "optnone"]}
// BARE: llvm.call @_mlir_ciface_top(
llvm.func @bare(%a: !llvm.ptr, %b: !llvm.ptr) attributes {llvm.bareptr, nnc.bare_c_interface = [f32, i32], passthrough = ["noinline", "optnone"]} {
  llvm.return
}
llvm.func @top(%a: !llvm.ptr, %b: !llvm.ptr) attributes {llvm.bareptr, nnc.bare_c_interface = [f32, i32], passthrough = ["noinline", "optnone"]} {
  llvm.call @bare(%b, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
