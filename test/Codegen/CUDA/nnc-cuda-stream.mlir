// RUN: nnc-opt %s --pass-pipeline="builtin.module(func.func(nnc-cuda-stream))" | FileCheck %s

// One stream per call: a gpu.wait async at entry, then every allocation,
// launch, copy and free depends on the one before; nothing waits for the
// device at the end (the caller synchronises, or captures a graph).
// CHECK-LABEL: func.func @host
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[M:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] () : memref<64xf32>
// CHECK: %[[T2:.*]] = gpu.launch_func async [%[[T1]]] @kernels::@fill
// CHECK: %[[T3:.*]] = gpu.memcpy async [%[[T2]]] %arg0, %[[M]]
// CHECK: %{{.*}} = gpu.dealloc async [%[[T3]]] %[[M]]
// CHECK-NOT: gpu.wait
// CHECK: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%m: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @host(%out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %m = gpu.alloc () : memref<64xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<64xf32>)
    gpu.memcpy %out, %m : memref<64xf32>, memref<64xf32>
    gpu.dealloc %m : memref<64xf32>
    return
  }
}
