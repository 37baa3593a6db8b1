//===- NNGradOps.td - gradient and training ops -------------*- tablegen -*-===//
//
// Part of nnc. The ops reverse-mode differentiation emits (the gradients of
// the layers and losses) and the training step's optimizer updates. Included
// by NNOps.td. Gradient ops spell out their result type; their verifiers
// recheck it against the forward op's shape rule.
//
//===----------------------------------------------------------------------===//

#ifndef NN_GRAD_OPS_TD
#define NN_GRAD_OPS_TD

class NN_GradOp<string mnemonic, list<Trait> traits = []>
    : NN_Op<mnemonic, !listconcat(traits, [Pure])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gradients of layers
//===----------------------------------------------------------------------===//

def NN_Conv2DBackpropInputOp : NN_GradOp<"conv2d_backprop_input"> {
  let summary = "Gradient of conv2d with respect to its input";
  let description = [{
    `output_grad` has the type of the convolution's output; the result has
    the input's type. The attributes are the convolution's.
  }];
  let arguments = (ins NN_FloatTensor:$output_grad, NN_FloatTensor:$filter,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       NN_PaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let results = (outs NN_FloatTensor:$input_grad);
}

def NN_Conv2DBackpropFilterOp : NN_GradOp<"conv2d_backprop_filter"> {
  let summary = "Gradient of conv2d with respect to its filter";
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$output_grad,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       NN_PaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let results = (outs NN_FloatTensor:$filter_grad);
}

def NN_BiasAddGradOp : NN_GradOp<"bias_add_grad"> {
  let summary = "Gradient of bias_add with respect to the bias";
  let description = [{ The sum of `output_grad` over every axis but the last. }];
  let arguments = (ins NN_FloatTensor:$output_grad);
  let results = (outs NN_FloatTensor:$bias_grad);
}

def NN_MaxPool2DGradOp : NN_GradOp<"max_pool2d_grad"> {
  let summary = "Gradient of max_pool2d with respect to its input";
  let description = [{
    Each window's gradient goes to the first position (in row-major window
    order) holding the window's maximum, as TensorFlow and PyTorch route it.
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$output_grad,
                       DenseI64ArrayAttr:$window,
                       DenseI64ArrayAttr:$strides,
                       NN_PaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let results = (outs NN_FloatTensor:$input_grad);
}

def NN_AvgPool2DGradOp : NN_GradOp<"avg_pool2d_grad"> {
  let summary = "Gradient of avg_pool2d with respect to its input";
  let description = [{
    Each window's gradient is shared equally by the real (unpadded)
    positions it averaged.
  }];
  let arguments = (ins NN_FloatTensor:$output_grad,
                       DenseI64ArrayAttr:$window,
                       DenseI64ArrayAttr:$strides,
                       NN_PaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let results = (outs NN_FloatTensor:$input_grad);
}

def NN_LRNGradOp : NN_GradOp<"lrn_grad"> {
  let summary = "Gradient of lrn with respect to its input";
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$output_grad,
                       I64Attr:$depth_radius,
                       F64Attr:$bias, F64Attr:$alpha, F64Attr:$beta);
  let results = (outs NN_FloatTensor:$input_grad);
}

// Activation gradients from the activation's output: relu passes the
// gradient where the output is positive, sigmoid multiplies it by y(1-y),
// tanh by 1-y^2.
class NN_ActivationGradOp<string mnemonic, string what>
    : NN_GradOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = what;
  let arguments = (ins NN_FloatTensor:$output, NN_FloatTensor:$output_grad);
  let results = (outs NN_FloatTensor:$input_grad);
}
def NN_ReluGradOp : NN_ActivationGradOp<"relu_grad", "Gradient of relu">;
def NN_SigmoidGradOp
    : NN_ActivationGradOp<"sigmoid_grad", "Gradient of sigmoid">;
def NN_TanhGradOp : NN_ActivationGradOp<"tanh_grad", "Gradient of tanh">;

def NN_SoftmaxGradOp : NN_GradOp<"softmax_grad", [SameOperandsAndResultType]> {
  let summary = "Gradient of softmax: y * (dy - sum(dy * y)) along `axis`";
  let arguments = (ins NN_FloatTensor:$output, NN_FloatTensor:$output_grad,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs NN_FloatTensor:$input_grad);
}

def NN_ScaleOp : NN_GradOp<"scale"> {
  let summary = "x * s * factor, with s a scalar tensor";
  let description = [{
    Scales a tensor by a runtime scalar and a constant: the gradients of
    l2_loss (`factor` 1) and weight_decay (`factor` = its scale).
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_ScalarTensor:$scalar,
                       DefaultValuedAttr<F64Attr, "1.0">:$factor);
  let results = (outs NN_FloatTensor:$output);
}

def NN_SparseSoftmaxCrossEntropyGradOp
    : NN_GradOp<"sparse_softmax_cross_entropy_grad"> {
  let summary = "Gradient of sparse_softmax_cross_entropy w.r.t. the logits";
  let description = [{ `(softmax(logits) - onehot(labels)) / N * loss_grad`. }];
  let arguments = (ins NN_FloatTensor:$logits, NN_LabelTensor:$labels,
                       NN_ScalarTensor:$loss_grad);
  let results = (outs NN_FloatTensor:$logits_grad);
}

def NN_CategoricalCrossEntropyGradOp
    : NN_GradOp<"categorical_cross_entropy_grad"> {
  let summary = "Gradient of categorical_cross_entropy w.r.t. the probabilities";
  let description = [{
    Through Keras' normalisation `p = probs / sum(probs)` and its clip to
    `[epsilon, 1 - epsilon]` (no gradient where the clip is active):
    `d probs[i, j] = loss_grad / N * (-[j = label] / (p[i, label] s_i)
    + [p[i, label] unclipped] / s_i)` with `s_i` the row sum.
  }];
  let arguments = (ins NN_FloatTensor:$probs, NN_LabelTensor:$labels,
                       NN_ScalarTensor:$loss_grad,
                       DefaultValuedAttr<F64Attr, "1.0e-7">:$epsilon);
  let results = (outs NN_FloatTensor:$probs_grad);
}

def NN_BatchNormGradOp : NN_GradOp<"batch_norm_grad"> {
  let summary = "Gradient of batch_norm_train";
  let description = [{
    With `xhat = (x - mean) / sqrt(variance + epsilon)` and n the elements
    per channel: `scale_grad = sum(dy * xhat)`, `offset_grad = sum(dy)`,
    `input_grad = scale / sqrt(variance + epsilon) * (dy - offset_grad / n
    - xhat * scale_grad / n)`.
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$scale,
                       NN_FloatTensor:$mean, NN_FloatTensor:$variance,
                       NN_FloatTensor:$output_grad, F64Attr:$epsilon);
  let results = (outs NN_FloatTensor:$input_grad, NN_FloatTensor:$scale_grad,
                      NN_FloatTensor:$offset_grad);
}

def NN_MeanGradOp : NN_GradOp<"mean_grad"> {
  let summary = "Gradient of mean: the output's gradient spread over `axes`";
  let arguments = (ins NN_FloatTensor:$output_grad, DenseI64ArrayAttr:$axes);
  let results = (outs NN_FloatTensor:$input_grad);
}

def NN_SliceOp : NN_GradOp<"slice"> {
  let summary = "`size` entries of `axis` from `offset` (concat's gradient)";
  let arguments = (ins NN_FloatTensor:$input, I64Attr:$axis, I64Attr:$offset);
  let results = (outs NN_FloatTensor:$output);
}

//===----------------------------------------------------------------------===//
// Training step
//===----------------------------------------------------------------------===//

def NN_AssignParamOp : NN_Op<"assign_param", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemWrite]>]> {
  let summary = "Writes a new value of a parameter";
  let description = [{
    The training step's in-place update: later calls (and the runtime) see
    `value` as the parameter. nn-params-to-arguments turns it into a write
    to the parameter's buffer.
  }];
  let arguments = (ins FlatSymbolRefAttr:$name, NN_ParamTensor:$value);
  let assemblyFormat = "$name `,` $value attr-dict `:` type($value)";
}

def NN_IncrementOp : NN_Op<"increment", [Pure, SameOperandsAndResultType]> {
  let summary = "A step counter plus one";
  let description = [{
    `step + 1` on the i64 global step, which stays exact however long a
    run trains.
  }];
  let arguments = (ins NN_StepTensor:$input);
  let results = (outs NN_StepTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def NN_LearningRateOp : NN_Op<"learning_rate", [Pure]> {
  let summary = "The learning rate at a global step";
  let description = [{
    `rate * decay^(step / decay_steps)`, the exponent floored when
    `staircase` (TensorFlow's exponential_decay); with `boundaries` and
    `values`, TensorFlow's piecewise_constant instead of `rate`; `rate` when
    there is neither. With `warmup_steps` N > 0, times step / N while
    step < N. The i64 step is compared exactly with the boundaries and N,
    and converted to float for the exponent and the ramp.
  }];
  let arguments = (ins NN_StepTensor:$step, F64Attr:$rate,
                       OptionalAttr<F64Attr>:$decay,
                       OptionalAttr<I64Attr>:$decay_steps,
                       UnitAttr:$staircase,
                       OptionalAttr<DenseI64ArrayAttr>:$boundaries,
                       OptionalAttr<DenseF64ArrayAttr>:$values,
                       DefaultValuedAttr<I64Attr, "0">:$warmup_steps);
  let results = (outs NN_ScalarTensor:$learning_rate);
  let assemblyFormat = "$step attr-dict `:` functional-type(operands, results)";
}

def NN_SGDUpdateOp : NN_GradOp<"sgd_update"> {
  let summary = "One SGD step of a parameter, with momentum when given";
  let description = [{
    With `g = grad + weight_decay * param`: plain SGD `param - lr * g`.
    With a `velocity` operand (momentum, TensorFlow's MomentumOptimizer):
    `v' = momentum * v + g`, then `param - lr * v'`, or with `nesterov`
    `param - lr * (g + momentum * v')`; the second result is `v'`.
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                       NN_ScalarTensor:$learning_rate,
                       Optional<NN_FloatTensor>:$velocity,
                       DefaultValuedAttr<F64Attr, "0.0">:$momentum,
                       UnitAttr:$nesterov,
                       DefaultValuedAttr<F64Attr, "0.0">:$weight_decay);
  let results = (outs NN_FloatTensor:$new_param,
                      Optional<NN_FloatTensor>:$new_velocity);
}

def NN_AdamUpdateOp : NN_GradOp<"adam_update"> {
  let summary = "One Adam step of a parameter (Keras' formulation)";
  let description = [{
    With `g = grad + weight_decay * param` and `t = step + 1` (counted in
    i64, then converted to the parameter's type):
    `m' = beta1 m + (1 - beta1) g`, `v' = beta2 v + (1 - beta2) g^2`,
    `param - lr sqrt(1 - beta2^t) / (1 - beta1^t) * m' / (sqrt(v') + epsilon)`.
  }];
  let arguments = (ins NN_FloatTensor:$param, NN_FloatTensor:$grad,
                       NN_FloatTensor:$m, NN_FloatTensor:$v,
                       NN_ScalarTensor:$learning_rate, NN_StepTensor:$step,
                       F64Attr:$beta1, F64Attr:$beta2, F64Attr:$epsilon,
                       DefaultValuedAttr<F64Attr, "0.0">:$weight_decay);
  let results = (outs NN_FloatTensor:$new_param, NN_FloatTensor:$new_m,
                      NN_FloatTensor:$new_v);
}

def NN_CorrectCountOp : NN_Op<"correct_count", [Pure]> {
  let summary = "How many rows' arg-max equals their label";
  let description = [{ Ties go to the first maximum, as argmax does. }];
  let arguments = (ins NN_FloatTensor:$logits, NN_LabelTensor:$labels);
  let results = (outs 0DTensorOf<[I32]>:$count);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // NN_GRAD_OPS_TD
