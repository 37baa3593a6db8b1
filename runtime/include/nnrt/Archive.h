//===- Archive.h - compressed and archived data files -----------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Data files as they are downloaded:
// gzip-compressed (MNIST's FILE.gz, CIFAR-10's cifar-10-binary.tar.gz),
// inflated with zlib, and tar archives.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_ARCHIVE_H
#define NNRT_ARCHIVE_H

#include <string>
#include <utility>
#include <vector>

namespace nnrt {

/// Whether a regular file exists at `path`.
bool fileExists(const std::string &path);

/// Whether `bytes` start with gzip's magic number.
bool isGzip(const std::string &bytes);

/// Inflates the gzip stream `in` (one or more members) into `out`, or
/// false with a message naming `name`. zlib (libz.so.1) is loaded when
/// first needed, so programs linked with libnnrt need not link it.
bool gunzip(const std::string &in, const std::string &name, std::string &out,
            std::string &error);

/// `bytes` (the contents of the file `name`), inflated into `out` when
/// they are gzip-compressed, else copied.
bool inflateIfGzip(const std::string &bytes, const std::string &name,
                   std::string &out, std::string &error);

/// The contents of `path`, inflated when it is gzip-compressed.
bool readFileBytes(const std::string &path, std::string &out,
                   std::string &error);

/// The regular files of the tar archive `bytes` as (path, contents), or
/// false with a message naming `name`.
bool readTar(const std::string &bytes, const std::string &name,
             std::vector<std::pair<std::string, std::string>> &files,
             std::string &error);

} // namespace nnrt

#endif // NNRT_ARCHIVE_H
