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

def NNExportModelInterface
    : Pass<"nn-export-model-interface", "::mlir::ModuleOp"> {
  let summary = "Describe the compiled model for the runtime, as JSON";
  let description = [{
    Runs on bufferized modules. Writes a JSON description of the model into
    the constant global `nnc_model_json` (a NUL-terminated string): the
    interface version, the model name and batch size, every parameter (name,
    shape, element type, initialiser, trainable), every entry point with its
    arguments in order (role `param`, `input`, `labels` or `output`, name,
    shape, element type) and the optimizer. Entry points get
    `llvm.emit_c_interface`; `symbol` names their C interface (one
    descriptor pointer per argument) and `packed` the
    `nnc_<entry>(void **args)` wrapper nn-packed-entry-points adds. The `nn.parameter` and `nn.optimizer`
    declarations are then removed: the description replaces them.
    docs/interface.md documents the format.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NNPackedEntryPoints : Pass<"nn-packed-entry-points", "::mlir::ModuleOp"> {
  let summary = "Add nnc_<entry>(void **args) wrappers of the C interface";
  let description = [{
    Runs on the LLVM dialect. For every C-interface function
    `_mlir_ciface_<entry>(ptr, ..., ptr)` adds `nnc_<entry>(ptr args)`,
    which loads the i-th descriptor pointer from `args[i]` and calls it, so
    a runtime can call any model's entry points through one signature.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // NNC_TRANSFORMS_PASSES_TD
