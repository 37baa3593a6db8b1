// RUN: nnc-opt %s --split-input-file --nnc-cpu-parallel-to-runtime | FileCheck %s

// A kernel's 2-D parallel nest (4 x 3 iterations from (1, 0), steps 2 and
// 1) becomes its body function and a call of the runtime's dispatcher for
// 12 iterations (each dimension's trip count at least 0). The body reads
// the kernel's pointer and its i64 argument from the context the kernel
// stores on its stack; its constants are copied. Iteration i runs at
// (1 + 2 * (i / 3), i % 3).
// CHECK-LABEL: llvm.func @nnc_kernel_0(%arg0: !llvm.ptr, %arg1: i64)
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr)>
// CHECK-NOT: omp.
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK-NEXT: llvm.store %arg1, %[[P0]] : i64, !llvm.ptr
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK-NEXT: llvm.store %arg0, %[[P1]] : !llvm.ptr, !llvm.ptr
// CHECK-COUNT-2: llvm.intr.smax
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @nnc_kernel_0.body0 : !llvm.ptr
// CHECK-NEXT: llvm.call @nnc_parallel_for(%[[FN]], %[[CTX]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK-NEXT: llvm.return

// CHECK-LABEL: llvm.func internal @nnc_kernel_0.body0(%arg0: !llvm.ptr, %arg1: i64, %arg2: i64)
// CHECK-SAME: passthrough = ["noinline", "nnc-contraction"]
// CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-DAG: %[[N:.*]] = llvm.load {{.*}} : !llvm.ptr -> i64
// CHECK-DAG: %[[BASE:.*]] = llvm.load {{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.br ^[[HEADER:.*]](%arg1 : i64)
// CHECK: ^[[HEADER]](%[[I:.*]]: i64):
// CHECK-NEXT: %[[MORE:.*]] = llvm.icmp "slt" %[[I]], %arg2 : i64
// CHECK-NEXT: llvm.cond_br %[[MORE]], ^[[INDICES:.*]], ^[[EXIT:.*]]
// CHECK: ^[[INDICES]]:
// CHECK-NEXT: %[[J:.*]] = llvm.urem %[[I]], %{{.*}} : i64
// CHECK-NEXT: %[[ROW:.*]] = llvm.udiv %[[I]], %{{.*}} : i64
// CHECK-NEXT: %[[JS:.*]] = llvm.mul %[[J]], %{{.*}} : i64
// CHECK-NEXT: %[[JV:.*]] = llvm.add %{{.*}}, %[[JS]] : i64
// CHECK-NEXT: %[[RS:.*]] = llvm.mul %[[ROW]], %[[C2]] : i64
// CHECK-NEXT: %[[RV:.*]] = llvm.add %{{.*}}, %[[RS]] : i64
// CHECK-NEXT: llvm.br ^[[FIRST:.*]](%[[RV]], %[[JV]] : i64, i64)
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: llvm.return
// CHECK: ^[[FIRST]](%[[R:.*]]: i64, %[[C:.*]]: i64):
// CHECK-NEXT: %[[OFF:.*]] = llvm.mul %[[R]], %[[N]] : i64
// CHECK-NEXT: %[[AT:.*]] = llvm.add %[[OFF]], %[[C]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[BASE]][%[[AT]]]
// CHECK-NEXT: llvm.store %[[ONE]], %[[P]]
// CHECK-NEXT: llvm.br ^[[LATCH:.*]]
// CHECK: ^[[LATCH]]:
// CHECK: %[[NEXT:.*]] = llvm.add %[[I]], %{{.*}} : i64
// CHECK-NEXT: llvm.br ^[[HEADER]](%[[NEXT]] : i64)

// CHECK: llvm.func @nnc_parallel_for(!llvm.ptr, !llvm.ptr, i64)
module {
  llvm.func @nnc_kernel_0(%arg0: !llvm.ptr, %arg1: i64) attributes {passthrough = ["noinline", "nnc-contraction"]} {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c2 = llvm.mlir.constant(2 : i64) : i64
    %c3 = llvm.mlir.constant(3 : i64) : i64
    %c9 = llvm.mlir.constant(9 : i64) : i64
    %one = llvm.mlir.constant(1.0 : f32) : f32
    omp.parallel {
      omp.wsloop schedule(guided) {
        omp.loop_nest (%i, %j) : i64 = (%c1, %c0) to (%c9, %c3) step (%c2, %c1) {
          %row = llvm.mul %i, %arg1 : i64
          %at = llvm.add %row, %j : i64
          %p = llvm.getelementptr %arg0[%at] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %one, %p : f32, !llvm.ptr
          omp.yield
        }
      }
      omp.terminator
    }
    llvm.return
  }
}

// -----

// A region with a clause the dispatcher does not have (a thread count) is
// left to OpenMP, and nothing is declared.
// CHECK-LABEL: llvm.func @nnc_kernel_1
// CHECK: omp.parallel num_threads
// CHECK-NOT: nnc_parallel_for
module {
  llvm.func @nnc_kernel_1(%arg0: !llvm.ptr) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c8 = llvm.mlir.constant(8 : i64) : i64
    %t = llvm.mlir.constant(2 : i32) : i32
    %one = llvm.mlir.constant(1.0 : f32) : f32
    omp.parallel num_threads(%t : i32) {
      omp.wsloop {
        omp.loop_nest (%i) : i64 = (%c0) to (%c8) step (%c1) {
          %p = llvm.getelementptr %arg0[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
          llvm.store %one, %p : f32, !llvm.ptr
          omp.yield
        }
      }
      omp.terminator
    }
    llvm.return
  }
}
