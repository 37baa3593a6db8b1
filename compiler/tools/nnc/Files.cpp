//===- Files.cpp - nnc's input and output files ---------------------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "Files.h"

#include "nnc/Driver/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace {

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

/// Reads `file` to its end, or fails once it holds more than the limit.
std::unique_ptr<MemoryBuffer> readBounded(sys::fs::file_t file,
                                          StringRef name) {
  SmallVector<char, 0> data;
  char chunk[1 << 16];
  while (true) {
    Expected<size_t> read = sys::fs::readNativeFile(file, chunk);
    if (!read) {
      (void)nnc::reportError("cannot read '" + name +
                             "': " + toString(read.takeError()));
      return nullptr;
    }
    if (*read == 0)
      break;
    data.append(chunk, chunk + *read);
    if (data.size() > nnc::kMaxInputBytes) {
      (void)nnc::reportError("input '" + name + "' is larger than " +
                             mib(nnc::kMaxInputBytes) +
                             "; nnc reads model files (.nn, .mlir)");
      return nullptr;
    }
  }
  return MemoryBuffer::getMemBufferCopy(StringRef(data.data(), data.size()),
                                        name);
}

} // namespace

std::unique_ptr<MemoryBuffer> nnc::readInput(StringRef path) {
  if (path == "-") {
    if (sys::Process::StandardInIsUserInput()) {
      (void)reportError("no input file: nnc MODEL.nn [-o PROGRAM] (--help "
                        "lists the options; '-' reads a model piped in)");
      return nullptr;
    }
    return readBounded(sys::fs::getStdinHandle(), "<stdin>");
  }
  if (sys::fs::is_directory(path)) {
    (void)reportError("cannot read '" + path + "': it is a directory");
    return nullptr;
  }
  Expected<sys::fs::file_t> file = sys::fs::openNativeFileForRead(path);
  if (!file) {
    std::error_code ec = errorToErrorCode(file.takeError());
    (void)reportError("cannot open input file '" + path + "': " + ec.message());
    return nullptr;
  }
  std::unique_ptr<MemoryBuffer> buffer = readBounded(*file, path);
  sys::fs::closeFile(*file);
  return buffer;
}

mlir::LogicalResult nnc::checkOutput(StringRef input, StringRef output,
                                     bool program) {
  if (output == "-")
    return mlir::success();
  if (input != "-" && sys::fs::equivalent(input, output))
    return reportError("-o '" + output +
                       "' is the input file; nnc does not "
                       "write over its input");
  if (sys::fs::is_directory(output))
    return reportError("-o '" + output +
                       "' is a directory; name the file to "
                       "write");
  sys::fs::file_status status;
  if (program && !sys::fs::status(output, status) &&
      !sys::fs::is_regular_file(status))
    return reportError("-o '" + output +
                       "' is not a regular file; the bench "
                       "program is written to a file");
  SmallString<128> dir(output);
  sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  if (!sys::fs::is_directory(dir))
    return reportError("cannot write '" + output + "': directory '" + dir +
                       "' does not exist");
  if (sys::fs::access(dir, sys::fs::AccessMode::Write))
    return reportError("cannot write '" + output + "': directory '" + dir +
                       "' is not writable");
  return mlir::success();
}
