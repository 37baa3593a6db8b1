// RUN: nnc-opt %s | FileCheck %s
// RUN: nnc-opt %s | nnc-opt | FileCheck %s
// RUN: nnc-opt %s --mlir-print-op-generic | nnc-opt | FileCheck %s

// The model interface attributes, each where it belongs, verify and
// round-trip: the module's batch size, layer table, build information and
// benchmark;
// the names, layout and classes of inputs and labels; the parameter an
// argument carries and the one a result updates (tensors before
// bufferization, buffers after).

// CHECK-LABEL: module @m attributes {
// CHECK-SAME: nn.batch_size = 2 : i64
// CHECK-SAME: nn.benchmark = "tf_cnn_benchmarks"
// CHECK-SAME: nn.build = {compiler = "nnc test", target = "cpu"}
// CHECK-SAME: nn.layers = [{name = "fc", op = "matmul", shape = array<i64: 2, 3>}, {name = "act", op = "relu", shape = array<i64: 2, 3>}]
module @m attributes {nn.batch_size = 2 : i64,
    nn.benchmark = "tf_cnn_benchmarks",
    nn.build = {compiler = "nnc test", target = "cpu"},
    nn.layers = [{name = "fc", op = "matmul", shape = array<i64: 2, 3>},
                 {name = "act", op = "relu", shape = array<i64: 2, 3>}]} {
  nn.parameter @w : tensor<4x3xf32> = #nn.zeros

  // CHECK: func.func @forward(%{{.*}}: tensor<2x4xf32> {nn.layout = "NC", nn.name = "x"}) -> (tensor<2x3xf32> {nn.name = "probs"})
  func.func @forward(%x: tensor<2x4xf32> {nn.layout = "NC", nn.name = "x"})
      -> (tensor<2x3xf32> {nn.name = "probs"}) {
    %w = nn.get_param @w : tensor<4x3xf32>
    %0 = nn.matmul %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }

  // CHECK: func.func @images(%{{.*}}: tensor<2x8x8x3xf32> {nn.layout = "NHWC", nn.name = "images"}, %{{.*}}: tensor<2xi64> {nn.classes = 10 : i64, nn.name = "labels"})
  func.func @images(%x: tensor<2x8x8x3xf32> {nn.layout = "NHWC", nn.name = "images"},
                    %y: tensor<2xi64> {nn.classes = 10 : i64, nn.name = "labels"}) {
    return
  }

  // CHECK: func.func @step(%{{.*}}: tensor<4x3xf32> {nn.param = "w"}, %{{.*}}: tensor<4x3xf32>) -> (tensor<4x3xf32> {nn.updates = "w"})
  func.func @step(%w: tensor<4x3xf32> {nn.param = "w"}, %g: tensor<4x3xf32>)
      -> (tensor<4x3xf32> {nn.updates = "w"}) {
    return %g : tensor<4x3xf32>
  }

  // CHECK: func.func @step_buffers(%{{.*}}: memref<4x3xf32> {nn.param = "w"}, %{{.*}}: memref<2xi32> {nn.classes = 3 : i64, nn.name = "y"}, %{{.*}}: memref<f32> {bufferize.result, nn.name = "loss"}) -> (memref<4x3xf32> {nn.updates = "w"})
  func.func @step_buffers(%w: memref<4x3xf32> {nn.param = "w"},
                          %y: memref<2xi32> {nn.classes = 3 : i64, nn.name = "y"},
                          %out: memref<f32> {bufferize.result, nn.name = "loss"})
      -> (memref<4x3xf32> {nn.updates = "w"}) {
    return %w : memref<4x3xf32>
  }

  // A module nested in the model's (nnc-nest-call-components) finds the
  // parameters in the model's.
  // CHECK: module attributes {nnc.call_component}
  // CHECK-NEXT: func.func @nested(%{{.*}}: tensor<4x3xf32> {nn.param = "w"})
  module attributes {nnc.call_component} {
    func.func @nested(%w: tensor<4x3xf32> {nn.param = "w"}) {
      return
    }
  }
}
