//===- Alloc.h - how the compiled model's buffers are allocated -*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). The compiled code allocates its buffers
// through libnnrt (`_mlir_memref_to_llvm_alloc`, docs/interface.md) and
// frees them within each step.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_ALLOC_H
#define NNRT_ALLOC_H

namespace nnrt {

/// Serves every allocation from the heap and never gives the heap back to
/// the system, so each step reuses the memory the first one mapped instead
/// of faulting in fresh pages (ResNet-50 spent a fifth of its steps there).
void keepHeapMapped();

} // namespace nnrt

#endif // NNRT_ALLOC_H
