//===- About.h - what the bench program says about itself -------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). --version, and the part of
// --help that names the model, batch and shapes the program was built for.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_ABOUT_H
#define NNRT_MAIN_ABOUT_H

#include "nnrt/Model.h"

#include <string>

namespace nnrt {

/// "bench (nnrt 0.1.0)\nmodel mnist_mlp, batch 64: nnc 0.1.0, LLVM ...".
std::string versionText(const char *program, const ModelInfo &model);

/// The model, batch, inputs, labels and entry points the program was built
/// for, and how to build it for another batch.
std::string builtFor(const ModelInfo &model);

/// How to get another batch than the compiled-in one.
std::string batchHint(const ModelInfo &model);

} // namespace nnrt

#endif // NNRT_MAIN_ABOUT_H
