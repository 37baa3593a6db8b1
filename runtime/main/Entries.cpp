//===- Entries.cpp - the compiled model's symbols -------------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Entries.h"

extern "C" {
extern const char nnc_model_json[];
__attribute__((weak)) void nnc_forward(void **);
__attribute__((weak)) void nnc_loss(void **);
__attribute__((weak)) void nnc_forward_backward(void **);
__attribute__((weak)) void nnc_train_step(void **);
__attribute__((weak)) void nnc_eval(void **);
__attribute__((weak)) void nnc_gradients(void **);
__attribute__((weak)) void nnc_apply_update(void **);
}

const char *nnrt::modelDescription() { return nnc_model_json; }

nnrt::PackedFn nnrt::findEntryPoint(const std::string &name) {
  static const struct {
    const char *name;
    PackedFn fn;
  } entries[] = {{"forward", nnc_forward},
                 {"loss", nnc_loss},
                 {"forward_backward", nnc_forward_backward},
                 {"train_step", nnc_train_step},
                 {"eval", nnc_eval},
                 {"gradients", nnc_gradients},
                 {"apply_update", nnc_apply_update}};
  for (const auto &e : entries)
    if (name == e.name)
      return e.fn;
  return nullptr;
}
