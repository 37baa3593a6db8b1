// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// Batch norm: the per-channel factor scale * rsqrt(variance + eps) first,
// then one generic op over x reading the per-channel operands through the
// last axis: (x - mean) * factor + offset, no square root per element.
// CHECK-DAG: #[[VEC:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK: %[[FACTOR:.*]] = linalg.generic {indexing_maps = [#[[VEC]], #[[VEC]], #[[VEC]]], iterator_types = ["parallel"]} ins(%arg1, %arg4 :
// CHECK-NEXT: ^bb0(%[[SCALE:[^:]*]]: f32, %[[VAR:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT: %[[V:.*]] = arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK-NEXT: %[[INV:.*]] = math.rsqrt %[[V]] : f32
// CHECK-NEXT: %[[F:.*]] = arith.mulf %[[SCALE]], %[[INV]] : f32
// CHECK-NEXT: linalg.yield %[[F]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[CH]], #[[CH]], #[[CH]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[FACTOR]], %arg2, %arg3 :
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[FAC:[^:]*]]: f32, %[[OFF:[^:]*]]: f32, %[[MEAN:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[C:.*]] = arith.subf %[[X]], %[[MEAN]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[C]], %[[FAC]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.addf %[[N]], %[[OFF]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK-NOT: math.rsqrt
func.func @batch_norm(%x: tensor<2x8xf32>, %scale: tensor<8xf32>, %offset: tensor<8xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = nn.batch_norm %x, %scale, %offset, %mean, %var {epsilon = 1.0e-3 : f64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

// Training: the statistics in one pass over x. Each row (the axis before
// the channel, W = 3 values) sums x - s and (x - s)^2, s the row's first
// value (a view of x); then, over the rows' sums alone, the mean is the
// mean of the rows' means s + S1 / W (over 2 rows), and the variance the
// sum of the rows' squared deviations S2 - S1^2 / W plus W times the
// squares of their means' deviations, over n = 6. The output normalises
// with them.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @batch_norm_train
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 0, 0] [2, 1, 4] [1, 1, 1] : tensor<2x3x4xf32> to tensor<2x4xf32>
// CHECK: %[[P:.*]]:2 = linalg.generic {indexing_maps = [#{{.*}}, #[[ALL]], #[[ALL]], #[[ALL]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0, %[[S]] : tensor<2x3x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[SH:[^:]*]]: f32, %[[A1:[^:]*]]: f32, %[[A2:[^:]*]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[SH]] : f32
// CHECK-NEXT: arith.addf %[[A1]], %[[D]] : f32
// CHECK-NEXT: %[[E:.*]] = arith.subf %[[X]], %[[SH]] : f32
// CHECK-NEXT: %[[E2:.*]] = arith.mulf %[[E]], %[[E]] : f32
// CHECK-NEXT: arith.addf %[[A2]], %[[E2]] : f32
// CHECK: %[[MS:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[IN]], #[[CH]]], iterator_types = ["parallel", "reduction"]} ins(%[[P]]#0, %[[S]] :
// CHECK: arith.constant 0.333333343 : f32
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[MS]] : tensor<4xf32>)
// CHECK: arith.constant 5.000000e-01 : f32
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} ins(%[[P]]#0, %[[P]]#1, %[[S]], %[[MEAN]] :
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK: %[[VAR:.*]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<4xf32>)
// CHECK: arith.constant 0.166666672 : f32
// CHECK: %[[FACTOR:.*]] = linalg.generic {{.*}} ins(%arg1, %[[VAR]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: math.rsqrt
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%arg0, %[[FACTOR]], %arg2, %[[MEAN]] :
// CHECK-NOT: math.rsqrt
// CHECK: return %[[Y]], %[[MEAN]], %[[VAR]]
func.func @batch_norm_train(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %offset: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y, %m, %v = nn.batch_norm_train %x, %scale, %offset {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %y, %m, %v : tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The gradient: offset_grad = sum(dy), scale_grad = sum(dy * xhat) =
// rstd * sum(dy * (x - mean)), and dx = scale * rstd * (dy - offset_grad /
// n - xhat * scale_grad / n) = g * ((dy - o) - (x - mean) * k), with rstd,
// g, o and k computed once per channel. Both sums come from one pass over
// x and dy: one reduction with two outputs.
// CHECK-LABEL: func.func @batch_norm_grad
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg3 : tensor<4xf32>)
// CHECK: math.rsqrt
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%arg1, %[[R]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[P:.*]]:2 = linalg.generic {{.*}} ins(%arg0, %arg4, %arg2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[DY:[^:]*]]: f32, %[[MEAN:[^:]*]]: f32, %[[S0:[^:]*]]: f32, %[[S1:[^:]*]]: f32):
// CHECK-NEXT: %[[DB1:.*]] = arith.addf %[[S0]], %[[DY]] : f32
// CHECK-NEXT: %[[CE:.*]] = arith.subf %[[X]], %[[MEAN]] : f32
// CHECK-NEXT: %[[DC:.*]] = arith.mulf %[[DY]], %[[CE]] : f32
// CHECK-NEXT: %[[DG1:.*]] = arith.addf %[[S1]], %[[DC]] : f32
// CHECK-NEXT: linalg.yield %[[DB1]], %[[DG1]] : f32, f32
// CHECK: %[[DB:.*]] = linalg.generic {{.*}} ins(%[[P]]#0 : tensor<2x4xf32>)
// CHECK: %[[SDG:.*]] = linalg.generic {{.*}} ins(%[[P]]#1 : tensor<2x4xf32>)
// CHECK: %[[DG:.*]] = linalg.generic {{.*}} ins(%[[SDG]], %[[R]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%[[DB]] : tensor<4xf32>)
// CHECK: arith.constant 0.166666672 : f32
// CHECK: %[[K:.*]] = linalg.generic {{.*}} ins(%[[R]], %[[DG]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.constant 0.166666672 : f32
// CHECK: %[[DX:.*]] = linalg.generic {{.*}} ins(%arg0, %arg4, %arg2, %[[G]], %[[O]], %[[K]] :
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[DY:[^:]*]]: f32, %[[MEAN:[^:]*]]: f32, %[[GG:[^:]*]]: f32, %[[OO:[^:]*]]: f32, %[[KK:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SH:.*]] = arith.subf %[[DY]], %[[OO]] : f32
// CHECK-NEXT: %[[CE:.*]] = arith.subf %[[X]], %[[MEAN]] : f32
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[CE]], %[[KK]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.subf %[[SH]], %[[T]] : f32
// CHECK-NEXT: %[[RES:.*]] = arith.mulf %[[GG]], %[[U]] : f32
// CHECK-NEXT: linalg.yield %[[RES]] : f32
// CHECK: return %[[DX]], %[[DG]], %[[DB]]
func.func @batch_norm_grad(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %mean: tensor<4xf32>, %var: tensor<4xf32>, %dy: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %dx, %ds, %db = nn.batch_norm_grad %x, %scale, %mean, %var, %dy {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %dx, %ds, %db : tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// The gradient of relu(batch_norm_train(x)), with relu_grad's only use
// the batch_norm_grad: no relu_grad pass. Each pass takes relu's gradient
// and recomputes its mask from x as the forward pass computed relu's
// input, (x - mean) * g + offset > 0, with g = scale * rstd.
// CHECK-LABEL: func.func @batch_norm_relu_grad
// CHECK: arith.maximumf
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>)
// CHECK: math.rsqrt
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%arg1, %[[R]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[P:.*]]:2 = linalg.generic {{.*}} ins(%arg0, %arg3, %[[MEAN:[^,]*]], %[[G]], %arg2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[GR:[^:]*]]: f32, %[[M:[^:]*]]: f32, %[[GG:[^:]*]]: f32, %[[OFF:[^:]*]]: f32, %[[S0:[^:]*]]: f32, %[[S1:[^:]*]]: f32):
// CHECK-NEXT: %[[CE:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[N:.*]] = arith.mulf %[[CE]], %[[GG]] : f32
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[N]], %[[OFF]] : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[Y]], %[[ZERO]] : f32
// CHECK-NEXT: %[[DY:.*]] = arith.select %[[POS]], %[[GR]], %[[ZERO]] : f32
// CHECK-NEXT: arith.addf %[[S0]], %[[DY]] : f32
// CHECK: %[[DX:.*]] = linalg.generic {{.*}} ins(%arg0, %arg3, %[[MEAN]], %[[G]], %arg2, %{{.*}}, %{{.*}} :
// CHECK: arith.cmpf ogt
// CHECK: return %{{.*}}, %[[DX]]
func.func @batch_norm_relu_grad(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %offset: tensor<4xf32>, %g: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y, %m, %v = nn.batch_norm_train %x, %scale, %offset {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  %r = nn.relu %y : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %dr = nn.relu_grad %r, %g : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %dx, %ds, %db = nn.batch_norm_grad %x, %scale, %m, %v, %dr {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %r, %dx, %ds, %db : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A relu_grad that something else reads too stays a pass of its own, and
// the batch_norm_grad reads its result.
// CHECK-LABEL: func.func @shared_relu_grad
// CHECK: %[[DR:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %arg3 : tensor<2x3x4xf32>, tensor<2x3x4xf32>)
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[DR]], %{{.*}} : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NOT: arith.cmpf
// CHECK: return
func.func @shared_relu_grad(%x: tensor<2x3x4xf32>, %scale: tensor<4xf32>, %offset: tensor<4xf32>, %g: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %y, %m, %v = nn.batch_norm_train %x, %scale, %offset {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  %r = nn.relu %y : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %dr = nn.relu_grad %r, %g : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %dx, %ds, %db = nn.batch_norm_grad %x, %scale, %m, %v, %dr {epsilon = 1.0e-3 : f64} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>)
  return %dr, %dx, %ds, %db : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Moving average: decay * average + (1 - decay) * correction * value.
// CHECK-LABEL: func.func @moving_average
// CHECK: ^bb0(%[[A:[^:]*]]: f32, %[[V:[^:]*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[DECAY:.*]] = arith.constant 0.899999976 : f32
// CHECK-NEXT: %[[X:.*]] = arith.mulf %[[A]], %[[DECAY]] : f32
// CHECK-NEXT: %[[W:.*]] = arith.constant 1.200000e-01 : f32
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[V]], %[[W]] : f32
// CHECK-NEXT: arith.addf %[[X]], %[[Y]] : f32
func.func @moving_average(%a: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nn.moving_average %a, %v {decay = 0.9 : f64, correction = 1.2 : f64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
