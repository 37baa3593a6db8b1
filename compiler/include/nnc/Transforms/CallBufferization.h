//===- CallBufferization.h - func.call's aliasing operands ------*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_CALLBUFFERIZATION_H
#define NNC_TRANSFORMS_CALLBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace nnc {

/// Makes func.call's bufferization model answer which operands a result
/// may alias from the callee's analysis directly (CallBufferization.cpp).
/// It must be registered after upstream's model of func.call.
void registerCallAliasingQuery(mlir::DialectRegistry &registry);

} // namespace nnc

#endif // NNC_TRANSFORMS_CALLBUFFERIZATION_H
