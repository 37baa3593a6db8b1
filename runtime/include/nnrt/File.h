//===- File.h - reading and writing the files a user owns -------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Input files are read whole, with a
// message for a directory or a read error. Output files (--save, --dump,
// --json) are replaced atomically: a temporary file beside the target, every
// byte written and flushed to disk, then renamed over it. A failure (a full
// disk included) leaves the old file as it was and no temporary behind.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_FILE_H
#define NNRT_FILE_H

#include <string>

namespace nnrt {

/// The whole of the file `path` into `out`. False with a message naming
/// `path` when it is missing, a directory or cannot be read.
bool readFile(const std::string &path, std::string &out, std::string &error);

/// Replaces the file `path` with `data`. A symbolic link is written
/// through (its target is replaced, the link stays); the file keeps its
/// permission bits (a new one gets 0666 less the umask). Temporaries that
/// earlier processes left behind (`NAME.tmp.PID`, the process gone) are
/// removed. False with a message naming `path` on any failure.
bool writeFileAtomically(const std::string &path, const std::string &data,
                         std::string &error);

/// Whether writeFileAtomically could write `path`: not a directory, in an
/// existing directory where a file can be created (tried). False with a
/// message naming `path` otherwise.
bool checkWritable(const std::string &path, std::string &error);

} // namespace nnrt

#endif // NNRT_FILE_H
