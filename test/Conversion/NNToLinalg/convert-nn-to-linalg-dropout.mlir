// RUN: nnc-opt %s --convert-nn-to-linalg | FileCheck %s

// Training dropout: one elementwise op. The row-major index and the i64
// step, used as it is, are the Philox4x32-10 counter, the seed its key
// (0x0000000100000002: k0 = 2, k1 = 1); ten rounds of two 32x32->64
// multiplies with the Weyl key bumps; the first word is compared with
// (1 - 0.25) * 2^32 = 3221225472, kept elements scaled by 1 / 0.75.
// CHECK-LABEL: func.func @dropout_train
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<i64>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i64, %{{.*}}: f32):
// CHECK-NOT: arith.fptoui
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK-COUNT-20: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[T:.*]] = arith.constant 3221225472 : i64
// CHECK: %[[KEEP:.*]] = arith.cmpi ult, %{{.*}}, %[[T]] : i64
// CHECK: arith.constant 1.33333337 : f32
// CHECK: arith.select %[[KEEP]]
func.func @dropout_train(%x: tensor<2x3xf32>, %step: tensor<i64>) -> tensor<2x3xf32> {
  %0 = nn.dropout_train %x, %step {rate = 0.25 : f64, seed = 4294967298 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
