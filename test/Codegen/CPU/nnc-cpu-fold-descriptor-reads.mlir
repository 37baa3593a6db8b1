// RUN: nnc-opt %s --pass-pipeline='builtin.module(llvm.func(nnc-cpu-fold-descriptor-reads))' | FileCheck %s

!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>

// A read of a field the descriptor was built with is the value inserted,
// inside a parallel region too; the descriptor then goes.
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[A:.*]]: !llvm.ptr, %[[I:.*]]: i64)
// CHECK-NOT: llvm.insertvalue
// CHECK-NOT: llvm.extractvalue
// CHECK: omp.parallel
// CHECK: %[[P:.*]] = llvm.getelementptr %[[A]][%[[I]]]
// CHECK: llvm.load %[[P]]
llvm.func @kernel(%a: !llvm.ptr, %i: i64) {
  %0 = llvm.mlir.poison : !desc
  %1 = llvm.insertvalue %a, %0[0] : !desc
  %2 = llvm.insertvalue %a, %1[1] : !desc
  %c0 = llvm.mlir.constant(0 : index) : i64
  %3 = llvm.insertvalue %c0, %2[2] : !desc
  %c64 = llvm.mlir.constant(64 : index) : i64
  %4 = llvm.insertvalue %c64, %3[3, 0] : !desc
  %c1 = llvm.mlir.constant(1 : index) : i64
  %5 = llvm.insertvalue %c1, %4[4, 0] : !desc
  omp.parallel {
    %base = llvm.extractvalue %5[1] : !desc
    %p = llvm.getelementptr %base[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %x = llvm.load %p : !llvm.ptr -> f32
    llvm.store %x, %base : f32, !llvm.ptr
    omp.terminator
  }
  llvm.return
}

// A field set as part of a larger one, or not set by the chain, is read
// as it was: the descriptor stays.
// CHECK-LABEL: llvm.func @partial(
// CHECK-SAME: %[[D:.*]]: !llvm.struct
// CHECK: %[[S:.*]] = llvm.insertvalue %{{.*}}, %[[D]][3]
// CHECK: llvm.extractvalue %[[S]][3, 0]
// CHECK: llvm.extractvalue %[[S]][1]
llvm.func @partial(%d: !desc, %sizes: !llvm.array<1 x i64>) -> i64 {
  %0 = llvm.insertvalue %sizes, %d[3] : !desc
  %n = llvm.extractvalue %0[3, 0] : !desc
  %base = llvm.extractvalue %0[1] : !desc
  %x = llvm.load %base : !llvm.ptr -> i64
  %y = llvm.add %n, %x : i64
  llvm.return %y : i64
}
