//===- CUDA.cpp - the CUDA target's driver pieces -------------------------===//
//
// Part of nnc. The ptx stage's output and where the CUDA toolkit is.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/CUDA.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/Process.h"

using namespace llvm;

mlir::LogicalResult nnc::printPTX(mlir::ModuleOp module, raw_ostream &os) {
  bool any = false;
  for (auto binary : module.getOps<mlir::gpu::BinaryOp>())
    for (mlir::Attribute attr : binary.getObjects()) {
      auto object = cast<mlir::gpu::ObjectAttr>(attr);
      os << "// kernels of gpu.module @" << binary.getSymName() << "\n"
         << object.getObject().getValue() << "\n";
      any = true;
    }
  if (!any)
    os << "// no GPU kernels: every op runs in a library call\n";
  return mlir::success();
}

std::string nnc::findCUDAToolkit() {
  if (std::optional<std::string> env = sys::Process::GetEnv("NNC_CUDA_PATH"))
    return *env;
  return NNC_CUDA_TOOLKIT;
}
