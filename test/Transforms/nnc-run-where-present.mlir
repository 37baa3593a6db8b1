// RUN: nnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(nnc-run-where-present{dialects=math,vector pipeline="func.func(canonicalize)"}))' | FileCheck %s
// RUN: nnc-opt %s --pass-pipeline='builtin.module(nnc-run-where-present{dialects=math pipeline="builtin.module(func.func(canonicalize))"})' | FileCheck %s --check-prefix=MODULE
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-run-where-present{dialects=math.absf pipeline="func.func(canonicalize)"}))' | FileCheck %s --check-prefix=OPNAME
// RUN: nnc-opt %s --pass-pipeline='builtin.module(func.func(nnc-run-where-present{dialects=math alongside=vector pipeline="func.func(canonicalize)"}))' | FileCheck %s --check-prefix=ALONGSIDE
// RUN: not nnc-opt %s --pass-pipeline='builtin.module(nnc-run-where-present{dialects=math pipeline="func.func(no-such-pass)"})' 2>&1 | FileCheck %s --check-prefix=BAD

// The pipeline runs on a function that holds an op of one of the dialects,
// and on no other.
// CHECK-LABEL: func.func @without
// CHECK-NEXT: arith.constant 1
// CHECK-NEXT: arith.addi
// CHECK-LABEL: func.func @with_math
// CHECK-NEXT: arith.constant 2
// CHECK-NEXT: math.absf
// CHECK-LABEL: func.func @with_vector
// CHECK-NEXT: arith.constant 2
// CHECK-NEXT: vector.broadcast
// On the module: it holds a math op, so every function is canonicalised.
// MODULE-LABEL: func.func @without
// MODULE-NEXT: arith.constant 2
// MODULE-NOT: arith.addi
// An op's full name picks the functions that hold such an op: the one with
// math.absf, not the one with vector.broadcast.
// OPNAME-LABEL: func.func @without
// OPNAME-NEXT: arith.constant 1
// OPNAME-LABEL: func.func @with_math
// OPNAME-NEXT: arith.constant 2
// OPNAME-LABEL: func.func @with_vector
// OPNAME-NEXT: arith.constant 1
// OPNAME-NEXT: arith.addi
// With `alongside`, only a function that also holds a vector op: not the
// one with math alone.
// ALONGSIDE-LABEL: func.func @with_math
// ALONGSIDE-NEXT: arith.constant 1
// ALONGSIDE-LABEL: func.func @with_vector
// ALONGSIDE-NEXT: arith.constant 1
// ALONGSIDE-LABEL: func.func @with_both
// ALONGSIDE-NEXT: arith.constant 2
// BAD: nnc-run-where-present: invalid pipeline 'func.func(no-such-pass)'
func.func @without() -> i32 {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %a : i32
  return %b : i32
}
func.func @with_math(%x: f32) -> (i32, f32) {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %a : i32
  %y = math.absf %x : f32
  return %b, %y : i32, f32
}
func.func @with_vector(%x: f32) -> (i32, vector<4xf32>) {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %a : i32
  %v = vector.broadcast %x : f32 to vector<4xf32>
  return %b, %v : i32, vector<4xf32>
}
func.func @with_both(%x: f32) -> (i32, f32, vector<4xf32>) {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %a : i32
  %y = math.absf %x : f32
  %v = vector.broadcast %x : f32 to vector<4xf32>
  return %b, %y, %v : i32, f32, vector<4xf32>
}
