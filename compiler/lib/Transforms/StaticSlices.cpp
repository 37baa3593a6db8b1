//===- StaticSlices.cpp - slices compared without Presburger sets ---------===//
//
// Part of nnc. One-shot bufferization asks, for each write into a slice of
// a tensor and each read of a slice extracted from it, whether the two are
// the same slice (SubsetOpInterface::operatesOnEquivalentSubset). Upstream's
// answer compares every offset, size and stride through
// ValueBoundsConstraintSet, which builds a Presburger set for each, even
// for two constants: a quarter of the one-shot analysis of Inception-v3's
// training pass (its concatenations write their branches' slices, its
// gradients read them back). nnc's slices are static: two of them are the
// same slice when their constants are. Slices with a dynamic offset, size
// or stride get upstream's answer.
//
//===----------------------------------------------------------------------===//

#include "nnc/Transforms/StaticSlices.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

using namespace mlir;

namespace {

/// Whether `a` and `b` are the same slice, when both are static.
std::optional<bool> sameStaticSlice(const HyperrectangularSlice &a,
                                    const HyperrectangularSlice &b) {
  auto parts = [](const HyperrectangularSlice &s) {
    return std::array<ArrayRef<OpFoldResult>, 3>{
        s.getMixedOffsets(), s.getMixedSizes(), s.getMixedStrides()};
  };
  bool same = true;
  for (auto [x, y] : llvm::zip_equal(parts(a), parts(b))) {
    std::optional<SmallVector<int64_t>> cx = getConstantIntValues(x),
                                        cy = getConstantIntValues(y);
    if (!cx || !cy || cx->size() != cy->size())
      return std::nullopt;
    same = same && *cx == *cy;
  }
  return same;
}

/// Upstream's model of a slice op (tensor's SubsetOpInterface external
/// models), with static slices compared by their constants.
template <typename OpTy>
struct StaticSliceModel
    : SubsetOpInterface::ExternalModel<StaticSliceModel<OpTy>, OpTy> {
  FailureOr<HyperrectangularSlice>
  getAccessedHyperrectangularSlice(Operation *op) const {
    return HyperrectangularSlice(cast<OffsetSizeAndStrideOpInterface>(op));
  }

  bool operatesOnEquivalentSubset(
      Operation *op, SubsetOpInterface candidate,
      function_ref<bool(Value, Value)> equivalenceFn) const {
    FailureOr<HyperrectangularSlice> other =
        candidate.getAccessedHyperrectangularSlice();
    if (succeeded(other) &&
        equivalenceFn(cast<SubsetOpInterface>(op).getTensorContainer(),
                      candidate.getTensorContainer()))
      if (std::optional<bool> same =
              sameStaticSlice(*getAccessedHyperrectangularSlice(op), *other))
        return *same;
    return detail::defaultOperatesOnEquivalentSubset(op, candidate,
                                                     equivalenceFn);
  }
};

} // namespace

void nnc::registerStaticSliceModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    tensor::ExtractSliceOp::attachInterface<
        StaticSliceModel<tensor::ExtractSliceOp>>(*context);
    tensor::InsertSliceOp::attachInterface<
        StaticSliceModel<tensor::InsertSliceOp>>(*context);
  });
}
