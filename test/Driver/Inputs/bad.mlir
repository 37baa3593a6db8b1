// An .mlir input that does not verify: nnc reports it like a model error.
func.func @f(%x: tensor<2x8x8x4xf32>, %w: tensor<3x3x5x8xf32>) -> tensor<2x8x8x8xf32> {
  %0 = nn.conv2d %x, %w {dilations = array<i64: 1, 1>, padding = #nn.padding<SAME>, strides = array<i64: 1, 1>} : (tensor<2x8x8x4xf32>, tensor<3x3x5x8xf32>) -> tensor<2x8x8x8xf32>
  return %0 : tensor<2x8x8x8xf32>
}
