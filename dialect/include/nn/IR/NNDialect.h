//===- NNDialect.h - the nn dialect -----------------------------*- C++ -*-===//
//
// Part of nnc. Include this header to use the nn dialect, its attributes and
// its operations.
//
//===----------------------------------------------------------------------===//

#ifndef NN_IR_NNDIALECT_H
#define NN_IR_NNDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "nn/IR/NNOpsDialect.h.inc"

#include "nn/IR/NNEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "nn/IR/NNAttrs.h.inc"

#include "nn/IR/NNInterfaces.h.inc"

#define GET_OP_CLASSES
#include "nn/IR/NNOps.h.inc"

namespace mlir::nn {
/// True when `attr` is one of the parameter initialiser attributes.
bool isInitializerAttr(Attribute attr);
} // namespace mlir::nn

#endif // NN_IR_NNDIALECT_H
