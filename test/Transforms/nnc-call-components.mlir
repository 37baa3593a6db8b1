// RUN: nnc-opt %s --split-input-file --nnc-nest-call-components | FileCheck %s --check-prefix=NEST
// RUN: nnc-opt %s --split-input-file --nnc-nest-call-components --nnc-flatten-call-components | FileCheck %s --check-prefix=BACK
// RUN: nnc-opt %s --split-input-file --nnc-flatten-call-components | FileCheck %s --check-prefix=MADE
// RUN: nnc-opt %s --split-input-file --nnc-nest-function-parts=parts=2 | FileCheck %s --check-prefix=PARTS
// RUN: nnc-opt %s --split-input-file --nnc-nest-function-parts=parts=2 --nnc-flatten-call-components | FileCheck %s --check-prefix=PARTS-BACK

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

// -----

// nnc-nest-function-parts: the functions that only call others (@big,
// @small) and the declarations go into one part, the others (@k, @user,
// straight lines that call nothing) into the other; a part declares what
// it calls from the other and holds a copy of the global it uses.
// Flattened, each symbol is back once, where it was.
// PARTS: module attributes {nnc.call_component_order = ["big", "table", "k", "ext", "small", "user"], test.case = "parts"} {
// PARTS-NEXT: llvm.mlir.global external constant @table
// PARTS-NEXT: module attributes {nnc.call_component, test.case = "parts"} {
// PARTS-NEXT: func.func private @k(memref<4xf32>) attributes {llvm.bareptr}
// PARTS-NEXT: func.func @big(
// PARTS: func.func private @ext(memref<4xf32>)
// PARTS-NEXT: func.func @small(
// PARTS: module attributes {nnc.call_component, test.case = "parts"} {
// PARTS-NEXT: llvm.mlir.global external constant @table("abc") {addr_space = 0 : i32, nnc.call_component_copy}
// PARTS-NEXT: func.func private @k(%{{.*}}: memref<4xf32>) attributes {llvm.bareptr} {
// PARTS: func.func @user(
// PARTS-BACK: module attributes {test.case = "parts"} {
// PARTS-BACK-NEXT: func.func @big(
// PARTS-BACK-NOT: @ext(memref
// PARTS-BACK: llvm.mlir.global external constant @table("abc") {addr_space = 0 : i32}
// PARTS-BACK-NEXT: func.func private @k(%{{.*}}: memref<4xf32>) attributes {llvm.bareptr} {
// PARTS-BACK-NOT: @table
// PARTS-BACK: func.func private @ext(memref<4xf32>)
// PARTS-BACK-NEXT: func.func @small(
// PARTS-BACK-NOT: @ext(memref
// PARTS-BACK: func.func @user(
// PARTS-BACK-NOT: nnc.call_component
module attributes {test.case = "parts"} {
  func.func @big(%x: memref<4xf32>) attributes {llvm.emit_c_interface} {
    call @k(%x) : (memref<4xf32>) -> ()
    call @k(%x) : (memref<4xf32>) -> ()
    call @k(%x) : (memref<4xf32>) -> ()
    call @k(%x) : (memref<4xf32>) -> ()
    call @k(%x) : (memref<4xf32>) -> ()
    call @k(%x) : (memref<4xf32>) -> ()
    call @k(%x) : (memref<4xf32>) -> ()
    call @ext(%x) : (memref<4xf32>) -> ()
    return
  }
  llvm.mlir.global external constant @table("abc") {addr_space = 0 : i32}
  func.func private @k(%x: memref<4xf32>) attributes {llvm.bareptr} {
    return
  }
  func.func private @ext(memref<4xf32>)
  func.func @small(%x: memref<4xf32>) {
    call @k(%x) : (memref<4xf32>) -> ()
    call @ext(%x) : (memref<4xf32>) -> ()
    return
  }
  func.func @user() {
    %p = llvm.mlir.addressof @table : !llvm.ptr
    return
  }
}

// -----

// Functions with loops and functions without control flow that call
// others go into separate parts, whatever their sizes (one of each here).
// Dealt by size alone, @entry would join @small_loop. A straight line
// that calls nothing (@store) goes with the loops.
// PARTS-LABEL: module attributes {nnc.call_component_order = ["big_loop", "entry", "small_loop", "store"], test.case = "kinds"} {
// PARTS-NEXT: module attributes {nnc.call_component, test.case = "kinds"} {
// PARTS-NEXT: func.func @big_loop(
// PARTS-NOT: module attributes
// PARTS: func.func @small_loop(
// PARTS-NOT: module attributes
// PARTS: func.func @store(
// PARTS: module attributes {nnc.call_component, test.case = "kinds"} {
// PARTS-NEXT: func.func private @big_loop(memref<4xf32>)
// PARTS-NEXT: func.func private @small_loop(memref<4xf32>)
// PARTS-NEXT: func.func private @store(memref<4xf32>)
// PARTS-NEXT: func.func @entry(
module attributes {test.case = "kinds"} {
  func.func @big_loop(%x: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %f, %x[%i] : memref<4xf32>
      memref.store %f, %x[%i] : memref<4xf32>
      memref.store %f, %x[%i] : memref<4xf32>
    }
    return
  }
  func.func @entry(%x: memref<4xf32>) {
    call @big_loop(%x) : (memref<4xf32>) -> ()
    call @small_loop(%x) : (memref<4xf32>) -> ()
    call @store(%x) : (memref<4xf32>) -> ()
    return
  }
  func.func @small_loop(%x: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
    }
    return
  }
  func.func @store(%x: memref<4xf32>) {
    %c0 = arith.constant 0 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %x[%c0] : memref<4xf32>
    return
  }
}

// -----

// A module with other top-level ops than functions and LLVM ops is one
// part, whole.
// PARTS-LABEL: module attributes {nnc.call_component_order = ["w", "f"], test.case = "whole"} {
// PARTS-NEXT: module attributes {nnc.call_component, test.case = "whole"} {
// PARTS-NEXT: nn.parameter @w
// PARTS-NEXT: func.func @f
module attributes {test.case = "whole"} {
  nn.parameter @w : tensor<4xf32> = #nn.zeros
  func.func @f() {
    return
  }
}

// -----

// Of several ops of one name, the definition is kept over declarations
// and the original over copies. Of two definitions made in the parts, the
// private one is renamed, or the later one when both are private.
// MADE-LABEL: module attributes {test.case = "clash"} {
// MADE-NEXT: llvm.func @alloc(i64) -> !llvm.ptr
// MADE-NEXT: func.func @helper() {
// MADE-NEXT: arith.constant 2
// MADE: func.func private @dup() {
// MADE-NEXT: arith.constant 3
// MADE: func.func private @helper_0() {
// MADE-NEXT: arith.constant 1
// MADE: func.func private @dup_0() {
// MADE-NEXT: arith.constant 4
// MADE: func.func @a() {
// MADE-NEXT: call @helper_0()
// MADE: llvm.mlir.global external constant @g("xyz") {addr_space = 0 : i32}
// MADE-NOT: @g
// MADE: func.func private @k() {
// MADE-NEXT: arith.constant 5
// MADE: func.func @b() {
// MADE-NEXT: call @dup_0()
// MADE-NEXT: call @helper()
// MADE-NOT: func.func
// MADE-NOT: nnc.call_component
module attributes {nnc.call_component_order = ["a", "g", "k", "b"], test.case = "clash"} {
  module attributes {nnc.call_component} {
    llvm.func @alloc(i64) -> !llvm.ptr
    func.func private @helper() {
      %c = arith.constant 1 : i32
      return
    }
    func.func private @dup() {
      %c = arith.constant 3 : i32
      return
    }
    func.func private @k()
    func.func @a() {
      call @helper() : () -> ()
      call @k() : () -> ()
      return
    }
  }
  module attributes {nnc.call_component} {
    llvm.func @alloc(i64) -> !llvm.ptr
    func.func @helper() {
      %c = arith.constant 2 : i32
      return
    }
    func.func private @dup() {
      %c = arith.constant 4 : i32
      return
    }
    llvm.mlir.global external constant @g("xyz") {addr_space = 0 : i32, nnc.call_component_copy}
    func.func private @k() {
      %c = arith.constant 5 : i32
      return
    }
    func.func @b() {
      call @dup() : () -> ()
      call @helper() : () -> ()
      return
    }
  }
  module attributes {nnc.call_component} {
    llvm.mlir.global external constant @g("xyz") {addr_space = 0 : i32}
  }
}
