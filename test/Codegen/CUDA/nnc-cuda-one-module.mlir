// RUN: nnc-opt %s --nnc-cuda-one-module | FileCheck %s

// Two outlined kernels (one module each) move into @nnc_kernels, named
// after their modules; the launches follow them.
// CHECK: gpu.module @nnc_kernels {
// CHECK: gpu.func @step_kernel(
// CHECK: gpu.func @step_kernel_0(
// CHECK-NOT: gpu.module
// CHECK: gpu.launch_func @nnc_kernels::@step_kernel blocks
// CHECK: gpu.launch_func @nnc_kernels::@step_kernel_0 blocks
module attributes {gpu.container_module} {
  gpu.module @step_kernel {
    gpu.func @step_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @step_kernel_0 {
    gpu.func @step_kernel(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @step(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @step_kernel::@step_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @step_kernel_0::@step_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
}
