// RUN: nnc-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(nnc-cpu-fill-borders))" | FileCheck %s

// An activation written into the interior of the next layer's padded
// input: the fill covers the border only, two slabs per padded dimension
// (rows whole, columns within the interior's rows).
// CHECK-LABEL: func.func @padded
// CHECK-NOT: linalg.fill {{.*}} outs(%arg1 :
// CHECK: %[[T:.*]] = memref.subview %arg1[0, 0, 0, 0] [2, 1, 8, 4] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[T]] :
// CHECK: %[[B:.*]] = memref.subview %arg1[0, 7, 0, 0] [2, 1, 8, 4] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[B]] :
// CHECK: %[[L:.*]] = memref.subview %arg1[0, 1, 0, 0] [2, 6, 1, 4] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[L]] :
// CHECK: %[[R:.*]] = memref.subview %arg1[0, 1, 7, 0] [2, 6, 1, 4] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padded(%x: memref<2x6x6x4xf32>, %p: memref<2x8x8x4xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%p : memref<2x8x8x4xf32>)
  %in = memref.subview %p[0, 1, 1, 0] [2, 6, 6, 4] [1, 1, 1, 1] : memref<2x8x8x4xf32> to memref<2x6x6x4xf32, strided<[256, 32, 4, 1], offset: 36>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<2x6x6x4xf32>) outs(%in : memref<2x6x6x4xf32, strided<[256, 32, 4, 1], offset: 36>>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A copy into the interior (an image padded for its first convolution),
// padded on one side only: one slab per dimension.
// CHECK-LABEL: func.func @copied
// CHECK: memref.subview %arg1[0, 5, 0, 0] [1, 2, 7, 3] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill
// CHECK: memref.subview %arg1[0, 0, 5, 0] [1, 5, 2, 3] [1, 1, 1, 1]
// CHECK-NEXT: linalg.fill
// CHECK-NOT: linalg.fill
// CHECK: memref.copy
func.func @copied(%x: memref<1x5x5x3xf32>, %p: memref<1x7x7x3xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%p : memref<1x7x7x3xf32>)
  %in = memref.subview %p[0, 0, 0, 0] [1, 5, 5, 3] [1, 1, 1, 1] : memref<1x7x7x3xf32> to memref<1x5x5x3xf32, strided<[147, 21, 3, 1]>>
  memref.copy %x, %in : memref<1x5x5x3xf32> to memref<1x5x5x3xf32, strided<[147, 21, 3, 1]>>
  return
}

// -----

// The fill stays whole when its buffer is read before the interior is
// written, when the writer reads what it overwrites (an accumulation),
// when the interior leaves channels out (LRN's padded channels), or when
// the interior is less than half of the buffer.
// CHECK-LABEL: func.func @kept
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg1 : memref<2x8x8x4xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<2x8x8x4xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg3 : memref<2x6x6x8xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg4 : memref<2x9x9x4xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @kept(%x: memref<2x6x6x4xf32>, %p: memref<2x8x8x4xf32>, %q: memref<2x8x8x4xf32>, %c: memref<2x6x6x8xf32>, %s: memref<2x9x9x4xf32>, %y: memref<2x8x8x4xf32>) {
  %z = arith.constant 0.0 : f32
  // Read first.
  linalg.fill ins(%z : f32) outs(%p : memref<2x8x8x4xf32>)
  memref.copy %p, %y : memref<2x8x8x4xf32> to memref<2x8x8x4xf32>
  %pin = memref.subview %p[0, 1, 1, 0] [2, 6, 6, 4] [1, 1, 1, 1] : memref<2x8x8x4xf32> to memref<2x6x6x4xf32, strided<[256, 32, 4, 1], offset: 36>>
  memref.copy %x, %pin : memref<2x6x6x4xf32> to memref<2x6x6x4xf32, strided<[256, 32, 4, 1], offset: 36>>
  // Accumulated into.
  linalg.fill ins(%z : f32) outs(%q : memref<2x8x8x4xf32>)
  %qin = memref.subview %q[0, 1, 1, 0] [2, 6, 6, 4] [1, 1, 1, 1] : memref<2x8x8x4xf32> to memref<2x6x6x4xf32, strided<[256, 32, 4, 1], offset: 36>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<2x6x6x4xf32>) outs(%qin : memref<2x6x6x4xf32, strided<[256, 32, 4, 1], offset: 36>>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  // Channels padded.
  linalg.fill ins(%z : f32) outs(%c : memref<2x6x6x8xf32>)
  %cin = memref.subview %c[0, 0, 0, 2] [2, 6, 6, 4] [1, 1, 1, 1] : memref<2x6x6x8xf32> to memref<2x6x6x4xf32, strided<[288, 48, 8, 1], offset: 2>>
  memref.copy %x, %cin : memref<2x6x6x4xf32> to memref<2x6x6x4xf32, strided<[288, 48, 8, 1], offset: 2>>
  // Mostly border.
  linalg.fill ins(%z : f32) outs(%s : memref<2x9x9x4xf32>)
  %sin = memref.subview %s[0, 0, 0, 0] [2, 6, 6, 4] [1, 1, 1, 1] : memref<2x9x9x4xf32> to memref<2x6x6x4xf32, strided<[324, 36, 4, 1]>>
  memref.copy %x, %sin : memref<2x6x6x4xf32> to memref<2x6x6x4xf32, strided<[324, 36, 4, 1]>>
  return
}
