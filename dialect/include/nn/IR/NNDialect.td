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
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

class NN_Op<string mnemonic, list<Trait> traits = []>
    : Op<NN_Dialect, mnemonic, traits>;

// Element types are kept generic: f32 today, bf16/f16/f64 accepted.
def NN_FloatTensor : RankedTensorOf<[AnyFloat]>;
def NN_ScalarTensor : 0DTensorOf<[AnyFloat]>;
def NN_LabelTensor : RankedTensorOf<[AnySignlessInteger]>;

#endif // NN_DIALECT_TD
