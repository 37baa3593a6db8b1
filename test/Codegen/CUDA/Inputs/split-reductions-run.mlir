// Sums with integer-valued data (exact in any order), printed by main.
#id4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#c4 = affine_map<(n, h, w, c) -> (c)>
#id2 = affine_map<(i, j) -> (i, j)>
#s2 = affine_map<(i, j) -> ()>
func.func private @printMemrefF32(memref<*xf32>)

func.func @bias_grad(%x: memref<4x6x6x16xf32>, %g: memref<16xf32>) {
  linalg.generic {indexing_maps = [#id4, #c4], iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
    ins(%x : memref<4x6x6x16xf32>) outs(%g : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

func.func @full_sum(%x: memref<96x40xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id2, #s2], iterator_types = ["reduction", "reduction"]}
    ins(%x : memref<96x40xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %o, %sq : f32
    linalg.yield %t : f32
  }
  return
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %x4 = memref.alloc() : memref<4x6x6x16xf32>
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%x4 : memref<4x6x6x16xf32>) {
  ^bb0(%o: f32):
    %c = linalg.index 3 : index
    %c1 = arith.constant 1 : index
    %v = arith.addi %c, %c1 : index
    %i = arith.index_cast %v : index to i64
    %f = arith.sitofp %i : i64 to f32
    linalg.yield %f : f32
  }
  %g = memref.alloc() : memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%g : memref<16xf32>)
  call @bias_grad(%x4, %g) : (memref<4x6x6x16xf32>, memref<16xf32>) -> ()
  %gu = memref.cast %g : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%gu) : (memref<*xf32>) -> ()

  %x2 = memref.alloc() : memref<96x40xf32>
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%x2 : memref<96x40xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c40 = arith.constant 40 : index
    %c7 = arith.constant 7 : index
    %r = arith.muli %i, %c40 : index
    %k = arith.addi %r, %j : index
    %m = arith.remui %k, %c7 : index
    %m64 = arith.index_cast %m : index to i64
    %f = arith.sitofp %m64 : i64 to f32
    linalg.yield %f : f32
  }
  %s = memref.alloc() : memref<f32>
  linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
  call @full_sum(%x2, %s) : (memref<96x40xf32>, memref<f32>) -> ()
  %su = memref.cast %s : memref<f32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()
  return
}
