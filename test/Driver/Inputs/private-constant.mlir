// A model whose functions share a private constant: three functions each
// add it, so that they land in different parts of the parallel code
// generation (ParallelEmit.cpp) while the constant lives in one.
func.func private @shift_a(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %y = linalg.add ins(%x, %c : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
func.func private @shift_b(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %y = linalg.add ins(%c, %x : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
func.func private @shift_c(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %y = linalg.sub ins(%x, %c : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
func.func @forward(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %a = func.call @shift_a(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %b = func.call @shift_b(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = func.call @shift_c(%b) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %d = func.call @shift_a(%c) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}
