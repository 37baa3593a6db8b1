//===- StageTimes.h - how long each step of an nnc run took -----*- C++ -*-===//
//
// Part of nnc. `nnc --time` prints the wall time of each step of the run
// (reading the model, the MLIR passes, LLVM's code generation, linking) on
// one line to stderr. MLIR's own --mlir-timing details the passes.
//
//===----------------------------------------------------------------------===//

#ifndef NNC_TOOLS_NNC_STAGETIMES_H
#define NNC_TOOLS_NNC_STAGETIMES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>
#include <utility>

namespace nnc {

class StageTimes {
public:
  /// Times the step named `what` from construction to destruction.
  class Scope {
  public:
    Scope(StageTimes &times, llvm::StringRef what)
        : times(times), what(what.str()),
          start(std::chrono::steady_clock::now()) {}
    ~Scope();

  private:
    StageTimes &times;
    std::string what;
    std::chrono::steady_clock::time_point start;
  };

  void add(llvm::StringRef what, double seconds);
  /// "nnc: time: read 0.02 s, passes to llvm-mlir 1.10 s, ...; total 2.9 s".
  void print(llvm::raw_ostream &os) const;

private:
  llvm::SmallVector<std::pair<std::string, double>> steps;
};

/// The run's steps.
StageTimes &stageTimes();

} // namespace nnc

#endif // NNC_TOOLS_NNC_STAGETIMES_H
