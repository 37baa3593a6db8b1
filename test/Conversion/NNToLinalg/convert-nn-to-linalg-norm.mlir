// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// LRN: squares, zero-padded by depth_radius channels, summed over 2r+1
// channel-shifted views (elementwise), then x * (bias + alpha * sum)^-beta;
// beta = 0.75 is 1 / (sqrt(n) * sqrt(sqrt(n))), no call to pow.
// CHECK-LABEL: func.func @lrn
// CHECK: arith.mulf
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0, 2] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x8xf32> into tensor<1x2x2x12xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 0, 4] [1, 2, 2, 8] [1, 1, 1, 1] : tensor<1x2x2x12xf32> to tensor<1x2x2x8xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-4: arith.addf
// CHECK: %[[ALPHA:.*]] = arith.constant 9.99999974E-5 : f32
// CHECK: %[[BIAS:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[ROOT:.*]] = math.sqrt %[[N:.*]] : f32
// CHECK: %[[FOURTH:.*]] = math.sqrt %[[ROOT]] : f32
// CHECK: %[[P:.*]] = arith.mulf %{{.*}}, %[[FOURTH]] : f32
// CHECK: arith.divf %{{.*}}, %[[P]] : f32
// CHECK-NOT: math.powf
func.func @lrn(%x: tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32> {
  %0 = nn.lrn %x {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 2 : i64} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  return %0 : tensor<1x2x2x8xf32>
}

// -----

// The LRN gradient, with N = bias + alpha * S (S the window sum of x^2):
// dx = dy * N^-beta - 2 alpha beta * x * T, T the window sum of
// dy * x * N^(-beta-1). Both window sums pad the channels by the radius
// with zeros and add 2r+1 shifted views; beta = 0.75 makes the powers
// products of square roots (N^-1.75 = 1 / (N * sqrt(N) * sqrt(sqrt(N)))).
// CHECK-LABEL: func.func @lrn_grad
// CHECK: %[[SQ:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x2x2x4xf32>)
// CHECK-NEXT: ^bb0(%[[XI:[^:]*]]: f32,
// CHECK-NEXT: arith.mulf %[[XI]], %[[XI]] : f32
// CHECK: %[[PSQ:.*]] = tensor.insert_slice %[[SQ]] into %{{.*}}[0, 0, 0, 1] [1, 2, 2, 4] [1, 1, 1, 1] : tensor<1x2x2x4xf32> into tensor<1x2x2x6xf32>
// CHECK: tensor.extract_slice %[[PSQ]][0, 0, 0, 0] [1, 2, 2, 4]
// CHECK: tensor.extract_slice %[[PSQ]][0, 0, 0, 1] [1, 2, 2, 4]
// CHECK: tensor.extract_slice %[[PSQ]][0, 0, 0, 2] [1, 2, 2, 4]
// CHECK: %[[S:.*]] = linalg.generic
// CHECK-COUNT-2: arith.addf
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<1x2x2x4xf32>)
// CHECK-DAG: %[[BIAS:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[ALPHA:.*]] = arith.constant 9.99999974E-5 : f32
// CHECK: %[[AS:.*]] = arith.mulf %[[ALPHA]], %{{.*}} : f32
// CHECK-NEXT: arith.addf %[[BIAS]], %[[AS]] : f32
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg1, %arg0, %[[N]] : tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>)
// CHECK-NEXT: ^bb0(%[[DY:[^:]*]]: f32, %[[X:[^:]*]]: f32, %[[NI:[^:]*]]: f32,
// CHECK: %[[P1:.*]] = arith.mulf %{{.*}}, %[[NI]] : f32
// CHECK-NEXT: %[[R:.*]] = math.sqrt %[[NI]] : f32
// CHECK-NEXT: %[[P2:.*]] = arith.mulf %[[P1]], %[[R]] : f32
// CHECK-NEXT: %[[R4:.*]] = math.sqrt %[[R]] : f32
// CHECK-NEXT: %[[P3:.*]] = arith.mulf %[[P2]], %[[R4]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[POW:.*]] = arith.divf %[[ONE]], %[[P3]] : f32
// CHECK-NEXT: %[[DX:.*]] = arith.mulf %[[DY]], %[[X]] : f32
// CHECK-NEXT: %[[TI:.*]] = arith.mulf %[[DX]], %[[POW]] : f32
// CHECK-NEXT: linalg.yield %[[TI]] : f32
// CHECK: %[[PT:.*]] = tensor.insert_slice %[[T]] into %{{.*}}[0, 0, 0, 1] [1, 2, 2, 4] [1, 1, 1, 1] : tensor<1x2x2x4xf32> into tensor<1x2x2x6xf32>
// CHECK-COUNT-3: tensor.extract_slice %[[PT]]
// CHECK: %[[WT:.*]] = linalg.generic
// CHECK-COUNT-2: arith.addf
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%arg1, %arg0, %[[N]], %[[WT]] :
// CHECK-NEXT: ^bb0(%[[DY2:[^:]*]]: f32, %[[X2:[^:]*]]: f32, %[[N2:[^:]*]]: f32, %[[T2:[^:]*]]: f32,
// CHECK: %[[Q:.*]] = math.sqrt %[[N2]] : f32
// CHECK: math.sqrt %[[Q]] : f32
// CHECK-NOT: math.sqrt
// CHECK: %[[NB:.*]] = arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[DIRECT:.*]] = arith.mulf %[[DY2]], %[[NB]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant 1.500000e-04 : f32
// CHECK-NEXT: %[[XT:.*]] = arith.mulf %[[X2]], %[[T2]] : f32
// CHECK-NEXT: %[[CROSS:.*]] = arith.mulf %[[K]], %[[XT]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[DIRECT]], %[[CROSS]] : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
// CHECK: return %[[G]]
func.func @lrn_grad(%x: tensor<1x2x2x4xf32>, %dy: tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = nn.lrn_grad %x, %dy {alpha = 1.0e-4 : f64, beta = 0.75 : f64, bias = 2.0 : f64, depth_radius = 1 : i64} : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

// An exponent that is no multiple of 1/4 (beta = 0.6) uses math.powf.
// CHECK-LABEL: func.func @lrn_grad_powf
// CHECK: arith.constant -1.600000e+00 : f32
// CHECK: math.powf
// CHECK: arith.constant -6.000000e-01 : f32
// CHECK: math.powf
// CHECK-NOT: math.sqrt
func.func @lrn_grad_powf(%x: tensor<1x2x2x4xf32>, %dy: tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32> {
  %0 = nn.lrn_grad %x, %dy {alpha = 1.0e-4 : f64, beta = 0.6 : f64, bias = 1.0 : f64, depth_radius = 1 : i64} : (tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}
