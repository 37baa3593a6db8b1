//===- NNAttrs.td - nn dialect attributes -------------------*- tablegen -*-===//
//
// Part of nnc. Padding schemes, parameter initialisers, optimizer settings.
//
//===----------------------------------------------------------------------===//

#ifndef NN_ATTRS_TD
#define NN_ATTRS_TD

include "nn/IR/NNDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def NN_PaddingKind : I32EnumAttr<"Padding", "padding scheme", [
    I32EnumAttrCase<"Same", 0, "SAME">,
    I32EnumAttrCase<"Valid", 1, "VALID">,
    I32EnumAttrCase<"Explicit", 2, "EXPLICIT">]> {
  let cppNamespace = "::mlir::nn";
  let genSpecializedAttr = 0;
}
def NN_PaddingAttr : EnumAttr<NN_Dialect, NN_PaddingKind, "padding"> {
  let summary = "TensorFlow padding: SAME, VALID or EXPLICIT (with `pad`)";
  let assemblyFormat = "`<` $value `>`";
}

def NN_OptimizerKind : I32EnumAttr<"OptimizerKind", "optimizer algorithm", [
    I32EnumAttrCase<"SGD", 0, "sgd">,
    I32EnumAttrCase<"Adam", 1, "adam">]> {
  let cppNamespace = "::mlir::nn";
  let genSpecializedAttr = 0;
}
def NN_OptimizerKindAttr
    : EnumAttr<NN_Dialect, NN_OptimizerKind, "optimizer_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Initialisers and schedules
//===----------------------------------------------------------------------===//

// A double-precision field written as a plain number, printed so that it
// round-trips exactly.
def NN_F64Param : AttrOrTypeParameter<"::llvm::APFloat", "a real number"> {
  let comparator = "$_lhs.bitwiseIsEqual($_rhs)";
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::APFloat> {
      double v;
      if ($_parser.parseFloat(v))
        return ::mlir::failure();
      return ::llvm::APFloat(v);
    }() }];
  let printer = [{ $_printer.printFloat($_self) }];
}

class NN_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<NN_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def NN_ZerosInitAttr : NN_Attr<"ZerosInit", "zeros"> {
  let summary = "Initialise every element to 0";
}

def NN_ConstantInitAttr : NN_Attr<"ConstantInit", "constant"> {
  let summary = "Initialise every element to a constant";
  let parameters = (ins NN_F64Param:$value);
  let assemblyFormat = "`<` $value `>`";
}

def NN_NormalInitAttr : NN_Attr<"NormalInit", "normal"> {
  let summary = "Normal distribution N(mean, stddev^2)";
  let parameters = (ins NN_F64Param:$mean, NN_F64Param:$stddev);
  let assemblyFormat = "`<` struct(params) `>`";
}

def NN_TruncatedNormalInitAttr
    : NN_Attr<"TruncatedNormalInit", "truncated_normal"> {
  let summary = "Normal distribution, redrawn beyond two standard deviations";
  let description = [{
    As TensorFlow's `truncated_normal`: samples further than 2 stddev from the
    mean are discarded and drawn again.
  }];
  let parameters = (ins NN_F64Param:$mean, NN_F64Param:$stddev);
  let assemblyFormat = "`<` struct(params) `>`";
}

def NN_UniformInitAttr : NN_Attr<"UniformInit", "uniform"> {
  let summary = "Uniform distribution on [min, max)";
  let parameters = (ins NN_F64Param:$min, NN_F64Param:$max);
  let assemblyFormat = "`<` struct(params) `>`";
}

def NN_GlorotUniformInitAttr : NN_Attr<"GlorotUniformInit", "glorot_uniform"> {
  let summary = "Glorot (Xavier) uniform: limit sqrt(6 / (fan_in + fan_out))";
  let description = [{
    Fans follow Keras: for a `[in, out]` matrix fan_in = in, fan_out = out;
    for an HWIO filter fan_in = H*W*I, fan_out = H*W*O.
  }];
}

def NN_GlorotNormalInitAttr : NN_Attr<"GlorotNormalInit", "glorot_normal"> {
  let summary = "Glorot normal, as Keras: truncated normal with stddev "
                "sqrt(2 / (fan_in + fan_out)) / 0.87962566103423978";
  let description = [{
    The divisor makes the standard deviation of the distribution truncated at
    two standard deviations equal to sqrt(2 / (fan_in + fan_out)).
  }];
}

def NN_HeNormalInitAttr : NN_Attr<"HeNormalInit", "he_normal"> {
  let summary = "He normal, as Keras: truncated normal with stddev "
                "sqrt(2 / fan_in) / 0.87962566103423978";
}

def NN_VarianceScalingInitAttr
    : NN_Attr<"VarianceScalingInit", "variance_scaling"> {
  let summary = "TensorFlow's variance_scaling_initializer";
  let description = [{
    n is fan_in, fan_out or their mean (`mode`, fans as glorot_uniform).
    `truncated_normal`: stddev sqrt(scale / n) / 0.87962566103423978,
    redrawn beyond two standard deviations; `untruncated_normal`: stddev
    sqrt(scale / n); `uniform`: limit sqrt(3 scale / n).
  }];
  let parameters = (ins NN_F64Param:$scale, StringRefParameter<>:$mode,
                        StringRefParameter<>:$distribution);
  let assemblyFormat = "`<` struct(params) `>`";
}

def NN_ExponentialDecayAttr
    : NN_Attr<"ExponentialDecay", "exponential_decay"> {
  let summary = "Learning rate lr * rate^(step / steps), floored when staircase";
  let parameters = (ins NN_F64Param:$rate, "int64_t":$steps,
                        "::mlir::BoolAttr":$staircase);
  let assemblyFormat = "`<` struct(params) `>`";
}

def NN_PiecewiseConstantAttr
    : NN_Attr<"PiecewiseConstant", "piecewise_constant"> {
  let summary = "Learning rate values[i] between boundaries (TensorFlow's "
                "piecewise_constant)";
  let description = [{
    `values[0]` while step <= `boundaries[0]`, `values[i]` while
    boundaries[i-1] < step <= boundaries[i], the last value after the last
    boundary. Boundaries increase; there is one more value than boundaries.
  }];
  let parameters = (ins "::mlir::DenseI64ArrayAttr":$boundaries,
                        "::mlir::DenseF64ArrayAttr":$values);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // NN_ATTRS_TD
