// RUN: nnc %models/cifar10_cnn.nn --batch=2 --mlir-print-debuginfo | nnc-opt --nn-record-layers | FileCheck %s
// RUN: nnc-opt %s --nn-record-layers | FileCheck %s --check-prefix=NAMES

// One entry per layer of @forward, in order: its first op (parameter reads
// aside) and the shape of its last.
// CHECK: module @cifar10_cnn attributes {nn.batch_size = 2 : i64, nn.layers = [
// CHECK-SAME: {name = "conv1", op = "conv2d", shape = array<i64: 2, 24, 24, 64>},
// CHECK-SAME: {name = "pool1", op = "max_pool2d", shape = array<i64: 2, 12, 12, 64>},
// CHECK-SAME: {name = "norm1", op = "lrn", shape = array<i64: 2, 12, 12, 64>},
// CHECK-SAME: {name = "conv2", op = "conv2d", shape = array<i64: 2, 12, 12, 64>},
// CHECK-SAME: {name = "norm2", op = "lrn", shape = array<i64: 2, 12, 12, 64>},
// CHECK-SAME: {name = "pool2", op = "max_pool2d", shape = array<i64: 2, 6, 6, 64>},
// CHECK-SAME: {name = "flat", op = "reshape", shape = array<i64: 2, 2304>},
// CHECK-SAME: {name = "local3", op = "matmul", shape = array<i64: 2, 384>},
// CHECK-SAME: {name = "local4", op = "matmul", shape = array<i64: 2, 192>},
// CHECK-SAME: {name = "softmax_linear", op = "matmul", shape = array<i64: 2, 10>}]}

// Ops without a NameLoc, and functions other than @forward, are not layers.
// Inside a block instance the NameLoc is the callee of a call site, nested
// once per enclosing instance.
// NAMES: module attributes {nn.layers = [{name = "act", op = "relu", shape = array<i64: 2, 3>},
// NAMES-SAME: {name = "res.1.act", op = "tanh", shape = array<i64: 2, 3>},
// NAMES-SAME: {name = "res.1.inner.act", op = "relu", shape = array<i64: 2, 3>}]}
module {
  func.func @forward(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = nn.sigmoid %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = nn.relu %0 : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("act")
    %2 = nn.tanh %1 : (tensor<2x3xf32>) -> tensor<2x3xf32> loc(callsite("res.1.act"("m.nn":3:3) at "res.1"("m.nn":9:1)))
    %3 = nn.relu %2 : (tensor<2x3xf32>) -> tensor<2x3xf32> loc(callsite("res.1.inner.act"("m.nn":2:3) at callsite("res.1.inner"("m.nn":4:3) at "res.1"("m.nn":9:1))))
    return %3 : tensor<2x3xf32>
  }
  func.func @other(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = nn.tanh %x : (tensor<2x3xf32>) -> tensor<2x3xf32> loc("other")
    return %0 : tensor<2x3xf32>
  }
}
