//===- Emit.cpp - LLVM IR, assembly and object files ----------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Emit.h"
#include "LLVMCodegen.h"

#include "nnc/Driver/Error.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace llvm;

void nnc::registerLLVMTranslations(mlir::DialectRegistry &registry) {
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
  // The CUDA target: kernels to PTX (NVVM), the binary into the object.
  mlir::registerGPUDialectTranslation(registry);
  mlir::gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  mlir::registerNVVMDialectTranslation(registry);
}

/// The host's CPU features, as `+avx2,-avx512f,...`.
static std::string hostFeatures() {
  SubtargetFeatures features;
  for (const auto &[name, enabled] : sys::getHostCPUFeatures())
    features.AddFeature(name, enabled);
  return features.getString();
}

/// The target machine for `options` (the host's CPU and features by
/// default), or null after reporting why not.
std::unique_ptr<TargetMachine>
nnc::createTargetMachine(const nnc::CodegenOptions &options) {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  Triple triple(sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    (void)nnc::reportError("no LLVM target for " + triple.str() + ": " + error);
    return nullptr;
  }
  std::string cpu =
      options.cpu.empty() ? sys::getHostCPUName().str() : options.cpu;
  std::unique_ptr<MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  if (info && !info->isCPUStringValid(cpu)) {
    (void)nnc::reportError("unknown CPU '" + cpu + "' for " +
                           triple.getArchName() +
                           " (`llc -mcpu=help` lists the names)");
    return nullptr;
  }
  std::string features = options.cpu.empty() && options.features.empty()
                             ? hostFeatures()
                             : options.features;
  TargetOptions targetOptions;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!machine)
    (void)nnc::reportError("cannot create a target machine for CPU '" + cpu +
                           "'");
  return machine;
}

mlir::LogicalResult nnc::checkTargetCPU(const CodegenOptions &options) {
  return mlir::success(createTargetMachine(options) != nullptr);
}

nnc::cpu::CPUTuning nnc::describeCPU(const CodegenOptions &options) {
  cpu::CPUTuning tuning;
  std::unique_ptr<TargetMachine> machine = createTargetMachine(options);
  if (!machine)
    return tuning;
  const MCSubtargetInfo *info = machine->getMCSubtargetInfo();
  if (info->checkFeatures("+avx512f")) {
    tuning.vectorBits = 512;
    tuning.vectorRegisters = 32;
    tuning.l2Bytes = 1024 * 1024; // Emit.h: nominal, not the host's
  } else if (info->checkFeatures("+avx")) {
    tuning.vectorBits = 256;
  } else {
    tuning.vectorBits = 128;
  }
  return tuning;
}

mlir::FailureOr<nnc::TargetModule>
nnc::translateForTarget(mlir::ModuleOp module, LLVMContext &context,
                        const CodegenOptions &options) {
  TargetModule out;
  out.module = mlir::translateModuleToLLVMIR(module, context);
  if (!out.module)
    return nnc::reportError("could not translate the module to LLVM IR");
  out.machine = createTargetMachine(options);
  if (!out.machine)
    return mlir::failure();
  out.module->setTargetTriple(out.machine->getTargetTriple());
  out.module->setDataLayout(out.machine->createDataLayout());
  return out;
}

mlir::LogicalResult nnc::emitLLVM(mlir::ModuleOp module, Stage stage,
                                  const CodegenOptions &options,
                                  raw_pwrite_stream &os) {
  LLVMContext context;
  FailureOr<TargetModule> target = translateForTarget(module, context, options);
  if (failed(target))
    return mlir::failure();
  return optimizeAndEmit(*target->module, *target->machine, options.optLevel,
                         stage, os);
}

mlir::LogicalResult nnc::optimizeAndEmit(Module &llvmModule,
                                         TargetMachine &machine,
                                         unsigned optLevel, Stage stage,
                                         raw_pwrite_stream &os) {
  if (Error err = optimizeModule(llvmModule, machine, optLevel))
    return nnc::reportError("LLVM optimisation failed: " +
                            toString(std::move(err)));

  if (stage == Stage::LLVMIR) {
    llvmModule.print(os, nullptr);
    return mlir::success();
  }
  legacy::PassManager codegen;
  auto fileType = stage == Stage::Asm ? CodeGenFileType::AssemblyFile
                                      : CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, fileType))
    return nnc::reportError("the target cannot emit this file type");
  codegen.run(llvmModule);
  return mlir::success();
}
