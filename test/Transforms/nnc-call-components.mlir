// RUN: nnc-opt %s --split-input-file --nnc-nest-call-components | FileCheck %s --check-prefix=NEST
// RUN: nnc-opt %s --split-input-file --nnc-nest-call-components --nnc-flatten-call-components | FileCheck %s --check-prefix=BACK
// RUN: nnc-opt %s --split-input-file --nnc-flatten-call-components | FileCheck %s --check-prefix=MADE

// Three groups: @step alone (the largest, so first), @pass with its two
// callers, and @other. The parameter no function uses stays in the top
// module, and so does the op after it; the nested modules carry the top
// module's attributes.
// NEST: module attributes {nnc.call_component_order = ["w", "forward", "pass", "step", "grads", "other", "fb"], test.batch = 4 : i64} {
// NEST-NEXT: nn.parameter @w
// NEST-NEXT: nn.optimizer
// NEST-NEXT: module attributes {nnc.call_component, test.batch = 4 : i64} {
// NEST-NEXT: func.func @step
// NEST: module attributes {nnc.call_component, test.batch = 4 : i64} {
// NEST-NEXT: func.func @forward
// NEST: func.func private @pass
// NEST: func.func @grads
// NEST: func.func @fb
// NEST: module attributes {nnc.call_component, test.batch = 4 : i64} {
// NEST-NEXT: func.func @other

// Flattened, every op is back in its place, the module's attributes as
// they were.
// BACK: module attributes {test.batch = 4 : i64} {
// BACK-NEXT: nn.parameter @w
// BACK-NEXT: nn.optimizer
// BACK-NEXT: func.func @forward
// BACK: func.func private @pass
// BACK: func.func @step
// BACK: func.func @grads
// BACK-NEXT: {{.*}} = call @pass
// BACK: func.func @other
// BACK: func.func @fb
// BACK-NOT: nnc.call_component
module attributes {test.batch = 4 : i64} {
  nn.parameter @w : tensor<4xf32> = #nn.zeros
  nn.optimizer <sgd> {learning_rate = 1.000000e-01 : f64}
  func.func @forward(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = call @pass(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func private @pass(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = arith.addf %x, %x : tensor<4xf32>
    %b = arith.mulf %a, %a : tensor<4xf32>
    %c = arith.subf %b, %a : tensor<4xf32>
    %d = arith.addf %c, %b : tensor<4xf32>
    %e = arith.mulf %d, %d : tensor<4xf32>
    %f = arith.subf %e, %d : tensor<4xf32>
    %g = arith.addf %f, %e : tensor<4xf32>
    %h = arith.mulf %g, %g : tensor<4xf32>
    %i = arith.subf %h, %g : tensor<4xf32>
    %j = arith.addf %i, %h : tensor<4xf32>
    return %j : tensor<4xf32>
  }
  func.func @grads(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = call @pass(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
  func.func @other() {
    return
  }
  func.func @fb(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = call @grads(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %y : tensor<4xf32>
  }
}

// -----

// A module with no function defined is left alone.
// NEST-LABEL: module attributes {test.case = "none"} {
// NEST-NEXT: nn.parameter @v
// NEST-NEXT: func.func private @external
// NEST-NEXT: }
module attributes {test.case = "none"} {
  nn.parameter @v : tensor<4xf32> = #nn.zeros
  func.func private @external(tensor<4xf32>)
}

// -----

// Symbols a pass made in the nested modules go first; one whose name is
// taken is renamed, with its uses.
// MADE: module attributes {test.case = "made"} {
// MADE-NEXT: func.func private @helper()
// MADE: func.func private @helper_0()
// MADE: func.func @a() {
// MADE-NEXT: call @helper_0()
// MADE: func.func @b() {
// MADE-NEXT: call @helper()
// MADE-NOT: nnc.call_component
module attributes {nnc.call_component_order = ["a", "b"], test.case = "made"} {
  module attributes {nnc.call_component} {
    func.func @b() {
      call @helper() : () -> ()
      return
    }
    func.func private @helper() {
      return
    }
  }
  module attributes {nnc.call_component} {
    func.func private @helper() {
      return
    }
    func.func @a() {
      call @helper() : () -> ()
      return
    }
  }
}
