//===- Emit.cpp - LLVM IR, assembly and object files ----------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Emit.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace llvm;

void nnc::registerLLVMTranslations(mlir::DialectRegistry &registry) {
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::registerOpenMPDialectTranslation(registry);
}

static mlir::LogicalResult fail(const Twine &message) {
  WithColor::error(errs(), "nnc") << message << "\n";
  return mlir::failure();
}

/// The host's CPU features, as `+avx2,-avx512f,...`.
static std::string hostFeatures() {
  SubtargetFeatures features;
  for (const auto &[name, enabled] : sys::getHostCPUFeatures())
    features.AddFeature(name, enabled);
  return features.getString();
}

mlir::LogicalResult nnc::emitLLVM(mlir::ModuleOp module, Stage stage,
                                  const CodegenOptions &options,
                                  raw_pwrite_stream &os) {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();

  LLVMContext context;
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context);
  if (!llvmModule)
    return fail("could not translate the module to LLVM IR");

  Triple triple(sys::getDefaultTargetTriple());
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return fail("no LLVM target for " + triple.str() + ": " + error);
  std::string cpu =
      options.cpu.empty() ? sys::getHostCPUName().str() : options.cpu;
  std::string features = options.cpu.empty() && options.features.empty()
                             ? hostFeatures()
                             : options.features;
  TargetOptions targetOptions;
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, targetOptions, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!machine)
    return fail("cannot create a target machine for CPU '" + cpu + "'");
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  auto optimize =
      mlir::makeOptimizingTransformer(options.optLevel, 0, machine.get());
  if (Error err = optimize(llvmModule.get()))
    return fail("LLVM optimisation failed: " + toString(std::move(err)));

  if (stage == Stage::LLVMIR) {
    llvmModule->print(os, nullptr);
    return mlir::success();
  }
  legacy::PassManager codegen;
  auto fileType = stage == Stage::Asm ? CodeGenFileType::AssemblyFile
                                      : CodeGenFileType::ObjectFile;
  if (machine->addPassesToEmitFile(codegen, os, nullptr, fileType))
    return fail("the target cannot emit this file type");
  codegen.run(*llvmModule);
  return mlir::success();
}
