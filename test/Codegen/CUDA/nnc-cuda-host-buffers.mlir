// RUN: nnc-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(nnc-cuda-host-buffers))" | FileCheck %s

// On the CUDA target every buffer is device memory: allocations come from
// the runtime's pool (gpu.alloc), a whole dense buffer is copied by the
// device, a strided one by a kernel (linalg.copy).
// CHECK-LABEL: func.func @buffers
// CHECK: %[[A:.*]] = gpu.alloc () : memref<4x8xf32>
// CHECK: gpu.memcpy %[[A]], %arg0 : memref<4x8xf32>, memref<4x8xf32>
// CHECK: %[[V:.*]] = memref.subview %arg1
// CHECK: linalg.copy ins(%[[A]] : memref<4x8xf32>) outs(%[[V]] : memref<4x8xf32, strided<[10, 1], offset: 11>>)
// CHECK: gpu.dealloc %[[A]] : memref<4x8xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
func.func @buffers(%x: memref<4x8xf32>, %p: memref<6x10xf32>) {
  %a = memref.alloc() : memref<4x8xf32>
  memref.copy %x, %a : memref<4x8xf32> to memref<4x8xf32>
  %v = memref.subview %p[1, 1] [4, 8] [1, 1] : memref<6x10xf32> to memref<4x8xf32, strided<[10, 1], offset: 11>>
  memref.copy %a, %v : memref<4x8xf32> to memref<4x8xf32, strided<[10, 1], offset: 11>>
  memref.dealloc %a : memref<4x8xf32>
  return
}

// -----

memref.global "private" constant @weights : memref<2xf32> = dense<[1.0, 2.0]>
func.func @constant() -> memref<2xf32> {
  // expected-error @below {{the CUDA target keeps every buffer on the device; memref.get_global would be host memory}}
  %0 = memref.get_global @weights : memref<2xf32>
  return %0 : memref<2xf32>
}
