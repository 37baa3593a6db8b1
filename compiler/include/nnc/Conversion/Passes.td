//===- Passes.td - nnc conversion passes --------------------*- tablegen -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_CONVERSION_PASSES_TD
#define NNC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNNToLinalg : Pass<"convert-nn-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower nn layers and losses to linalg on tensors";
  let description = [{
    Convolutions and pooling become linalg's NHWC named ops on explicitly
    padded inputs (TensorFlow SAME padding is asymmetric), matrix products
    `linalg.matmul`, and everything else `linalg.generic` (elementwise ops,
    LRN, batch norm, losses) or tensor reshapes. Parameters
    (`nn.parameter`, `nn.get_param`) and the optimizer declaration stay: the
    training-step and runtime-interface passes consume them.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // NNC_CONVERSION_PASSES_TD
