// RUN: nnc-opt %s --nnc-in-place-updates --split-input-file --verify-diagnostics | FileCheck %s

// An update result that is the parameter's buffer is dropped; one that is
// another buffer is copied into the parameter's first.
// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[W:.*]]: memref<4xf32> {nn.param = "w"}, %[[V:.*]]: memref<4xf32> {nn.param = "v"}, %[[X:.*]]: memref<4xf32>) -> memref<f32> {
// CHECK: memref.copy %[[X]], %[[V]]
// CHECK-NEXT: return %{{.*}} : memref<f32>
module {
  nn.parameter @w : tensor<4xf32> = #nn.zeros
  nn.parameter @v : tensor<4xf32> = #nn.zeros
  func.func @train_step(%w: memref<4xf32> {nn.param = "w"},
                        %v: memref<4xf32> {nn.param = "v"},
                        %x: memref<4xf32>)
      -> (memref<f32>, memref<4xf32> {nn.updates = "w"},
          memref<4xf32> {nn.updates = "v"}) {
    %l = memref.alloc() : memref<f32>
    return %l, %w, %x : memref<f32>, memref<4xf32>, memref<4xf32>
  }
}

// -----

module {
  nn.parameter @w : tensor<4xf32> = #nn.zeros
  // expected-error @+1 {{'func.func' op updates 'w', which it does not take as a buffer}}
  func.func @orphan(%x: memref<4xf32>) -> (memref<4xf32> {nn.updates = "w"}) {
    return %x : memref<4xf32>
  }
}
