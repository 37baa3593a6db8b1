//===- Main.cpp - the bench program's main --------------------------------===//
//
// Part of nnc's runtime. `nnc model.nn -o bench` links this main with the
// compiled model: it initialises (or loads) the parameters, feeds synthetic
// or CIFAR-10 data, runs the chosen entry point for --warmup and --steps
// steps and prints TensorFlow's AlexNet-benchmark lines.
//
//===----------------------------------------------------------------------===//

#include "About.h"
#include "Entries.h"
#include "Outputs.h"
#include "Progress.h"
#include "Run.h"
#include "Signals.h"
#include "Steps.h"

#include "nnrt/Alloc.h"

#include <cstdio>
#include <exception>
#include <new>
#include <optional>

using namespace nnrt;

namespace {
/// The flags, with --epochs implying --mode=train. An exit status when the
/// program stops here: --help (0), a bad flag (2).
std::optional<int> readOptions(int argc, char **argv, Run &run) {
  Options &options = run.options;
  std::string error;
  ModelInfo model;
  bool described = readModelInfo(modelDescription(), model, error);
  if (described)
    options.batchHint = batchHint(model);
  if (!parseOptions(argc, argv, options, error))
    return run.fail(error, 2);
  if (options.help) {
    std::printf("%s%s", usage(run.program).c_str(),
                described ? builtFor(model).c_str() : "");
    return 0;
  }
  if (options.version) {
    if (!described)
      return run.fail("the linked model's description: " + error);
    std::printf("%s", versionText(run.program, model).c_str());
    return 0;
  }
  if (options.epochs && !options.modeGiven)
    options.mode = Mode::Train;
  if (options.epochs && options.mode != Mode::Train)
    return run.fail("--epochs applies to --mode=train", 2);
  if (options.mode == Mode::Eval && options.load.empty())
    return run.fail("--mode=eval evaluates saved parameters: give them with "
                    "--load=FILE.npz (written by --save)",
                    2);
  return std::nullopt;
}
} // namespace

namespace {
/// Under mpirun, joins the job; ranks other than 0 print nothing but
/// their errors.
int joinRanks(Run &run) {
  if (Ranks::launched() == 0)
    return 0;
  usePlainOutput();
  std::string error;
  if (!run.ranks.join(run.program, double(run.options.collectiveTimeout),
                      error))
    return run.fail(error);
  if (run.ranks.rank() > 0 && !std::freopen("/dev/null", "w", stdout))
    return run.fail("cannot silence rank " + std::to_string(run.ranks.rank()) +
                    "'s output");
  return 0;
}

int runProgram(Run &run, int argc, char **argv) {
  if (std::optional<int> status = readOptions(argc, argv, run))
    return *status;
  if (int status = joinRanks(run))
    return status;
  if (run.ranks.rank() == 0)
    if (int status = checkOutputs(run))
      return status;
  if (int status = setUp(run))
    return status;
  // From the first step to the last byte written, SIGINT, SIGTERM and
  // SIGHUP stop the run instead of ending the program.
  StopSignals stop;
  int status = runSteps(run);
  if (interrupted())
    return finishInterrupted(run, status);
  if (status)
    return status;
  printSummary(run);
  status = writeOutputs(run);
  // A signal while the files were written: they are whole, and the exit
  // status still says that the run was asked to stop.
  return status == 0 && interrupted() ? 128 + interruptSignal() : status;
}
} // namespace

int main(int argc, char **argv) {
  keepHeapMapped();
  Run run;
  run.program = argc > 0 ? argv[0] : "bench";
  // Nothing escapes as "terminate called after throwing ...": an exception
  // ends the program with one error line and status 1.
  int status;
  try {
    status = runProgram(run, argc, argv);
  } catch (const OutOfMemory &e) {
    status = run.fail(e.what());
  } catch (const std::bad_alloc &) {
    status = run.fail("out of memory");
  } catch (const std::exception &e) {
    status = run.fail(e.what());
  } catch (...) {
    status = run.fail("unexpected exception");
  }
  // The ranks stop together after an interruption (DataParallel.h).
  return run.ranks.finish(status, run.everyRankFails || interrupted());
}
