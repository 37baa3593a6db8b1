// Links a compiled model with libnnrt and prints what its description says.
#include "nnrt/Model.h"

#include <cstdio>

extern "C" const char nnc_model_json[];

int main() {
  nnrt::ModelInfo model;
  std::string error;
  if (!nnrt::readModelInfo(nnc_model_json, model, error)) {
    std::printf("error: %s\n", error.c_str());
    return 1;
  }
  std::printf("model %s, batch %lld, %zu parameters\n", model.name.c_str(),
              (long long)model.batchSize, model.parameters.size());
  for (const nnrt::Parameter &p : model.parameters)
    std::printf("  %s %s %s %s\n", p.name.c_str(), p.dtype.c_str(),
                nnrt::formatShape(p.shape).c_str(), p.init.kind.c_str());
  for (const nnrt::EntryPoint &e : model.entryPoints) {
    std::printf("entry %s (%s):", e.name.c_str(), e.packed.c_str());
    for (const nnrt::Argument &a : e.args)
      if (a.role != "param")
        std::printf(" %s %s %s", a.role.c_str(), a.name.c_str(),
                    nnrt::formatShape(a.shape).c_str());
    std::printf("\n");
  }
  return 0;
}
