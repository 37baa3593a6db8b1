//===- Passes.td - nnc transformation passes ----------------*- tablegen -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_PASSES_TD
#define NNC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNParamsToArguments : Pass<"nn-params-to-arguments", "::mlir::ModuleOp"> {
  let summary = "Pass the model's parameters to its functions as arguments";
  let description = [{
    Every function that reads a parameter (`nn.get_param`), directly or
    through a call, takes all of the module's parameters as leading
    arguments, in declaration order, each tagged `{nn.param = "<name>"}`;
    calls pass them on. This is the calling convention of the compiled
    model: the runtime owns the parameter buffers and passes them to every
    entry point, so a training step can update them in place. The
    `nn.parameter` declarations stay, for the runtime interface.
  }];
}

#endif // NNC_TRANSFORMS_PASSES_TD
