//===- Npz.h - NumPy .npz archives ------------------------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). Parameters, inputs and outputs are saved
// as NumPy archives (`numpy.load` and `torch.from_numpy` read them): a ZIP of
// uncompressed .npy files, one per named array, f32, i32 or i64,
// little-endian, C order.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_NPZ_H
#define NNRT_NPZ_H

#include "nnrt/Tensor.h"

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace nnrt {

using NamedTensors = std::vector<std::pair<std::string, const Tensor *>>;

/// Writes `arrays` to `path` atomically: a temporary file in the same
/// directory, flushed to disk, then renamed over `path`, so an interrupted
/// write never leaves a truncated archive behind.
bool writeNpz(const std::string &path, const NamedTensors &arrays,
              std::string &error);

/// Which arrays (by name, without ".npy") a reader wants; null: all.
using NpzFilter = std::function<bool(const std::string &)>;

/// Reads every array of an archive written by writeNpz or `numpy.savez`
/// (f32, i32 or i64, C order; compressed archives are refused). Arrays that
/// `wanted` refuses are not read, whatever they hold; their names go to
/// `skipped`, if given.
bool readNpz(const std::string &path, std::map<std::string, Tensor> &out,
             std::string &error, const NpzFilter &wanted = nullptr,
             std::vector<std::string> *skipped = nullptr);

/// readNpz on the archive's bytes (`path` names it in messages). Every
/// offset, size and shape is checked against the bytes before use.
bool readNpzBytes(const std::string &zip, const std::string &path,
                  std::map<std::string, Tensor> &out, std::string &error,
                  const NpzFilter &wanted = nullptr,
                  std::vector<std::string> *skipped = nullptr);

/// The CRC-32 (ZIP's polynomial) of `size` bytes.
uint32_t crc32(const void *data, size_t size);

} // namespace nnrt

#endif // NNRT_NPZ_H
