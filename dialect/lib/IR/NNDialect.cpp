//===- NNDialect.cpp - the nn dialect -------------------------------------===//
//
// Part of nnc. Dialect registration and the generated attribute code.
//
//===----------------------------------------------------------------------===//

#include "nn/IR/NNDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nn;

#include "nn/IR/NNOpsDialect.cpp.inc"

#include "nn/IR/NNEnums.cpp.inc"

#include "nn/IR/NNInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "nn/IR/NNAttrs.cpp.inc"

void NNDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "nn/IR/NNAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "nn/IR/NNOps.cpp.inc"
      >();
}

bool mlir::nn::isInitializerAttr(Attribute attr) {
  return isa<ZerosInitAttr, ConstantInitAttr, NormalInitAttr,
             TruncatedNormalInitAttr, UniformInitAttr, GlorotUniformInitAttr,
             GlorotNormalInitAttr, HeNormalInitAttr, VarianceScalingInitAttr>(
      attr);
}
