//===- About.cpp - what the bench program says about itself ---------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "About.h"

#include <cstring>

using namespace nnrt;

namespace {
std::string buildField(const ModelInfo &model, const std::string &key) {
  auto it = model.build.find(key);
  return it == model.build.end() ? "" : it->second;
}

/// "cpu (znver4)", "cuda (sm_90, fp32)".
std::string targetText(const ModelInfo &model) {
  std::string target = model.target();
  std::string detail = target == "cuda" ? buildField(model, "gpu_arch") + ", " +
                                              model.precision()
                                        : buildField(model, "cpu");
  return detail.empty() || detail == ", " ? target
                                          : target + " (" + detail + ")";
}

/// The first argument of `role` over the entry points, or null.
const Argument *firstArgument(const ModelInfo &model, const std::string &role) {
  for (const EntryPoint &entry : model.entryPoints)
    for (const Argument &arg : entry.args)
      if (arg.role == role)
        return &arg;
  return nullptr;
}

/// The batch: the description's, else the input's first dimension.
int64_t batchOf(const ModelInfo &model) {
  if (model.batchSize)
    return model.batchSize;
  const Argument *input = firstArgument(model, "input");
  return input && !input->shape.empty() ? input->shape[0] : 0;
}
} // namespace

std::string nnrt::versionText(const char *program, const ModelInfo &model) {
  const char *slash = std::strrchr(program, '/');
  std::string name = slash ? slash + 1 : program;
  std::string compiler = buildField(model, "compiler");
  std::string llvm = buildField(model, "llvm");
  return name + " (nnrt " NNC_VERSION ")\nmodel " + model.name + ", batch " +
         std::to_string(batchOf(model)) + ", compiled by " +
         (compiler.empty() ? "nnc" : compiler) +
         (llvm.empty() ? "" : " (LLVM " + llvm + ")") + " for " +
         targetText(model) + "\n";
}

std::string nnrt::batchHint(const ModelInfo &model) {
  return "the batch is compiled in (model '" + model.name + "', batch " +
         std::to_string(batchOf(model)) +
         "); for another, recompile: nnc MODEL.nn --batch=N -o PROGRAM";
}

std::string nnrt::builtFor(const ModelInfo &model) {
  std::string text = "\nThis program runs model '" + model.name +
                     "', compiled for batch " + std::to_string(batchOf(model)) +
                     " and " + targetText(model) + ":\n";
  if (const Argument *input = firstArgument(model, "input"))
    text += "  input   " + input->name + " " + formatShape(input->shape) + " " +
            input->dtype + (input->layout.empty() ? "" : " " + input->layout) +
            "\n";
  if (const Argument *labels = firstArgument(model, "labels"))
    text += "  labels  " + labels->name + " " + formatShape(labels->shape) +
            " " + labels->dtype + ", " + std::to_string(labels->classes) +
            " classes\n";
  std::string entries;
  for (const EntryPoint &entry : model.entryPoints)
    entries += (entries.empty() ? "" : ", ") + entry.name;
  text += "  entry points: " + entries + "\n";
  text += "The batch is compiled in; for another, recompile: nnc MODEL.nn "
          "--batch=N -o PROGRAM\n";
  return text;
}
