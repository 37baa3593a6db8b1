//===- ParallelEmit.cpp - object files compiled on several threads --------===//
//
// Part of nnc. A large model (ResNet-50's training program has hundreds of
// kernels) spends most of its compile time in LLVM's optimiser and code
// generator, which run on one thread. The module is split by function;
// each part goes through bitcode into its own LLVMContext and is optimised
// and compiled by one of the hardware threads.
//
//===----------------------------------------------------------------------===//

#include "LLVMCodegen.h"
#include "nnc/Driver/Error.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <atomic>
#include <thread>

using namespace llvm;

namespace {

/// Optimises and compiles one part (bitcode) into `path`; the error, if
/// any, in `error`.
void compilePart(StringRef bitcode, const nnc::CodegenOptions &options,
                 const std::string &path, std::string &error) {
  LLVMContext context;
  Expected<std::unique_ptr<Module>> part =
      parseBitcodeFile(MemoryBufferRef(bitcode, "part"), context);
  if (!part) {
    error = toString(part.takeError());
    return;
  }
  std::unique_ptr<TargetMachine> machine = nnc::createTargetMachine(options);
  std::error_code ec;
  raw_fd_ostream os(path, ec);
  if (!machine || ec) {
    error = ec ? "cannot write '" + path + "': " + ec.message()
               : "no target machine";
    return;
  }
  if (failed(nnc::optimizeAndEmit(**part, *machine, options.optLevel,
                                  nnc::Stage::Obj, os)))
    error = "could not compile part '" + path + "'";
}

} // namespace

mlir::LogicalResult nnc::emitObjectsInParallel(mlir::ModuleOp module,
                                               const CodegenOptions &options,
                                               ArrayRef<std::string> paths) {
  LLVMContext context;
  FailureOr<TargetModule> target = translateForTarget(module, context, options);
  if (failed(target))
    return mlir::failure();
  std::vector<SmallString<0>> parts;
  SplitModule(*target->module, paths.size(), [&](std::unique_ptr<Module> part) {
    SmallString<0> buffer;
    raw_svector_ostream os(buffer);
    WriteBitcodeToFile(*part, os);
    parts.push_back(std::move(buffer));
  });
  std::vector<std::string> errors(parts.size());
  // Parts differ in size: threads take the next part as they finish one.
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i; (i = next++) < parts.size();)
      compilePart(parts[i], options, paths[i], errors[i]);
  };
  size_t workers = std::min<size_t>(
      parts.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < workers; ++i)
    threads.emplace_back(worker);
  for (std::thread &t : threads)
    t.join();
  for (const std::string &error : errors)
    if (!error.empty())
      return nnc::reportError(error);
  return mlir::success();
}
