// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(convert-linalg-to-gpu))" | FileCheck %s

// An elementwise op over 2x3x5 = 30 elements: one block of 30 threads, each
// delinearising its index (innermost dimension fastest) and computing one
// element.
// CHECK-LABEL: func.func @elementwise
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c30{{.*}}
// CHECK: %[[B:.*]] = arith.muli %[[BX]], %c30
// CHECK: %[[ID:.*]] = arith.addi %[[B]], %[[TX]]
// CHECK: arith.remui %[[ID]], %c5
// CHECK: arith.divui %[[ID]], %c5
// CHECK: arith.negf
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @elementwise(%x: memref<2x3x5xf32>, %y: memref<2x3x5xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<2x3x5xf32>) outs(%y : memref<2x3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// 1000 elements: blocks of 256 threads, 4 blocks, the last one guarded.
// CHECK-LABEL: func.func @guarded
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c256
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c1000
// CHECK: scf.if %[[IN]]
func.func @guarded(%x: memref<1000xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%x : memref<1000xf32>)
  return
}

// -----

// A reduction over the rows of [8, 16]: one thread per column, the rows
// summed sequentially inside it. A scalar update runs on one thread.
// CHECK-LABEL: func.func @reductions
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c16
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c8{{.*}}
// CHECK: arith.addf
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}, {{.*}} threads({{.*}}) in (%{{.*}} = %c1
// CHECK: arith.mulf
#rows = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#s = affine_map<() -> ()>
func.func @reductions(%x: memref<8x16xf32>, %g: memref<16xf32>, %step: memref<f32>) {
  linalg.generic {indexing_maps = [#rows, #col], iterator_types = ["reduction", "parallel"]} ins(%x : memref<8x16xf32>) outs(%g : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#s], iterator_types = []} outs(%step : memref<f32>) {
  ^bb0(%o: f32):
    %d = arith.mulf %o, %o : f32
    linalg.yield %d : f32
  }
  return
}
