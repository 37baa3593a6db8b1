//===- NNTrainOps.td - training-mode forms of layers --------*- tablegen -*-===//
//
// Part of nnc. What nn-generate-training puts in place of the layers that
// behave differently in training: batch normalisation with the batch's
// statistics and the moving averages it feeds, and dropout's random mask.
// Included by NNOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef NN_TRAIN_OPS_TD
#define NN_TRAIN_OPS_TD

def NN_BatchNormTrainOp : NN_Op<"batch_norm_train", [Pure, NN_Differentiable]> {
  let summary = "Batch normalisation with the batch's statistics";
  let description = [{
    Over every axis but the last: `mean`, the biased `variance` (divided by
    the element count n), and `output = scale * (x - mean) /
    sqrt(variance + epsilon) + offset`, as TensorFlow's fused batch norm in
    training. `mean` and `variance` feed the moving averages; only `output`
    has a gradient.
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$scale,
                       NN_FloatTensor:$offset, F64Attr:$epsilon);
  let results = (outs NN_FloatTensor:$output, NN_FloatTensor:$mean,
                      NN_FloatTensor:$variance);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_DropoutTrainOp : NN_Op<"dropout_train", [Pure, NN_Differentiable]> {
  let summary = "Inverted dropout with a counter-based random mask";
  let description = [{
    Element i (row-major) is kept, and scaled by 1 / (1 - rate), when the
    first word of Philox4x32-10 with counter (i mod 2^32, i / 2^32,
    step mod 2^32, step / 2^32) and key (seed mod 2^32, seed / 2^32) is
    below (1 - rate) * 2^32; otherwise it is zero. `step` is the i64 global
    step, so a run is reproducible and every target draws the
    same mask. Its gradient is the same op on the output's gradient.
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_StepTensor:$step,
                       F64Attr:$rate, I64Attr:$seed);
  let results = (outs NN_FloatTensor:$output);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NN_MovingAverageOp : NN_Op<"moving_average", [Pure]> {
  let summary = "decay * average + (1 - decay) * correction * value";
  let description = [{
    The moving statistics of batch normalisation; `correction` is Bessel's
    n / (n - 1) for the variance, as TensorFlow's fused kernel applies it.
  }];
  let arguments = (ins NN_FloatTensor:$average, NN_FloatTensor:$value,
                       F64Attr:$decay,
                       DefaultValuedAttr<F64Attr, "1.0">:$correction);
  let results = (outs NN_FloatTensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // NN_TRAIN_OPS_TD
