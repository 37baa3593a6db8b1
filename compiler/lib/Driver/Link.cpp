//===- Link.cpp - linking a compiled model into the bench program ---------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "nnc/Driver/Link.h"

#include "nnc/Driver/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

using namespace llvm;

std::string nnc::findRuntimeDir(const char *argv0) {
  if (std::optional<std::string> dir = sys::Process::GetEnv("NNC_RUNTIME_DIR"))
    return *dir;
  static int anchor;
  std::string exe = sys::fs::getMainExecutable(argv0, &anchor);
  SmallString<256> dir(sys::path::parent_path(sys::path::parent_path(exe)));
  sys::path::append(dir, "lib");
  return std::string(dir);
}

/// The CUDA target's libraries and flags: the runtime's CUDA archive, then
/// what the CUDA libraries need (nnrt_cuda.ldflags, written at configure
/// time: -L, rpath and -l flags of cudart, cuDNN and cuBLASLt).
static mlir::LogicalResult cudaLinkFlags(StringRef runtimeDir,
                                         std::vector<std::string> &flags) {
  SmallString<256> lib(runtimeDir), ldflags(runtimeDir);
  sys::path::append(lib, "libnnrt_cuda.a");
  sys::path::append(ldflags, "nnrt_cuda.ldflags");
  auto buffer = MemoryBuffer::getFile(ldflags);
  if (!sys::fs::exists(lib) || !buffer)
    return nnc::reportError("cannot find the CUDA runtime ('" + lib +
                            "' and '" + ldflags +
                            "'): build the nnrt_cuda target, or set "
                            "NNC_RUNTIME_DIR");
  flags.push_back(lib.str().str());
  SmallVector<StringRef> words;
  (*buffer)->getBuffer().split(words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef word : words)
    if (!word.trim().empty())
      flags.push_back(word.trim().str());
  return mlir::success();
}

/// Whether lld is installed beside `clang` (the driver's own directory,
/// where its -fuse-ld=lld looks first): it links a bench program in about
/// half the time of the system's ld.bfd (Inception-v3's 17 objects and the
/// runtime: 0.07 s against 0.13).
static bool lldBeside(StringRef clang) {
  SmallString<256> lld;
  if (sys::fs::real_path(clang, lld))
    return false;
  sys::path::remove_filename(lld);
  sys::path::append(lld, "ld.lld");
  return sys::fs::can_execute(lld);
}

mlir::LogicalResult nnc::linkExecutable(ArrayRef<std::string> objects,
                                        StringRef output, StringRef runtimeDir,
                                        Target target) {
  std::string cxx = NNC_LINKER;
  if (std::optional<std::string> env = sys::Process::GetEnv("NNC_CXX"))
    cxx = *env;
  if (cxx.empty())
    return nnc::reportError(
        "no C++ compiler to link with: nnc was configured without "
        "clang++; set NNC_CXX to a clang++ with OpenMP (libomp)");
  ErrorOr<std::string> program = sys::findProgramByName(cxx);
  if (!program)
    return nnc::reportError("cannot find the linker '" + cxx +
                            "' (set NNC_CXX)");

  SmallString<256> mainLib(runtimeDir), rtLib(runtimeDir);
  sys::path::append(mainLib, "libnnrt_main.a");
  sys::path::append(rtLib, "libnnrt.a");
  for (StringRef lib : {mainLib.str(), rtLib.str()})
    if (!sys::fs::exists(lib))
      return nnc::reportError("cannot find the runtime library '" + lib +
                              "' (build the nnrt and nnrt_main targets, or set "
                              "NNC_RUNTIME_DIR)");

  SmallString<128> log;
  if (std::error_code ec = sys::fs::createTemporaryFile("nnc-link", "log", log))
    return nnc::reportError("cannot create a temporary file: " + ec.message());
  // The archives in dependency order: the bench's main, the CUDA runtime
  // (its device is found through a weak reference, hence --undefined), the
  // common runtime; then the shared libraries.
  std::vector<std::string> cudaFlags;
  if (target == Target::CUDA && failed(cudaLinkFlags(runtimeDir, cudaFlags)))
    return mlir::failure();
  SmallVector<StringRef> args = {*program, "-fopenmp"};
  if (lldBeside(*program))
    args.push_back("-fuse-ld=lld");
  for (const std::string &object : objects)
    args.push_back(object);
  if (target == Target::CUDA)
    args.push_back("-Wl,--undefined=nnrt_cuda_device");
  args.push_back(mainLib);
  if (!cudaFlags.empty())
    args.push_back(cudaFlags.front());
  args.push_back(rtLib);
  for (const std::string &flag :
       ArrayRef(cudaFlags).drop_front(cudaFlags.empty() ? 0 : 1))
    args.push_back(flag);
  // The runtime's directory on the run path: a program started by mpirun
  // loads libnnrt_mpi.so from there (docs/distributed.md).
  std::string runPath = ("-Wl,-rpath," + runtimeDir).str();
  args.push_back(runPath);
  for (StringRef a : {"-lm", "-o"})
    args.push_back(a);
  args.push_back(output);
  std::optional<StringRef> redirects[] = {std::nullopt, log.str(), log.str()};
  std::string error;
  int rc = sys::ExecuteAndWait(*program, args, std::nullopt, redirects, 0, 0,
                               &error);
  std::string linkerOutput;
  if (auto buffer = MemoryBuffer::getFile(log))
    linkerOutput = (*buffer)->getBuffer().str();
  sys::fs::remove(log);
  if (rc != 0)
    return nnc::reportError("linking '" + output + "' failed" +
                            (error.empty() ? "" : ": " + error) + "\n" +
                            *program + " -fopenmp ... -o " + output + ":\n" +
                            linkerOutput);
  return mlir::success();
}
