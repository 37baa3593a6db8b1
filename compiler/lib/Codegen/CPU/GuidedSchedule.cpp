//===- GuidedSchedule.cpp - the nnc-cpu-guided-schedule pass --------------===//
//
// Part of nnc. Every OpenMP worksharing loop hands out its iterations with
// the guided schedule: chunks of what is left over the threads, halving as
// the loop runs out, taken by whichever thread is free. The static schedule
// (upstream convert-scf-to-openmp's) gives each thread its share up front,
// so a step waits for the slower core: on a core shared with another
// process, AlexNet's forward pass took 1.49 s a step with it and 1.29 s
// with guided (docs/bench.md).
//
//===----------------------------------------------------------------------===//

#include "nnc/Codegen/CPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace nnc::cpu {
#define GEN_PASS_DEF_GUIDEDSCHEDULEPASS
#include "nnc/Codegen/CPU/Passes.h.inc"
} // namespace nnc::cpu

using namespace mlir;

namespace {
struct GuidedSchedulePass
    : nnc::cpu::impl::GuidedSchedulePassBase<GuidedSchedulePass> {
  void runOnOperation() override {
    getOperation().walk([](omp::WsloopOp loop) {
      if (!loop.getScheduleKind())
        loop.setScheduleKind(omp::ClauseScheduleKind::Guided);
    });
  }
};
} // namespace
