// RUN: nnc-opt %s --convert-nn-to-linalg --split-input-file | FileCheck %s

// Losses reduce to rank-0 tensors.
// CHECK-LABEL: func.func @losses
// l2_loss: sum of squares, times 1/2.
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CHECK: arith.constant 5.000000e-01 : f32
// sparse softmax cross-entropy: row max, sum of exp, label gather, mean.
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: math.log
// CHECK: tensor.extract %arg0
// CHECK: arith.constant 2.500000e-01 : f32
// categorical: normalise, clip to [eps, 1 - eps], -log, mean.
// CHECK: arith.divf
// CHECK: arith.maximumf
// CHECK: arith.minimumf
// CHECK: math.log
// weight decay: scale / 2 times the sum of squares.
// CHECK: arith.constant 2.000000e-03 : f32
func.func @losses(%x: tensor<4x3xf32>, %y: tensor<4xi32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %0 = nn.l2_loss %x : (tensor<4x3xf32>) -> tensor<f32>
  %1 = nn.sparse_softmax_cross_entropy %x, %y : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  %2 = nn.categorical_cross_entropy %x, %y : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
  %3 = nn.weight_decay %x {scale = 0.004 : f64} : (tensor<4x3xf32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// The sparse softmax cross-entropy gradient: (softmax(x) - onehot(label))
// * loss_grad / N, the softmax from the row maximum and the row sum of
// exp(x - max) (as in the loss), the one-hot from the column index.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @sparse_ce_grad
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MI:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[MAX:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x3xf32>) outs(%[[MI]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0, %[[MAX]] :
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[M:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[E]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]], #[[ROW]], #[[ROW]], #[[SCALAR]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%arg0, %[[MAX]], %[[SUM]], %arg1, %arg2 : tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<f32>)
// CHECK-NEXT: ^bb0(%[[X:[^:]*]]: f32, %[[M:[^:]*]]: f32, %[[S:[^:]*]]: f32, %[[L:[^:]*]]: i32, %[[G:[^:]*]]: f32,
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[X]], %[[M]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[D]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.divf %[[E]], %[[S]] : f32
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[LI:.*]] = arith.index_cast %[[L]] : i32 to index
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpi eq, %[[J]], %[[LI]] : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[OH:.*]] = arith.select %[[HIT]], %[[ONE]], %[[ZERO]] : f32
// CHECK-NEXT: %[[DIFF:.*]] = arith.subf %[[P]], %[[OH]] : f32
// CHECK-NEXT: %[[INVN:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT: %[[GN:.*]] = arith.mulf %[[G]], %[[INVN]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[DIFF]], %[[GN]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @sparse_ce_grad(%x: tensor<4x3xf32>, %y: tensor<4xi32>, %g: tensor<f32>) -> tensor<4x3xf32> {
  %0 = nn.sparse_softmax_cross_entropy_grad %x, %y, %g : (tensor<4x3xf32>, tensor<4xi32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// The categorical cross-entropy gradient through Keras' normalisation
// p = probs[i, label] / s_i and clip to [eps, 1 - eps]:
// loss_grad / N * ([j = label] (1/s - 1/(p s)) + [j != label] 1/s), zero
// where the clip is active.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @categorical_ce_grad
// CHECK: %[[SUMS:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x3xf32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: arith.addf %[[ACC]], %[[V]] : f32
// CHECK: %[[Q:.*]] = linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x3xf32>, tensor<4xi32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %[[L:[^:]*]]: i32, %[[ACC:[^:]*]]: f32):
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[LI:.*]] = arith.index_cast %[[L]] : i32 to index
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpi eq, %[[J]], %[[LI]] : index
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[KEEP:.*]] = arith.select %[[HIT]], %[[V]], %[[ZERO]] : f32
// CHECK-NEXT: arith.addf %[[ACC]], %[[KEEP]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ROW]], #[[ROW]], #[[SCALAR]], #[[ALL]]], iterator_types = ["parallel", "parallel"]} ins(%[[SUMS]], %[[Q]], %arg1, %arg2 :
// CHECK-NEXT: ^bb0(%[[S:[^:]*]]: f32, %[[QI:[^:]*]]: f32, %[[L:[^:]*]]: i32, %[[G:[^:]*]]: f32,
// CHECK-NEXT: %[[P:.*]] = arith.divf %[[QI]], %[[S]] : f32
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[INVS:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[PS:.*]] = arith.mulf %[[P]], %[[S]] : f32
// CHECK-NEXT: %[[OWN:.*]] = arith.divf %[[ONE2]], %[[PS]] : f32
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[LI:.*]] = arith.index_cast %[[L]] : i32 to index
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpi eq, %[[J]], %[[LI]] : index
// CHECK-NEXT: %[[AT:.*]] = arith.subf %[[INVS]], %[[OWN]] : f32
// CHECK-NEXT: %[[GRAD:.*]] = arith.select %[[HIT]], %[[AT]], %[[INVS]] : f32
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 1.000000e-03 : f32
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpf ogt, %[[P]], %[[EPS]] : f32
// CHECK-NEXT: %[[ONEMEPS:.*]] = arith.constant 9.990000e-01 : f32
// CHECK-NEXT: %[[BELOW:.*]] = arith.cmpf olt, %[[P]], %[[ONEMEPS]] : f32
// CHECK-NEXT: %[[IN:.*]] = arith.andi %[[ABOVE]], %[[BELOW]] : i1
// CHECK-NEXT: %[[INVN:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT: %[[GN:.*]] = arith.mulf %[[G]], %[[INVN]] : f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[GRAD]], %[[GN]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[IN]], %[[SCALED]], %[[Z]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @categorical_ce_grad(%p: tensor<4x3xf32>, %y: tensor<4xi32>, %g: tensor<f32>) -> tensor<4x3xf32> {
  %0 = nn.categorical_cross_entropy_grad %p, %y, %g {epsilon = 1.0e-3 : f64} : (tensor<4x3xf32>, tensor<4xi32>, tensor<f32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// correct_count: each row's first maximum and its column (a strict >
// keeps the first of equal values), then the rows whose column equals the
// label (i64 labels truncated), counted in i32.
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[ID1:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[TOSCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @correct_count
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MI:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[ZI:.*]] = arith.constant 0 : i32
// CHECK: %[[AI:.*]] = linalg.fill ins(%[[ZI]] : i32) outs(%{{.*}} : tensor<4xi32>)
// CHECK: %[[ARG:.*]]:2 = linalg.generic {indexing_maps = [#[[ALL]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x3xf32>) outs(%[[MI]], %[[AI]] : tensor<4xf32>, tensor<4xi32>)
// CHECK-NEXT: ^bb0(%[[V:[^:]*]]: f32, %[[BEST:[^:]*]]: f32, %[[AT:[^:]*]]: i32):
// CHECK-NEXT: %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT: %[[JI:.*]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT: %[[GT:.*]] = arith.cmpf ogt, %[[V]], %[[BEST]] : f32
// CHECK-NEXT: %[[NB:.*]] = arith.select %[[GT]], %[[V]], %[[BEST]] : f32
// CHECK-NEXT: %[[NA:.*]] = arith.select %[[GT]], %[[JI]], %[[AT]] : i32
// CHECK-NEXT: linalg.yield %[[NB]], %[[NA]] : f32, i32
// CHECK: %[[CI:.*]] = linalg.fill ins(%[[ZI]] : i32) outs(%{{.*}} : tensor<i32>)
// CHECK: %[[COUNT:.*]] = linalg.generic {indexing_maps = [#[[ID1]], #[[ID1]], #[[TOSCALAR]]], iterator_types = ["reduction"]} ins(%[[ARG]]#1, %arg1 : tensor<4xi32>, tensor<4xi64>) outs(%[[CI]] : tensor<i32>)
// CHECK-NEXT: ^bb0(%[[A:[^:]*]]: i32, %[[L:[^:]*]]: i64, %[[N:[^:]*]]: i32):
// CHECK-NEXT: %[[LT:.*]] = arith.trunci %[[L]] : i64 to i32
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpi eq, %[[A]], %[[LT]] : i32
// CHECK-NEXT: %[[ONE:.*]] = arith.extui %[[HIT]] : i1 to i32
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[N]], %[[ONE]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
// CHECK: return %[[COUNT]] : tensor<i32>
func.func @correct_count(%x: tensor<4x3xf32>, %y: tensor<4xi64>) -> tensor<i32> {
  %0 = nn.correct_count %x, %y : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<i32>
  return %0 : tensor<i32>
}
