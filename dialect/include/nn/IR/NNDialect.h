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
#include "mlir/Interfaces/FunctionInterfaces.h"
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

/// The benchmarks a model can reproduce (`nn.benchmark`): their bench
/// program runs that benchmark's loop and prints its lines.
ArrayRef<StringLiteral> knownBenchmarks();

// Typed access to the dialect's attributes on function arguments and results
// (NNDialect.td documents them). Getters return null when the attribute is
// absent. The module attributes have the generated helpers
// NNDialect::BatchSizeAttrHelper, LayersAttrHelper, BuildAttrHelper and
// BenchmarkAttrHelper.

/// `nn.name`: the name of an input, labels or output.
StringAttr getArgName(FunctionOpInterface func, unsigned arg);
void setArgName(FunctionOpInterface func, unsigned arg, StringRef name);
StringAttr getResultName(FunctionOpInterface func, unsigned result);
void setResultName(FunctionOpInterface func, unsigned result, StringRef name);

/// `nn.layout`: the layout of an input, "NHWC" or "NC".
StringAttr getArgLayout(FunctionOpInterface func, unsigned arg);
void setArgLayout(FunctionOpInterface func, unsigned arg, StringRef layout);

/// `nn.classes`: the number of classes of the labels argument.
IntegerAttr getArgClasses(FunctionOpInterface func, unsigned arg);
void setArgClasses(FunctionOpInterface func, unsigned arg, int64_t classes);

/// `nn.param`: the nn.parameter an argument carries.
StringAttr getArgParam(FunctionOpInterface func, unsigned arg);
/// An argument's attributes {nn.param = param}, to insert it with (all of
/// a function's at once: nn-params-to-arguments).
DictionaryAttr argParamAttrs(StringAttr param);

/// `nn.updates`: the nn.parameter a result is the new value of.
StringAttr getResultUpdates(FunctionOpInterface func, unsigned result);
/// A result's attributes {nn.updates = param}, to insert it with.
DictionaryAttr resultUpdatesAttrs(StringAttr param);

/// Removes every `nn.` attribute of every argument, and those named in
/// `alsoRemove`. The arguments' attributes are rebuilt once: one argument
/// at a time, each rebuilt them all (a training step has hundreds).
void removeArgAttrs(FunctionOpInterface func,
                    ArrayRef<StringRef> alsoRemove = {});
} // namespace mlir::nn

#endif // NN_IR_NNDIALECT_H
