// RUN: nnc-opt %s --nnc-distinct-results | FileCheck %s

// One buffer returned twice: the second result is a copy.
// CHECK-LABEL: func.func @twice
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT: return %[[A]], %[[C]], %[[B]] : memref<4xf32>, memref<4xf32>, memref<4xf32>
func.func @twice() -> (memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  return %a, %a, %b : memref<4xf32>, memref<4xf32>, memref<4xf32>
}
