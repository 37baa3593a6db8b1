// RUN: nnc-opt %s --nnc-packed-entry-points | FileCheck %s

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
