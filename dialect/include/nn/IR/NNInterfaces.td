//===- NNInterfaces.td - nn op interfaces -------------------*- tablegen -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NN_INTERFACES_TD
#define NN_INTERFACES_TD

include "mlir/IR/OpBase.td"

def NN_DifferentiableOpInterface : OpInterface<"DifferentiableOpInterface"> {
  let cppNamespace = "::mlir::nn";
  let description = [{
    An op with a single result whose vector-Jacobian product can be written
    in nn ops. Reverse-mode differentiation (nn-autodiff) knows ops only
    through this interface.
  }];
  let methods = [
    InterfaceMethod<[{
        Given the gradient of the loss with respect to the op's result, builds
        (at the builder's insertion point) the gradient with respect to each
        operand, in operand order; a null value for an operand with no
        gradient (labels). Fails with a diagnostic on the op when the
        gradient cannot be built.
      }], "::mlir::LogicalResult", "buildGradients",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Value":$resultGradient,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGradients)>,
  ];
}

#endif // NN_INTERFACES_TD
