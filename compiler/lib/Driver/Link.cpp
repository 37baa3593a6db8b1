//===- Link.cpp - linking a compiled model into the bench program ---------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Emit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static mlir::LogicalResult fail(const Twine &message) {
  WithColor::error(errs(), "nnc") << message << "\n";
  return mlir::failure();
}

std::string nnc::findRuntimeDir(const char *argv0) {
  if (std::optional<std::string> dir = sys::Process::GetEnv("NNC_RUNTIME_DIR"))
    return *dir;
  static int anchor;
  std::string exe = sys::fs::getMainExecutable(argv0, &anchor);
  SmallString<256> dir(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(dir, "lib");
  return std::string(dir);
}

mlir::LogicalResult nnc::linkExecutable(StringRef object, StringRef output,
                                        StringRef runtimeDir) {
  std::string cxx = NNC_LINKER;
  if (std::optional<std::string> env = sys::Process::GetEnv("NNC_CXX"))
    cxx = *env;
  if (cxx.empty())
    return fail("no C++ compiler to link with: nnc was configured without "
                "clang++; set NNC_CXX to a clang++ with OpenMP (libomp)");
  ErrorOr<std::string> program = sys::findProgramByName(cxx);
  if (!program)
    return fail("cannot find the linker '" + cxx + "' (set NNC_CXX)");

  SmallString<256> mainLib(runtimeDir), rtLib(runtimeDir);
  sys::path::append(mainLib, "libnnrt_main.a");
  sys::path::append(rtLib, "libnnrt.a");
  for (StringRef lib : {mainLib.str(), rtLib.str()})
    if (!sys::fs::exists(lib))
      return fail("cannot find the runtime library '" + lib +
                  "' (build the nnrt and nnrt_main targets, or set "
                  "NNC_RUNTIME_DIR)");

  SmallString<128> log;
  if (std::error_code ec = sys::fs::createTemporaryFile("nnc-link", "log", log))
    return fail("cannot create a temporary file: " + ec.message());
  SmallVector<StringRef> args = {*program, "-fopenmp", object, mainLib,
                                 rtLib,    "-lm",      "-o",   output};
  std::optional<StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  std::string error;
  int rc = sys::ExecuteAndWait(*program, args, std::nullopt, redirects, 0, 0,
                               &error);
  std::string linkerOutput;
  if (auto buffer = MemoryBuffer::getFile(log))
    linkerOutput = (*buffer)->getBuffer().str();
  sys::fs::remove(log);
  if (rc != 0)
    return fail("linking '" + output + "' failed" +
                (error.empty() ? "" : ": " + error) + "\n" + *program +
                " -fopenmp ... -o " + output + ":\n" + linkerOutput);
  return mlir::success();
}
