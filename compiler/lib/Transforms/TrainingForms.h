//===- TrainingForms.h - layers in their training form ----------*- C++ -*-===//
//
// Part of nnc. The layers that behave differently in training (batch_norm,
// dropout) in the functions nn-generate-training derives.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_TRAININGFORMS_H
#define NNC_TRANSFORMS_TRAININGFORMS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace nnc {

/// A batch norm's moving mean or variance after a training step: the
/// parameter's name and its new value.
struct MovingStatistic {
  mlir::StringAttr param;
  mlir::Value value;
};

/// Replaces, in `func`, every nn.batch_norm by nn.batch_norm_train (the
/// batch's statistics) and every nn.dropout by nn.dropout_train at `step`.
/// With `movingStatistics`, also computes each batch norm's new moving mean
/// and variance (before the terminator) and appends them there, without
/// assigning them. `follow`, when it is a replaced result, becomes its
/// replacement. Fails at a batch norm whose moving statistics are not
/// parameters when they are asked for.
mlir::LogicalResult
useTrainingForms(mlir::func::FuncOp func, mlir::Value step, mlir::Value &follow,
                 llvm::SmallVectorImpl<MovingStatistic> *movingStatistics);

/// Whether `func` has a layer that needs the global step in training.
bool needsStep(mlir::func::FuncOp func);

} // namespace nnc

#endif // NNC_TRANSFORMS_TRAININGFORMS_H
