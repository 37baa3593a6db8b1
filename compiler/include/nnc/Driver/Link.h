//===- Link.h - linking a compiled model into the bench program -*- C++ -*-===//
//
// Part of nnc. The exe stage: the model's object file linked with the
// runtime's bench program (libnnrt_main.a, libnnrt.a, and for the CUDA
// target libnnrt_cuda.a with the CUDA libraries), and where those runtime
// libraries are.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_DRIVER_LINK_H
#define NNC_DRIVER_LINK_H

#include "nnc/Driver/Pipelines.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace nnc {

/// Links the `objects` with the runtime's bench program (libnnrt_main.a and
/// libnnrt.a, found in `runtimeDir`) into the executable `output`, with
/// clang++ -fopenmp (NNC_CXX overrides the compiler). Reports errors, with
/// the linker's output, to stderr.
mlir::LogicalResult linkExecutable(llvm::ArrayRef<std::string> objects,
                                   llvm::StringRef output,
                                   llvm::StringRef runtimeDir,
                                   Target target = Target::CPU);

/// Where nnc's runtime libraries are: $NNC_RUNTIME_DIR, else the `lib`
/// directory beside the one holding the nnc executable (`argv0`).
std::string findRuntimeDir(const char *argv0);

} // namespace nnc

#endif // NNC_DRIVER_LINK_H
