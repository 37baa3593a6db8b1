// RUN: nnc-opt %s --split-input-file --nnc-cpu-math-to-libm | FileCheck %s

// A math op that convert-math-to-llvm leaves becomes a call to libm.
// CHECK: func.func private @erff(f32) -> f32
// CHECK-LABEL: func.func @erf
// CHECK: call @erff(%{{.*}}) : (f32) -> f32
func.func @erf(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}

// -----

// Without math ops the module is left as it is: no libm declarations.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: func.func private
func.func @plain(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
