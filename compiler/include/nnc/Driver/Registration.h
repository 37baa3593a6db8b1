//===- Registration.h - dialects and passes nnc uses ------------*- C++ -*-===//
//
// Part of nnc. One place that lists what nnc and nnc-opt register, so both
// tools accept the same IR and run the same passes.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_REGISTRATION_H
#define NNC_DRIVER_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace nnc {
/// Adds the nn dialect and the upstream dialects nnc's pipelines use.
void registerAllDialects(mlir::DialectRegistry &registry);
/// Registers nnc's passes and the upstream passes its pipelines name.
void registerAllPasses();
} // namespace nnc

#endif // NNC_DRIVER_REGISTRATION_H
