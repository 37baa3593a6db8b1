//===- Outputs.h - the files a run writes -----------------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). --dump (parameters, inputs and
// outputs of the last step), --save (the parameters) and --json (the run's
// record): checked before the run, written after it.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_OUTPUTS_H
#define NNRT_MAIN_OUTPUTS_H

#include "Run.h"

namespace nnrt {

/// Whether every output file can be written: a long run never ends unable
/// to write what it computed. Returns 0, or 1 after reporting why not.
int checkOutputs(const Run &run);

/// Writes the parameters to --save, if given (refusing non-finite ones
/// under --on-nan=stop). False after reporting why not.
bool saveParameters(Run &run);

/// After a signal stopped the run (`status`: its steps'): writes --json
/// with what was measured, marked "interrupted". Returns 128 + the signal's
/// number, the steps' own failure status, or 1 after reporting a failure.
int finishInterrupted(Run &run, int status);

/// Writes the output files the flags ask for. Returns 0, or 1 after
/// reporting why not.
int writeOutputs(Run &run);

} // namespace nnrt

#endif // NNRT_MAIN_OUTPUTS_H
