//===- StaticSlices.h - slices compared without Presburger sets -*- C++ -*-===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TRANSFORMS_STATICSLICES_H
#define NNC_TRANSFORMS_STATICSLICES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace nnc {

/// Registers SubsetOpInterface models of tensor.extract_slice and
/// tensor.insert_slice that compare static slices by their constants
/// (StaticSlices.cpp). They must be registered before upstream's: the
/// first model of an interface registered for an op is the one it keeps.
void registerStaticSliceModels(mlir::DialectRegistry &registry);

} // namespace nnc

#endif // NNC_TRANSFORMS_STATICSLICES_H
