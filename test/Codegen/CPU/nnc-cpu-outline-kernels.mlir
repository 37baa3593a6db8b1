// RUN: nnc-opt %s --nnc-cpu-outline-kernels | FileCheck %s

// Each top-level loop nest of a function with a body (an entry point, or
// the training pass the entry points call) becomes a call to a private
// noinline function of its own, taking the buffers it uses; constants are
// cloned in. Ops with results stay as they are.
// An entry left with straight-line code only is compiled without
// optimisation (noinline optnone); one with control flow left is not.
// A kernel whose buffers all have static sizes, strides and offset takes
// them as bare pointers (llvm.bareptr); one with a dynamic size does not.
// So do the model's functions; an entry point's C interface is then left to
// nnc-packed-entry-points, which reads its buffers' element types from
// nnc.bare_c_interface.
// CHECK: func.func @entry(%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[C:.*]]: memref<4xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "optnone"]}
// Identical nests (the two copies) share one function: the first one's.
// CHECK: call @nnc_kernel_0(%[[A]], %[[B]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: call @nnc_kernel_0(%[[B]], %[[A]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: call @nnc_kernel_2(%[[C]]) : (memref<4xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func @branching(%{{.*}}: memref<4xf32>, %{{.*}}: i1) attributes {llvm.bareptr} {
// CHECK: scf.if
// A private function's nests are outlined too; its fill is @entry's.
// CHECK: func.func private @helper(%[[H:.*]]: memref<4xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "optnone"]}
// CHECK: call @nnc_kernel_2(%[[H]])
// CHECK: func.func @dynamic(%{{.*}}: memref<?xf32>, %{{.*}}: memref<4xf32, strided<[2], offset: 1>>) attributes {llvm.emit_c_interface, passthrough = ["noinline", "optnone"]}
// CHECK: func.func @api(%{{.*}}: memref<4xf32>, %{{.*}}: memref<i32>) attributes {llvm.bareptr, nnc.bare_c_interface = [f32, i32], passthrough = ["noinline", "optnone"]}
// CHECK: func.func @scalar_api(%{{.*}}: memref<4xf32>, %{{.*}}: f32) attributes {llvm.emit_c_interface, passthrough = ["noinline", "optnone"]}
// CHECK: func.func @result(%{{.*}}: memref<4xf32>) -> memref<4xf32> attributes {passthrough = ["noinline", "optnone"]}
// Nests that pass one value as different arguments are different kernels,
// though they read it at the same place: %x is the second argument of the
// first, the first of the second.
// CHECK: func.func @same_value(%[[V:.*]]: memref<4xf32>, %[[SX:.*]]: memref<4xf32>, %[[W:.*]]: memref<4xf32>)
// CHECK-NEXT: call @nnc_kernel_9(%[[V]], %[[SX]])
// CHECK-NEXT: call @nnc_kernel_10(%[[SX]], %[[W]])
// CHECK: func.func private @nnc_kernel_0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>) attributes {llvm.bareptr, passthrough = ["noinline"]}
// CHECK-NEXT: linalg.copy
// CHECK-NOT: @nnc_kernel_1(
// CHECK: func.func private @nnc_kernel_2(%[[X:.*]]: memref<4xf32>)
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: linalg.fill ins(%[[ZERO]] : f32) outs(%[[X]] : memref<4xf32>)
// CHECK-NOT: @nnc_kernel_3(
// CHECK: func.func private @nnc_kernel_4(%{{.*}}: memref<?xf32>) attributes {passthrough = ["noinline"]}
// CHECK: func.func private @nnc_kernel_5(%{{.*}}: memref<4xf32, strided<[2], offset: 1>>) attributes {llvm.bareptr, passthrough = ["noinline"]}
// CHECK-NOT: @nnc_kernel_6(
// CHECK: func.func private @nnc_kernel_7(%{{.*}}: f32, %{{.*}}: memref<4xf32>)
// A contraction's loop (nnc-cpu-contractions marks it) makes a kernel that
// LLVM's vectorisers and unrollers leave alone.
// CHECK: func.func private @nnc_kernel_8(%{{.*}}: memref<4xf32>) attributes {llvm.bareptr, passthrough = ["noinline", "nnc-contraction"]}
// CHECK: func.func private @nnc_kernel_9(%[[P:.*]]: memref<4xf32>, %[[Q:.*]]: memref<4xf32>)
// CHECK: ins(%[[P]], %[[Q]] : memref<4xf32>, memref<4xf32>) outs(%[[Q]] : memref<4xf32>)
// CHECK: func.func private @nnc_kernel_10(%[[P2:.*]]: memref<4xf32>, %[[Q2:.*]]: memref<4xf32>)
// CHECK: ins(%[[P2]], %[[P2]] : memref<4xf32>, memref<4xf32>) outs(%[[Q2]] : memref<4xf32>)

func.func @entry(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.copy ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  linalg.copy ins(%b : memref<8xf32>) outs(%a : memref<8xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<4xf32>)
  return
}

func.func @branching(%c: memref<4xf32>, %p: i1) {
  scf.if %p {
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%c : memref<4xf32>)
  }
  return
}

func.func private @helper(%c: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4xf32>)
  return
}

func.func @dynamic(%d: memref<?xf32>, %s: memref<4xf32, strided<[2], offset: 1>>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%d : memref<?xf32>)
  linalg.fill ins(%zero : f32) outs(%s : memref<4xf32, strided<[2], offset: 1>>)
  return
}

// Entry points with a C interface: static buffers, a scalar (which has no
// descriptor), a result.
func.func @api(%c: memref<4xf32>, %n: memref<i32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4xf32>)
  return
}

func.func @scalar_api(%c: memref<4xf32>, %x: f32) attributes {llvm.emit_c_interface} {
  linalg.fill ins(%x : f32) outs(%c : memref<4xf32>)
  return
}

func.func @result(%c: memref<4xf32>) -> memref<4xf32> {
  return %c : memref<4xf32>
}

func.func @contraction(%c: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    memref.store %zero, %c[%i] : memref<4xf32>
  } {nnc.contraction}
  return
}

#id = affine_map<(d0) -> (d0)>
func.func @same_value(%v: memref<4xf32>, %x: memref<4xf32>, %w: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%v, %x : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%w : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  return
}
