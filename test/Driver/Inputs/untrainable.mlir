// An op nnc cannot differentiate (linalg.mul) on the path to the loss: the
// model still compiles and runs forward.
module @untrainable attributes {nn.batch_size = 4 : i64} {
  nn.parameter @h.weights : tensor<8x5xf32> = #nn.glorot_uniform
  nn.parameter @o.weights : tensor<5x3xf32> = #nn.glorot_uniform
  nn.optimizer <sgd> {learning_rate = 1.000000e-01 : f64}
  func.func @forward(%x: tensor<4x8xf32> {nn.name = "x"}) -> tensor<4x3xf32> {
    %hw = nn.get_param @h.weights : tensor<8x5xf32>
    %h = nn.matmul %x, %hw : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
    %e = tensor.empty() : tensor<4x5xf32>
    %sq = linalg.mul ins(%h, %h : tensor<4x5xf32>, tensor<4x5xf32>) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
    %ow = nn.get_param @o.weights : tensor<5x3xf32>
    %o = nn.matmul %sq, %ow : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
    return %o : tensor<4x3xf32>
  }
  func.func @loss(%x: tensor<4x8xf32> {nn.name = "x"}, %y: tensor<4xi32> {nn.classes = 3 : i64, nn.name = "y"}) -> tensor<f32> {
    %0 = call @forward(%x) : (tensor<4x8xf32>) -> tensor<4x3xf32>
    %loss = nn.sparse_softmax_cross_entropy %0, %y : (tensor<4x3xf32>, tensor<4xi32>) -> tensor<f32>
    return %loss : tensor<f32>
  }
}
