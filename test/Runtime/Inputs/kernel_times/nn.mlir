// The nn stage's lines kernel_times.py reads: two convolutions and a
// product, with their shapes.
    %c1 = nn.conv2d %arg0, %w1 {strides = array<i64: 1, 1>} : (tensor<32x56x56x64xf32>, tensor<3x3x64x64xf32>) -> tensor<32x56x56x64xf32> loc(#loc1)
    %c2 = nn.conv2d %c1, %w2 {strides = array<i64: 1, 1>} : (tensor<32x56x56x64xf32>, tensor<1x1x64x256xf32>) -> tensor<32x56x56x256xf32> loc(#loc2)
    %logits = nn.matmul %p, %w3 : (tensor<32x2048xf32>, tensor<2048x1001xf32>) -> tensor<32x1001xf32> loc(#loc3)
