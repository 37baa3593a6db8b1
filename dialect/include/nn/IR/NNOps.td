//===- NNOps.td - nn dialect operations ---------------------*- tablegen -*-===//
//
// Part of nnc. Layers, losses, parameters and the optimizer declaration.
// Every layer infers its result type (InferTypeOpAdaptor); the shape rules
// live in ShapeFunctions.cpp so the model parser reports the same errors.
//
//===----------------------------------------------------------------------===//

#ifndef NN_OPS_TD
#define NN_OPS_TD

include "nn/IR/NNDialect.td"
include "nn/IR/NNAttrs.td"
include "nn/IR/NNInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Model structure
//===----------------------------------------------------------------------===//

def NN_ParameterOp : NN_Op<"parameter", [Symbol]> {
  let summary = "A named model parameter with its initialiser";
  let description = [{
    Declares a trainable tensor (weights, biases) at module level. The
    initialiser is one of the `#nn` initialiser attributes. Parameters marked
    `non_trainable` (batch-norm moving statistics) get no gradient.

    ```mlir
    nn.parameter @conv1.weights : tensor<5x5x3x64xf32> = #nn.truncated_normal<mean = 0.0, stddev = 0.05>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<NN_ParamTensor>:$type,
                       AnyAttr:$initializer,
                       UnitAttr:$non_trainable);
  let assemblyFormat = [{
    (`non_trainable` $non_trainable^)? $sym_name `:` $type `=` $initializer
    attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::RankedTensorType getTensorType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
  }];
}

def NN_GetParamOp : NN_Op<"get_param", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "Reads the current value of a parameter";
  let arguments = (ins FlatSymbolRefAttr:$name);
  let results = (outs NN_ParamTensor:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
}

def NN_OptimizerOp : NN_Op<"optimizer"> {
  let summary = "The model's optimizer and its hyper-parameters";
  let description = [{
    At most one per module. `learning_rate` is the initial rate; `schedule`
    (optional) changes it with the global step (exponential decay, or
    piecewise-constant values that replace it). With `warmup_steps` N > 0
    the rate is scaled by step / N while step < N. `weight_decay` adds
    `weight_decay * w` to the gradient of every trainable parameter.
  }];
  let arguments = (ins NN_OptimizerKindAttr:$kind,
                       F64Attr:$learning_rate,
                       DefaultValuedAttr<F64Attr, "0.0">:$momentum,
                       DefaultValuedAttr<BoolAttr, "false">:$nesterov,
                       DefaultValuedAttr<F64Attr, "0.0">:$weight_decay,
                       DefaultValuedAttr<F64Attr, "0.9">:$beta1,
                       DefaultValuedAttr<F64Attr, "0.999">:$beta2,
                       DefaultValuedAttr<F64Attr, "1.0e-7">:$epsilon,
                       OptionalAttr<AnyAttrOf<[NN_ExponentialDecayAttr,
                                               NN_PiecewiseConstantAttr]>>
                           :$schedule,
                       DefaultValuedAttr<I64Attr, "0">:$warmup_steps);
  let assemblyFormat = "$kind attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Layers
//===----------------------------------------------------------------------===//

// Results are printed under the name of the layer that made them
// (`%conv1 = nn.conv2d ...`), taken from the op's NameLoc.
def NN_LayerNamedResult
    : DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>;

// Every layer and loss states its gradient (Gradients.cpp); those without one
// yet say so when asked.
def NN_Differentiable
    : DeclareOpInterfaceMethods<NN_DifferentiableOpInterface>;

class NN_LayerOp<string mnemonic, list<Trait> traits = []>
    : NN_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor,
                                           NN_LayerNamedResult,
                                           NN_Differentiable])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def NN_Conv2DOp : NN_LayerOp<"conv2d"> {
  let summary = "2-D convolution, NHWC input, HWIO filter";
  let description = [{
    TensorFlow semantics. `padding` SAME pads `max(0, (ceil(H/s)-1)*s + (k-1)*d
    + 1 - H)` in total, the smaller half before (AlexNet's conv1 pads 3 then
    4). EXPLICIT takes `pad = [top, bottom, left, right]`.
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$filter,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       NN_PaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let results = (outs NN_FloatTensor:$output);
}

def NN_BiasAddOp : NN_LayerOp<"bias_add"> {
  let summary = "Adds a bias vector along the last (channel) axis";
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$bias);
  let results = (outs NN_FloatTensor:$output);
}

// ODS generates the result type of SameOperandsAndResultType ops.
class NN_UnaryOp<string mnemonic, string what>
    : NN_Op<mnemonic, [Pure, SameOperandsAndResultType, InferTypeOpInterface,
                       NN_LayerNamedResult, NN_Differentiable]> {
  let summary = what;
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let arguments = (ins NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$output);
}
def NN_ReluOp : NN_UnaryOp<"relu", "max(x, 0), elementwise">;
def NN_SigmoidOp : NN_UnaryOp<"sigmoid", "1 / (1 + exp(-x)), elementwise">;
def NN_TanhOp : NN_UnaryOp<"tanh", "tanh(x), elementwise">;

def NN_SoftmaxOp : NN_LayerOp<"softmax"> {
  let summary = "Softmax along one axis (the last by default)";
  let arguments = (ins NN_FloatTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs NN_FloatTensor:$output);
}

class NN_PoolOp<string mnemonic, string what> : NN_LayerOp<mnemonic> {
  let summary = what;
  let description = [{
    NHWC pooling over `window` with `strides`, TensorFlow padding. Padded
    positions never win a max and are not counted in an average.
  }];
  let arguments = (ins NN_FloatTensor:$input,
                       DenseI64ArrayAttr:$window,
                       DenseI64ArrayAttr:$strides,
                       NN_PaddingAttr:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$pad);
  let results = (outs NN_FloatTensor:$output);
}
def NN_MaxPool2DOp : NN_PoolOp<"max_pool2d", "2-D max pooling">;
def NN_AvgPool2DOp : NN_PoolOp<"avg_pool2d", "2-D average pooling">;

def NN_LRNOp : NN_LayerOp<"lrn"> {
  let summary = "Local response normalisation across channels (TensorFlow)";
  let description = [{
    `out = x / (bias + alpha * sum(x[c-r .. c+r]^2))^beta` over the last axis,
    with `r = depth_radius`. As in TensorFlow, `alpha` is not divided by the
    window size.
  }];
  let arguments = (ins NN_FloatTensor:$input,
                       I64Attr:$depth_radius,
                       F64Attr:$bias, F64Attr:$alpha, F64Attr:$beta);
  let results = (outs NN_FloatTensor:$output);
}

def NN_MatmulOp : NN_LayerOp<"matmul"> {
  let summary = "Matrix product of two rank-2 tensors";
  let description = [{
    `lhs[M, K] x rhs[K, N]`; `transpose_lhs` / `transpose_rhs` read the
    operand transposed. A dense layer is `matmul` then `bias_add`.
  }];
  let arguments = (ins NN_FloatTensor:$lhs, NN_FloatTensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs);
  let results = (outs NN_FloatTensor:$output);
}

def NN_FlattenOp : NN_LayerOp<"flatten"> {
  let summary = "Collapses all but the first (batch) axis";
  let arguments = (ins NN_FloatTensor:$input);
  let results = (outs NN_FloatTensor:$output);
  let hasFolder = 1;
}

def NN_ReshapeOp : NN_LayerOp<"reshape"> {
  let summary = "Reshapes to `shape`, keeping the element count";
  let arguments = (ins NN_FloatTensor:$input, DenseI64ArrayAttr:$shape);
  let results = (outs NN_FloatTensor:$output);
  let hasFolder = 1;
}

def NN_AddOp : NN_LayerOp<"add", [Commutative]> {
  let summary = "Elementwise sum of two tensors of the same type";
  let arguments = (ins NN_FloatTensor:$lhs, NN_FloatTensor:$rhs);
  let results = (outs NN_FloatTensor:$output);
}

def NN_ConcatOp : NN_LayerOp<"concat"> {
  let summary = "Concatenates tensors along `axis`";
  let arguments = (ins Variadic<NN_FloatTensor>:$inputs, I64Attr:$axis);
  let results = (outs NN_FloatTensor:$output);
}

def NN_BatchNormOp : NN_LayerOp<"batch_norm"> {
  let summary = "Batch normalisation over the last axis (inference form)";
  let description = [{
    `scale * (x - mean) / sqrt(variance + epsilon) + offset`, with the four
    per-channel vectors given as operands: the moving statistics at
    inference. The training functions replace it by `nn.batch_norm_train`
    (batch statistics) and update the moving statistics with `decay`
    (`nn.moving_average`).
  }];
  let arguments = (ins NN_FloatTensor:$input, NN_FloatTensor:$scale,
                       NN_FloatTensor:$offset, NN_FloatTensor:$mean,
                       NN_FloatTensor:$variance, F64Attr:$epsilon,
                       DefaultValuedAttr<F64Attr, "0.99">:$decay);
  let results = (outs NN_FloatTensor:$output);
}

def NN_DropoutOp : NN_LayerOp<"dropout"> {
  let summary = "Inverted dropout: identity at inference, masks in training";
  let description = [{
    The training functions replace it by `nn.dropout_train`, whose mask is
    drawn from Philox4x32-10 keyed by `seed` and the global step.
  }];
  let arguments = (ins NN_FloatTensor:$input, F64Attr:$rate,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let results = (outs NN_FloatTensor:$output);
  let hasFolder = 1;
}

def NN_MeanOp : NN_LayerOp<"mean"> {
  let summary = "Mean over `axes`, which are dropped (ResNet's global pool)";
  let arguments = (ins NN_FloatTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs NN_FloatTensor:$output);
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

class NN_LossOp<string mnemonic> : NN_LayerOp<mnemonic> {
  let results = (outs NN_ScalarTensor:$loss);
}

def NN_L2LossOp : NN_LossOp<"l2_loss"> {
  let summary = "sum(x^2) / 2, as TensorFlow's tf.nn.l2_loss";
  let arguments = (ins NN_FloatTensor:$input);
}

def NN_SparseSoftmaxCrossEntropyOp
    : NN_LossOp<"sparse_softmax_cross_entropy"> {
  let summary = "Softmax cross-entropy of logits [N, C] and class ids [N], mean";
  let arguments = (ins NN_FloatTensor:$logits, NN_LabelTensor:$labels);
}

def NN_CategoricalCrossEntropyOp : NN_LossOp<"categorical_cross_entropy"> {
  let summary = "Keras categorical cross-entropy over probabilities, mean";
  let description = [{
    As Keras with `from_logits=False`: each row of `probs [N, C]` is divided
    by its sum, clipped to `[epsilon, 1 - epsilon]`, and the loss is
    `-log(p[label])` averaged over the batch. Labels are class ids.
  }];
  let arguments = (ins NN_FloatTensor:$probs, NN_LabelTensor:$labels,
                       DefaultValuedAttr<F64Attr, "1.0e-7">:$epsilon);
}

def NN_WeightDecayOp : NN_LossOp<"weight_decay"> {
  let summary = "L2 weight decay term: scale * sum(w^2) / 2";
  let arguments = (ins NN_FloatTensor:$input, F64Attr:$scale);
}

include "nn/IR/NNGradOps.td"
include "nn/IR/NNTrainOps.td"

#endif // NN_OPS_TD
