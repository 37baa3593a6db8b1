// RUN: nnc-opt %s --split-input-file --verify-diagnostics

// One case per verifier message of the nn dialect's discardable attributes.

// expected-error @below {{'builtin.module' op 'nn.batch_size' must be an i64 integer, got 2 : i32}}
module attributes {nn.batch_size = 2 : i32} {}

// -----

// expected-error @below {{'builtin.module' op 'nn.batch_size' must be at least 1, got 0}}
module attributes {nn.batch_size = 0 : i64} {}

// -----

// expected-error @below {{'nn.layers' must be an array of {name, op, shape} dictionaries, got "fc"}}
module attributes {nn.layers = "fc"} {}

// -----

// expected-error @below {{'nn.layers' entry 0 must be a dictionary {name, op, shape}, got "fc"}}
module attributes {nn.layers = ["fc"]} {}

// -----

// expected-error @below {{'nn.layers' entry 1 needs a string 'name'}}
module attributes {nn.layers = [{name = "a", op = "relu", shape = array<i64: 2>},
                                {op = "relu", shape = array<i64: 2>}]} {}

// -----

// expected-error @below {{'nn.layers' entry 0 needs a string 'op'}}
module attributes {nn.layers = [{name = "a", op = 1 : i64, shape = array<i64: 2>}]} {}

// -----

// expected-error @below {{'nn.layers' entry 0 needs an array<i64> 'shape'}}
module attributes {nn.layers = [{name = "a", op = "relu", shape = [2, 3]}]} {}

// -----

// expected-error @below {{'nn.layers' entry 0 has an unknown key 'kind'}}
module attributes {nn.layers = [{kind = "x", name = "a", op = "relu", shape = array<i64: 2>}]} {}

// -----

// expected-error @below {{'nn.build' must be a dictionary of strings, got "nnc"}}
module attributes {nn.build = "nnc"} {}

// -----

// expected-error @below {{'nn.build' entry 'jobs' must be a string, got 3 : i64}}
module attributes {nn.build = {compiler = "nnc", jobs = 3 : i64}} {}

// -----

// expected-error @below {{'builtin.module' op 'nn.benchmark' must be "tf_cnn_benchmarks", got "mlperf"}}
module attributes {nn.benchmark = "mlperf"} {}

// -----

// expected-error @below {{'nn.benchmark' must be "tf_cnn_benchmarks", got 1 : i64}}
module attributes {nn.benchmark = 1 : i64} {}

// -----

// expected-error @below {{'builtin.module' op 'nn.size' is not an attribute of the nn dialect}}
module attributes {nn.size = 2 : i64} {}

// -----

// expected-error @below {{'builtin.module' op 'nn.name' belongs on a function argument or result, not on the module}}
module attributes {nn.name = "m"} {}

// -----

// expected-error @below {{'func.func' op 'nn.batch_size' belongs on the module, not on 'func.func'}}
func.func @f() attributes {nn.batch_size = 2 : i64} {
  return
}

// -----

func.func @f(%x: tensor<2xf32>) {
  // expected-error @below {{'nn.relu' op 'nn.param' belongs on a function argument, not on 'nn.relu'}}
  %0 = nn.relu %x {nn.param = "w"} : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// expected-error @below {{'func.func' op argument 0: 'nn.name' must be a non-empty string, got 1 : i64}}
func.func @f(%x: tensor<2xf32> {nn.name = 1 : i64}) {
  return
}

// -----

// expected-error @below {{'func.func' op result 0: 'nn.name' must be a non-empty string, got ""}}
func.func @f(%x: tensor<2xf32>) -> (tensor<2xf32> {nn.name = ""}) {
  return %x : tensor<2xf32>
}

// -----

// expected-error @below {{argument 0: 'nn.layout' must be "NHWC" or "NC", got "NCHW"}}
func.func @f(%x: tensor<1x2x2x3xf32> {nn.layout = "NCHW"}) {
  return
}

// -----

// expected-error @below {{argument 0: 'nn.layout' "NHWC" needs a rank-4 argument, got 'tensor<2x4xf32>'}}
func.func @f(%x: tensor<2x4xf32> {nn.layout = "NHWC"}) {
  return
}

// -----

// expected-error @below {{argument 0: 'nn.classes' must be an i64 integer, got 3 : i32}}
func.func @f(%y: tensor<2xi32> {nn.classes = 3 : i32}) {
  return
}

// -----

// expected-error @below {{argument 0: 'nn.classes' must be at least 2, got 1}}
func.func @f(%y: tensor<2xi32> {nn.classes = 1 : i64}) {
  return
}

// -----

// expected-error @below {{argument 0: 'nn.classes' marks labels, a rank-1 integer argument, not 'tensor<2x3xf32>'}}
func.func @f(%y: tensor<2x3xf32> {nn.classes = 3 : i64}) {
  return
}

// -----

nn.parameter @w : tensor<4xf32> = #nn.zeros
// expected-error @below {{argument 0: 'nn.param' must be a string, got @w}}
func.func @f(%w: tensor<4xf32> {nn.param = @w}) {
  return
}

// -----

nn.parameter @w : tensor<4xf32> = #nn.zeros
// expected-error @below {{argument 0: 'nn.param' names 'q', which is no nn.parameter of the enclosing module}}
func.func @f(%w: tensor<4xf32> {nn.param = "q"}) {
  return
}

// -----

nn.parameter @w : tensor<4x3xf32> = #nn.zeros
// expected-error @below {{argument 0: 'nn.param' names nn.parameter @w of type 'tensor<4x3xf32>', but the argument has type 'memref<3x4xf32>'}}
func.func @f(%w: memref<3x4xf32> {nn.param = "w"}) {
  return
}

// -----

nn.parameter @w : tensor<4xf32> = #nn.zeros
// expected-error @below {{argument 0: 'nn.param' marks a parameter, which takes no 'nn.name'}}
func.func @f(%w: tensor<4xf32> {nn.name = "w", nn.param = "w"}) {
  return
}

// -----

nn.parameter @w : tensor<4xf32> = #nn.zeros
// expected-error @below {{argument 0: 'nn.updates' belongs on a function result, not on a function argument}}
func.func @f(%w: tensor<4xf32> {nn.updates = "w"}) {
  return
}

// -----

// expected-error @below {{argument 0: 'nn.batch_size' belongs on the module, not on a function argument}}
func.func @f(%x: tensor<2xf32> {nn.batch_size = 2 : i64}) {
  return
}

// -----

// expected-error @below {{argument 0: 'nn.label' is not an attribute of the nn dialect}}
func.func @f(%x: tensor<2xi32> {nn.label = 3 : i64}) {
  return
}

// -----

// expected-error @below {{result 0: 'nn.classes' belongs on a function argument, not on a function result}}
func.func @f(%x: tensor<2xi32>) -> (tensor<2xi32> {nn.classes = 3 : i64}) {
  return %x : tensor<2xi32>
}

// -----

// expected-error @below {{result 0: 'nn.updates' names 'w', which is no nn.parameter of the enclosing module}}
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32> {nn.updates = "w"}) {
  return %x : tensor<4xf32>
}

// -----

nn.parameter @w : tensor<4xf32> = #nn.zeros
// expected-error @below {{result 0: 'nn.updates' names nn.parameter @w of type 'tensor<4xf32>', but the result has type 'tensor<4xf16>'}}
func.func @f(%x: tensor<4xf16>) -> (tensor<4xf16> {nn.updates = "w"}) {
  return %x : tensor<4xf16>
}
