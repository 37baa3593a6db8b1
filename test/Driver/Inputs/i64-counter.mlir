// An i64 model without parameters: it compiles and runs.
func.func @forward(%x: tensor<2x8xi64>) -> tensor<2x8xi64> {
  return %x : tensor<2x8xi64>
}
