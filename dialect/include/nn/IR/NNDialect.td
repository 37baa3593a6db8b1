//===- NNDialect.td - the nn dialect ------------------------*- tablegen -*-===//
//
// Part of nnc. The nn dialect: target-independent neural-network ops on
// tensors (value semantics), NHWC activations and HWIO filters.
//
//===----------------------------------------------------------------------===//

#ifndef NN_DIALECT_TD
#define NN_DIALECT_TD

include "mlir/IR/OpBase.td"

def NN_Dialect : Dialect {
  let name = "nn";
  let cppNamespace = "::mlir::nn";
  let summary = "Neural-network layers, losses and parameters on tensors";
  let description = [{
    The `nn` dialect is the target-independent form of an nnc model. Its ops
    work on ranked tensors with value semantics. Activations are NHWC, filters
    HWIO, dense weights `[in, out]`. Every op infers its result type, so
    shapes are checked as IR is built and verified.

    A model is a module holding `nn.parameter` symbols (named, typed, with an
    initialiser), an optional `nn.optimizer`, a `@forward` function from
    inputs to outputs and, when the model has a loss, a `@loss` function from
    inputs and labels to a scalar.

    ### Model interface attributes

    Discardable attributes describe the model for the runtime
    (`nn-export-model-interface` turns them into the model description of
    docs/interface.md, then drops them). The dialect verifies each one where
    it appears; any other `nn.` attribute is an error.

    On the module (`builtin.module`):

    - `nn.batch_size` (`i64` integer, at least 1): the value of the model's
      `batch` statement.
    - `nn.layers` (array of dictionaries `{name = "<layer>", op = "<op>",
      shape = array<i64: ...>}`): the layers of `@forward` in order, each
      with the mnemonic of its first op and the shape of its last, as
      `nn-record-layers` finds them.
    - `nn.build` (dictionary of strings): how the object was built
      (`compiler`, `llvm`, `target`, `cpu` and, for CUDA, `precision` and
      `gpu_arch`), set by the `nnc` driver.
    - `nn.benchmark` (string, `"tf_cnn_benchmarks"`): the benchmark whose
      run the model reproduces; its bench program runs that benchmark's
      training loop and prints its lines by default.

    On function arguments:

    - `nn.name` (non-empty string): the name of an input, of the labels or,
      after bufferization, of an output buffer.
    - `nn.layout` (`"NHWC"` or `"NC"`): the layout of an input; the
      argument's rank is the layout's length.
    - `nn.classes` (`i64` integer, at least 2): marks the labels, a rank-1
      integer argument, and gives the number of classes.
    - `nn.param` (string): marks the argument that carries the
      `nn.parameter` of that name (`nn-params-to-arguments`); the argument has
      the parameter's shape and element type and no other `nn.` attribute.

    On function results:

    - `nn.name` (non-empty string): the name of an output.
    - `nn.updates` (string): the result is the new value of the
      `nn.parameter` of that name, with its shape and element type
      (`nn-params-to-arguments`; `nnc-in-place-updates` writes it into the
      parameter's argument and drops the result).

    C++ code reads and writes the module attributes with the generated
    `NNDialect::BatchSizeAttrHelper`, `LayersAttrHelper`,
    `BuildAttrHelper` and `BenchmarkAttrHelper`, and the argument and result attributes with the
    accessors of `nn/IR/NNDialect.h` (`getArgName`, `setArgName`, ...).
  }];
  // Types of the discardable attributes; the verifier checks the rest of
  // each one's contract (DiscardableAttrs.cpp).
  let discardableAttrs = (ins
    "::mlir::IntegerAttr":$batch_size,
    "::mlir::ArrayAttr":$layers,
    "::mlir::DictionaryAttr":$build,
    "::mlir::StringAttr":$benchmark,
    "::mlir::StringAttr":$name,
    "::mlir::StringAttr":$layout,
    "::mlir::IntegerAttr":$classes,
    "::mlir::StringAttr":$param,
    "::mlir::StringAttr":$updates
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

class NN_Op<string mnemonic, list<Trait> traits = []>
    : Op<NN_Dialect, mnemonic, traits>;

// Element types are kept generic: f32 today, bf16/f16/f64 accepted.
def NN_FloatTensor : RankedTensorOf<[AnyFloat]>;
def NN_ScalarTensor : 0DTensorOf<[AnyFloat]>;
def NN_LabelTensor : RankedTensorOf<[AnySignlessInteger]>;
// What a parameter holds: float weights and state, or an i64 counter.
def NN_ParamTensor : RankedTensorOf<[AnyFloat, I64]>;
// The global step, a whole number of training steps.
def NN_StepTensor : 0DTensorOf<[I64]>;

#endif // NN_DIALECT_TD
