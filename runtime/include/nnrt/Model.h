//===- Model.h - the description of a compiled model ------------*- C++ -*-===//
//
// Part of nnc's runtime (libnnrt). The typed form of the JSON a compiled
// object exports as `nnc_model_json` (docs/interface.md).
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MODEL_H
#define NNRT_MODEL_H

#include "nnrt/Json.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nnrt {

/// The interface version this runtime reads.
constexpr int kInterfaceVersion = 1;

/// Tensors hold at most 2^53 elements (as nnc compiles them), so counts and
/// byte sizes stay exact.
constexpr int64_t kMaxElements = int64_t(1) << 53;

using Shape = std::vector<int64_t>;
int64_t elementCount(const Shape &shape);
/// Whether `value` is an integer from `min` to kMaxElements (a JSON number
/// read as a count), stored in `out`.
bool exactCount(double value, int64_t &out, int64_t min = 0);
/// "[128, 224, 224, 3]"
std::string formatShape(const Shape &shape);

struct Initializer {
  std::string kind; // zeros, constant, normal, truncated_normal, uniform,
                    // glorot_uniform, glorot_normal, he_normal,
                    // variance_scaling
  double value = 0, mean = 0, stddev = 0, min = 0, max = 0, scale = 1;
  std::string mode = "fan_in", distribution = "truncated_normal";
};

struct Parameter {
  std::string name, dtype;
  Shape shape;
  Initializer init;
  bool trainable = true;
};

/// One argument of an entry point.
struct Argument {
  std::string role; // param, input, labels, output
  std::string name, dtype, layout;
  Shape shape;
  int64_t classes = 0; // labels only
};

struct EntryPoint {
  std::string name, symbol, packed;
  std::vector<Argument> args;
  /// Floating-point operations of one call (matrix products and
  /// convolutions), or 0 when the description does not say.
  int64_t flops = 0;
};

/// One row of the layer-shape table: a layer of `forward` and its output.
struct Layer {
  std::string name, op;
  Shape shape;
};

struct ModelInfo {
  int interface = 0;
  std::string name;
  int64_t batchSize = 0; // 0 when the model declares none
  /// The benchmark whose run the model reproduces: "tf_cnn_benchmarks", or
  /// empty.
  std::string benchmark;
  std::vector<Parameter> parameters;
  std::vector<EntryPoint> entryPoints;
  std::vector<Layer> layers;
  std::map<std::string, std::string> build; // compiler, llvm, target, cpu
  Json optimizer;                           // Null when the model has none

  const EntryPoint *entryPoint(const std::string &name) const;
  /// `build.target`: "cpu" (the default) or "cuda".
  std::string target() const;
  /// `build.precision` of a device build: "fp32" (the default), "tf32" or
  /// "bf16".
  std::string precision() const;
};

/// Reads a description. Returns false with a message on malformed input, an
/// interface version this runtime does not read, or a build target,
/// precision or benchmark it does not know.
bool readModelInfo(const std::string &json, ModelInfo &out, std::string &error);

} // namespace nnrt

#endif // NNRT_MODEL_H
