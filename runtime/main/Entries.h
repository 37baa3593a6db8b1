//===- Entries.h - the compiled model's symbols -----------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). The bench is linked with one
// compiled model; its entry points are weak references, so one program
// serves models with and without training entry points.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_ENTRIES_H
#define NNRT_MAIN_ENTRIES_H

#include "nnrt/Session.h"

#include <string>

namespace nnrt {

/// The description the model object carries (`nnc_model_json`).
const char *modelDescription();

/// The packed entry point `nnc_<name>` linked in, or nullptr.
PackedFn findEntryPoint(const std::string &name);

} // namespace nnrt

#endif // NNRT_MAIN_ENTRIES_H
