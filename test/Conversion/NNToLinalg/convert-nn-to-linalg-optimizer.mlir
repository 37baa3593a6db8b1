// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// Parameters and the optimizer stay for the training-step passes.
// CHECK-LABEL: module
// CHECK: nn.parameter @w
// CHECK: nn.optimizer <sgd>
// CHECK: nn.get_param @w
nn.parameter @w : tensor<3xf32> = #nn.zeros
nn.optimizer <sgd> {learning_rate = 0.1 : f64}
func.func @params() -> tensor<3xf32> {
  %0 = nn.get_param @w : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The learning rate at the i64 step: the constant rate, or rate *
// decay^(step / decay_steps) with the step converted to float, the exponent
// floored with staircase.
// CHECK-DAG: #[[S:.*]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @learning_rate
// CHECK: %[[C:.*]] = linalg.generic {indexing_maps = [#[[S]], #[[S]]], iterator_types = []} ins(%arg0 : tensor<i64>)
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[RATE:.*]] = arith.constant 0.00999999977 : f32
// CHECK-NEXT: linalg.yield %[[RATE]] : f32
// CHECK: %[[E:.*]] = linalg.generic {indexing_maps = [#[[S]], #[[S]]], iterator_types = []} ins(%arg0 : tensor<i64>)
// CHECK-NEXT: ^bb0(%[[STEP:[^:]*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[RATE:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[SF:.*]] = arith.sitofp %[[STEP]] : i64 to f32
// CHECK-NEXT: %[[N:.*]] = arith.constant 1.000000e+02 : f32
// CHECK-NEXT: %[[X:.*]] = arith.divf %[[SF]], %[[N]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[P:.*]] = math.powf %[[D]], %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[RATE]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: %[[F:.*]] = linalg.generic {indexing_maps = [#[[S]], #[[S]]], iterator_types = []} ins(%arg0 : tensor<i64>)
// CHECK-NEXT: ^bb0(%[[STEP:[^:]*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[RATE:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[SF:.*]] = arith.sitofp %[[STEP]] : i64 to f32
// CHECK-NEXT: %[[N:.*]] = arith.constant 1.000000e+02 : f32
// CHECK-NEXT: %[[X:.*]] = arith.divf %[[SF]], %[[N]] : f32
// CHECK-NEXT: %[[FX:.*]] = math.floor %[[X]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[P:.*]] = math.powf %[[D]], %[[FX]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[RATE]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: return %[[C]], %[[E]], %[[F]]
func.func @learning_rate(%step: tensor<i64>) -> (tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = nn.learning_rate %step {rate = 0.01 : f64} : (tensor<i64>) -> tensor<f32>
  %1 = nn.learning_rate %step {rate = 0.1 : f64, decay = 0.5 : f64, decay_steps = 100 : i64} : (tensor<i64>) -> tensor<f32>
  %2 = nn.learning_rate %step {rate = 0.1 : f64, decay = 0.5 : f64, decay_steps = 100 : i64, staircase} : (tensor<i64>) -> tensor<f32>
  return %0, %1, %2 : tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// piecewise_constant: values[i + 1] once step > boundaries[i]; warmup
// scales by step / N while step < N. Both compare the i64 step exactly.
// CHECK-LABEL: func.func @piecewise_warmup
// CHECK: ^bb0(%[[STEP:[^:]*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[V0:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[B0:.*]] = arith.constant 10 : i64
// CHECK-NEXT: %[[P0:.*]] = arith.cmpi sgt, %[[STEP]], %[[B0]] : i64
// CHECK-NEXT: %[[V1:.*]] = arith.constant 0.00999999977 : f32
// CHECK-NEXT: %[[R1:.*]] = arith.select %[[P0]], %[[V1]], %[[V0]] : f32
// CHECK-NEXT: %[[B1:.*]] = arith.constant 16777217 : i64
// CHECK-NEXT: %[[P1:.*]] = arith.cmpi sgt, %[[STEP]], %[[B1]] : i64
// CHECK-NEXT: %[[V2:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT: %[[R2:.*]] = arith.select %[[P1]], %[[V2]], %[[R1]] : f32
// CHECK-NEXT: %[[SF:.*]] = arith.sitofp %[[STEP]] : i64 to f32
// CHECK-NEXT: %[[N:.*]] = arith.constant 5.000000e+00 : f32
// CHECK-NEXT: %[[F:.*]] = arith.divf %[[SF]], %[[N]] : f32
// CHECK-NEXT: %[[RAMP:.*]] = arith.mulf %[[R2]], %[[F]] : f32
// CHECK-NEXT: %[[NI:.*]] = arith.constant 5 : i64
// CHECK-NEXT: %[[W:.*]] = arith.cmpi slt, %[[STEP]], %[[NI]] : i64
// CHECK-NEXT: %[[LR:.*]] = arith.select %[[W]], %[[RAMP]], %[[R2]] : f32
// CHECK-NEXT: linalg.yield %[[LR]] : f32
func.func @piecewise_warmup(%step: tensor<i64>) -> tensor<f32> {
  %0 = nn.learning_rate %step {rate = 0.1 : f64, boundaries = array<i64: 10, 16777217>, values = array<f64: 0.1, 0.01, 0.001>, warmup_steps = 5 : i64} : (tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// The step counter: + 1 in i64.
// CHECK-LABEL: func.func @increment
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<i64>)
// CHECK-NEXT: ^bb0(%[[S:[^:]*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[S]], %[[ONE]] : i64
// CHECK-NEXT: linalg.yield %[[N]] : i64
func.func @increment(%step: tensor<i64>) -> tensor<i64> {
  %0 = nn.increment %step : tensor<i64>
  return %0 : tensor<i64>
}

// -----

// Plain SGD: one elementwise generic writing into the parameter's own
// tensor (outs %arg0), the rank-0 learning rate broadcast:
// w - lr * g, or w - lr * (g + wd * w) with weight decay.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @sgd
// CHECK-NOT: tensor.empty
// CHECK: %[[W1:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[SCALAR]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) outs(%arg0 : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[W:[^:]*]]: f32, %[[G:[^:]*]]: f32, %[[LR:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[STEP:.*]] = arith.mulf %[[LR]], %[[G]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[W]], %[[STEP]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: %[[W2:.*]] = linalg.generic {{.*}} outs(%arg0 : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[W:[^:]*]]: f32, %[[G:[^:]*]]: f32, %[[LR:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[WD:.*]] = arith.constant 5.000000e-04 : f32
// CHECK-NEXT: %[[DW:.*]] = arith.mulf %[[WD]], %[[W]] : f32
// CHECK-NEXT: %[[GD:.*]] = arith.addf %[[G]], %[[DW]] : f32
// CHECK-NEXT: %[[STEP:.*]] = arith.mulf %[[LR]], %[[GD]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[W]], %[[STEP]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: return %[[W1]], %[[W2]]
func.func @sgd(%w: tensor<2x3xf32>, %g: tensor<2x3xf32>, %lr: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = nn.sgd_update %w, %g, %lr : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = nn.sgd_update %w, %g, %lr {weight_decay = 0.0005 : f64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Momentum: the velocity is read and written in place as well (outs
// %arg0, %arg3): v' = m v + g, then w - lr * v', or with Nesterov
// w - lr * (g + m v').
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @sgd_momentum
// CHECK: %[[M:.*]]:2 = linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[ALL]], #[[SCALAR]], #[[ALL]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg3, %arg2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) outs(%arg0, %arg3 : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[W:[^:]*]]: f32, %[[G:[^:]*]]: f32, %[[V:[^:]*]]: f32, %[[LR:[^:]*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[MOM:.*]] = arith.constant 0.899999976 : f32
// CHECK-NEXT: %[[MV:.*]] = arith.mulf %[[MOM]], %[[V]] : f32
// CHECK-NEXT: %[[VN:.*]] = arith.addf %[[MV]], %[[G]] : f32
// CHECK-NEXT: %[[STEP:.*]] = arith.mulf %[[LR]], %[[VN]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[W]], %[[STEP]] : f32
// CHECK-NEXT: linalg.yield %[[R]], %[[VN]] : f32, f32
// CHECK: %[[N:.*]]:2 = linalg.generic {{.*}} outs(%arg0, %arg3 : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[W:[^:]*]]: f32, %[[G:[^:]*]]: f32, %[[V:[^:]*]]: f32, %[[LR:[^:]*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[MOM:.*]] = arith.constant 0.899999976 : f32
// CHECK-NEXT: %[[MV:.*]] = arith.mulf %[[MOM]], %[[V]] : f32
// CHECK-NEXT: %[[VN:.*]] = arith.addf %[[MV]], %[[G]] : f32
// CHECK-NEXT: %[[MVN:.*]] = arith.mulf %[[MOM]], %[[VN]] : f32
// CHECK-NEXT: %[[LOOK:.*]] = arith.addf %[[G]], %[[MVN]] : f32
// CHECK-NEXT: %[[STEP:.*]] = arith.mulf %[[LR]], %[[LOOK]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.subf %[[W]], %[[STEP]] : f32
// CHECK-NEXT: linalg.yield %[[R]], %[[VN]] : f32, f32
// CHECK: return %[[M]]#0, %[[M]]#1, %[[N]]#0, %[[N]]#1
func.func @sgd_momentum(%w: tensor<2x3xf32>, %g: tensor<2x3xf32>, %lr: tensor<f32>, %v: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:2 = nn.sgd_update %w, %g, %lr, %v {momentum = 0.9 : f64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  %1:2 = nn.sgd_update %w, %g, %lr, %v {momentum = 0.9 : f64, nesterov} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Adam: the parameter and both moments are updated in place (outs %arg0,
// %arg2, %arg3); t = step + 1 (in i64, then converted), m' = b1 m + (1 - b1) g,
// v' = b2 v + (1 - b2) g^2, w - lr sqrt(1 - b2^t) / (1 - b1^t) * m' /
// (sqrt(v') + eps).
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @adam
// CHECK: %[[R:.*]]:3 = linalg.generic {indexing_maps = [#[[ALL]], #[[ALL]], #[[ALL]], #[[ALL]], #[[SCALAR]], #[[SCALAR]], #[[ALL]], #[[ALL]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<i64>) outs(%arg0, %arg2, %arg3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[W:[^:]*]]: f32, %[[G:[^:]*]]: f32, %[[M:[^:]*]]: f32, %[[V:[^:]*]]: f32, %[[LR:[^:]*]]: f32, %[[STEP:[^:]*]]: i64,
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[T1:.*]] = arith.addi %[[STEP]], %[[ONE]] : i64
// CHECK-NEXT: %[[T:.*]] = arith.sitofp %[[T1]] : i64 to f32
// CHECK-NEXT: %[[B1:.*]] = arith.constant 0.899999976 : f32
// CHECK-NEXT: %[[B1M:.*]] = arith.mulf %[[B1]], %[[M]] : f32
// CHECK-NEXT: %[[OB1:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[OB1G:.*]] = arith.mulf %[[OB1]], %[[G]] : f32
// CHECK-NEXT: %[[MN:.*]] = arith.addf %[[B1M]], %[[OB1G]] : f32
// CHECK-NEXT: %[[B2:.*]] = arith.constant 9.990000e-01 : f32
// CHECK-NEXT: %[[B2V:.*]] = arith.mulf %[[B2]], %[[V]] : f32
// CHECK-NEXT: %[[OB2:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT: %[[GG:.*]] = arith.mulf %[[G]], %[[G]] : f32
// CHECK-NEXT: %[[OB2GG:.*]] = arith.mulf %[[OB2]], %[[GG]] : f32
// CHECK-NEXT: %[[VN:.*]] = arith.addf %[[B2V]], %[[OB2GG]] : f32
// CHECK: %[[B2T:.*]] = math.powf %{{.*}}, %[[T]] : f32
// CHECK-NEXT: %[[C2:.*]] = arith.subf %{{.*}}, %[[B2T]] : f32
// CHECK-NEXT: %[[SQ:.*]] = math.sqrt %[[C2]] : f32
// CHECK: %[[B1T:.*]] = math.powf %{{.*}}, %[[T]] : f32
// CHECK-NEXT: %[[C1:.*]] = arith.subf %{{.*}}, %[[B1T]] : f32
// CHECK-NEXT: %[[CORR:.*]] = arith.divf %[[SQ]], %[[C1]] : f32
// CHECK-NEXT: %[[SV:.*]] = math.sqrt %[[VN]] : f32
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 1.000000e-07 : f32
// CHECK-NEXT: %[[DEN:.*]] = arith.addf %[[SV]], %[[EPS]] : f32
// CHECK-NEXT: %[[LRC:.*]] = arith.mulf %[[LR]], %[[CORR]] : f32
// CHECK-NEXT: %[[Q:.*]] = arith.divf %[[MN]], %[[DEN]] : f32
// CHECK-NEXT: %[[DELTA:.*]] = arith.mulf %[[LRC]], %[[Q]] : f32
// CHECK-NEXT: %[[WN:.*]] = arith.subf %[[W]], %[[DELTA]] : f32
// CHECK-NEXT: linalg.yield %[[WN]], %[[MN]], %[[VN]] : f32, f32, f32
// CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
func.func @adam(%w: tensor<2x3xf32>, %g: tensor<2x3xf32>, %m: tensor<2x3xf32>, %v: tensor<2x3xf32>, %lr: tensor<f32>, %t: tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:3 = nn.adam_update %w, %g, %m, %v, %lr, %t {beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-7 : f64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// With weight decay, g + wd * w replaces g in both moments.
// CHECK-LABEL: func.func @adam_weight_decay
// CHECK: ^bb0(%[[W:[^:]*]]: f32, %[[G:[^:]*]]: f32,
// CHECK-NEXT: %[[WD:.*]] = arith.constant 4.000000e-03 : f32
// CHECK-NEXT: %[[DW:.*]] = arith.mulf %[[WD]], %[[W]] : f32
// CHECK-NEXT: %[[GD:.*]] = arith.addf %[[G]], %[[DW]] : f32
// CHECK: arith.mulf %{{.*}}, %[[GD]] : f32
// CHECK: arith.mulf %[[GD]], %[[GD]] : f32
func.func @adam_weight_decay(%w: tensor<2x3xf32>, %g: tensor<2x3xf32>, %m: tensor<2x3xf32>, %v: tensor<2x3xf32>, %lr: tensor<f32>, %t: tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0:3 = nn.adam_update %w, %g, %m, %v, %lr, %t {beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-7 : f64, weight_decay = 0.004 : f64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
