// One-shot bufferization across func.call with nnc's answer to which
// operands a call's result may alias (compiler/lib/Transforms/
// CallBufferization.cpp): an operand the callee returns unchanged as that
// one result is equivalent to it, so a loop may carry it in place through
// the call; an operand the callee may or may not return aliases it with
// an unknown relation, which a loop cannot carry in place.
// RUN: nnc-opt %s -split-input-file -verify-diagnostics \
// RUN:   -one-shot-bufferize="bufferize-function-boundaries test-analysis-only" \
// RUN:   | FileCheck %s

// Each result is equivalent to the other operand: the loop carries both
// tensors in place through the call when it yields them swapped back.
// CHECK-LABEL: func.func @loop_swap
// CHECK: func.call @swap({{.*}}) {__inplace_operands_attr__ = ["true", "true"]}
// CHECK: tensor.insert {{.*}} {__inplace_operands_attr__ = ["none", "true", "none"]}
// CHECK: scf.yield {__inplace_operands_attr__ = ["true", "true"]}
func.func @swap(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  return %b, %a : tensor<4xf32>, tensor<4xf32>
}

func.func @loop_swap(%x: tensor<4xf32>, %y: tensor<4xf32>, %f: f32)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x, %b = %y)
      -> (tensor<4xf32>, tensor<4xf32>) {
    %s:2 = func.call @swap(%a, %b)
        : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
    %w = tensor.insert %f into %s#1[%i] : tensor<4xf32>
    scf.yield %w, %s#0 : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The result is one operand or the other: neither is equivalent to it.
func.func @either(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: i1)
    -> tensor<4xf32> {
  %r = arith.select %c, %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @loop_either(%x: tensor<4xf32>, %y: tensor<4xf32>, %c: i1,
                       %f: f32) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> tensor<4xf32> {
    %s = func.call @either(%a, %y, %c)
        : (tensor<4xf32>, tensor<4xf32>, i1) -> tensor<4xf32>
    %w = tensor.insert %f into %s[%i] : tensor<4xf32>
    // expected-error @+1 {{Yield operand #0 is not equivalent to the corresponding iter bbArg}}
    scf.yield %w : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
