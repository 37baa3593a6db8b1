//===- GenericBufferization.h - linalg.generic's bufferization --*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_GENERICBUFFERIZATION_H
#define NNC_TRANSFORMS_GENERICBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace nnc {

/// Registers a BufferizableOpInterface model of linalg.generic that gives
/// upstream's answers without building the op's init operand range
/// (GenericBufferization.cpp). It must be registered before upstream's: the
/// first model of an interface registered for an op is the one it keeps.
void registerGenericBufferizationModel(mlir::DialectRegistry &registry);

} // namespace nnc

#endif // NNC_TRANSFORMS_GENERICBUFFERIZATION_H
