// RUN: nnc-opt %s --nn-export-model-interface --split-input-file --verify-diagnostics | FileCheck %s

// The description replaces the declarations, the layer table, the build
// information and the argument attributes.
// CHECK-LABEL: module @m attributes {nn.batch_size = 2 : i64} {
// CHECK: llvm.mlir.global external constant @nnc_model_json("{\22batch_size\22:2,\22build\22:{\22compiler\22:\22nnc test\22,\22target\22:\22cpu\22},\22entry_points\22:[{\22args\22:[{\22dtype\22:\22f32\22,\22name\22:\22w\22,\22role\22:\22param\22,\22shape\22:[4,3]},{\22dtype\22:\22f32\22,\22layout\22:\22NC\22,\22name\22:\22x\22,\22role\22:\22input\22,\22shape\22:[2,4]},{\22classes\22:3,\22dtype\22:\22i32\22,\22name\22:\22y\22,\22role\22:\22labels\22,\22shape\22:[2]},{\22dtype\22:\22f32\22,\22name\22:\22output0\22,\22role\22:\22output\22,\22shape\22:[]}],\22name\22:\22loss\22,\22packed\22:\22nnc_loss\22,\22symbol\22:\22_mlir_ciface_loss\22}],\22interface\22:1,\22layers\22:[{\22name\22:\22fc\22,\22op\22:\22matmul\22,\22shape\22:[2,3]}],\22name\22:\22m\22,\22optimizer\22:{\22beta1\22:0.90000000000000002,\22beta2\22:0.999,\22epsilon\22:9.9999999999999995e-08,\22kind\22:\22sgd\22,\22learning_rate\22:0.01,\22momentum\22:0.90000000000000002,\22nesterov\22:false,\22weight_decay\22:0},\22parameters\22:[{\22dtype\22:\22f32\22,\22init\22:{\22kind\22:\22truncated_normal\22,\22mean\22:0,\22stddev\22:0.10000000000000001},\22name\22:\22w\22,\22shape\22:[4,3],\22trainable\22:true}]}\00")
// CHECK-NOT: nn.parameter
// CHECK-NOT: nn.optimizer
// CHECK: func.func @loss(%{{.*}}: memref<4x3xf32>, %{{.*}}: memref<2x4xf32>, %{{.*}}: memref<2xi32>, %{{.*}}: memref<f32>) attributes {llvm.emit_c_interface}
// CHECK: func.func private @helper(%{{.*}}: memref<2x4xf32>)
// CHECK-NOT: llvm.emit_c_interface
module @m attributes {nn.batch_size = 2 : i64,
    nn.build = {compiler = "nnc test", target = "cpu"},
    nn.layers = [{name = "fc", op = "matmul", shape = array<i64: 2, 3>}]} {
  nn.parameter @w : tensor<4x3xf32> = #nn.truncated_normal<mean = 0.0, stddev = 0.1>
  nn.optimizer <sgd> {learning_rate = 0.01 : f64, momentum = 0.9 : f64}
  func.func @loss(%w: memref<4x3xf32> {nn.param = "w"},
                  %x: memref<2x4xf32> {nn.layout = "NC", nn.name = "x"},
                  %y: memref<2xi32> {nn.classes = 3 : i64, nn.name = "y"},
                  %out: memref<f32> {bufferize.result}) {
    return
  }
  func.func private @helper(%x: memref<2x4xf32>) {
    return
  }
}

// -----

// The benchmark a model reproduces is described, then dropped.
// CHECK-LABEL: module @b {
// CHECK: @nnc_model_json("{\22benchmark\22:\22tf_cnn_benchmarks\22,\22build\22:{},\22entry_points\22:[],
module @b attributes {nn.benchmark = "tf_cnn_benchmarks"} {
}

// -----

// It runs after bufferization.
module {
  // expected-error @+1 {{'func.func' op is not bufferized with out-parameters; run nn-export-model-interface after bufferization}}
  func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}

// -----

// An i64 counter is described with dtype "i64", non-trainable and zeros.
// CHECK-LABEL: module @counter {
// CHECK: @nnc_model_json({{.*}}\22parameters\22:[{\22dtype\22:\22i64\22,\22init\22:{\22kind\22:\22zeros\22},\22name\22:\22global_step\22,\22shape\22:[],\22trainable\22:false}]
module @counter {
  nn.parameter non_trainable @global_step : tensor<i64> = #nn.zeros
}
