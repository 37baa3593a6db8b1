// RUN: nnc-opt %s --pass-pipeline='builtin.module(convert-scf-to-openmp,func.func(nnc-cpu-guided-schedule))' | FileCheck %s

// A parallel loop becomes a worksharing loop whose threads take guided
// chunks of the iterations, not a fixed share each; a loop that already
// names its schedule keeps it.
// CHECK-LABEL: func.func @scale(
// CHECK: omp.parallel
// CHECK: omp.wsloop schedule(guided)
// CHECK-NEXT: omp.loop_nest
func.func @scale(%a: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %x = memref.load %a[%i] : memref<1024xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %a[%i] : memref<1024xf32>
  }
  return
}

// CHECK-LABEL: func.func @named(
// CHECK: omp.wsloop schedule(static)
func.func @named(%a: memref<1024xf32>, %lb: index, %ub: index, %step: index) {
  %two = arith.constant 2.0 : f32
  omp.parallel {
    omp.wsloop schedule(static) {
      omp.loop_nest (%i) : index = (%lb) to (%ub) step (%step) {
        memref.store %two, %a[%i] : memref<1024xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
