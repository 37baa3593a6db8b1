//===- Init.h - parameter initialisers --------------------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Fills parameters as the model file says,
// reproducibly from a seed.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_INIT_H
#define NNRT_INIT_H

#include "nnrt/Model.h"
#include "nnrt/Tensor.h"

#include <random>

namespace nnrt {

/// Keras' fans: [in, out] matrices, HWIO filters (receptive field H*W);
/// other shapes use their first and last dimensions.
struct Fans {
  double in, out;
};
Fans computeFans(const Shape &shape);

/// Fills `data` (elementCount(shape) floats) following `init`.
void initialize(const Initializer &init, const Shape &shape, float *data,
                std::mt19937_64 &rng);

/// Sets every element of `t` to `value` (rounded towards zero for integer
/// tensors).
void fillConstant(Tensor &t, double value);

} // namespace nnrt

#endif // NNRT_INIT_H
