//===- StageTimes.cpp - how long each step of an nnc run took -------------===//
//
// Part of nnc.
//
//===----------------------------------------------------------------------===//

#include "StageTimes.h"

#include "llvm/Support/Format.h"

using namespace nnc;

StageTimes::Scope::~Scope() {
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  times.add(what, took.count());
}

void StageTimes::add(llvm::StringRef what, double seconds) {
  steps.emplace_back(what.str(), seconds);
}

void StageTimes::print(llvm::raw_ostream &os) const {
  double total = 0;
  os << "nnc: time:";
  for (auto [i, step] : llvm::enumerate(steps)) {
    os << (i ? ", " : " ") << step.first << " "
       << llvm::format("%.2f", step.second) << " s";
    total += step.second;
  }
  os << "; total " << llvm::format("%.2f", total) << " s\n";
}

StageTimes &nnc::stageTimes() {
  static StageTimes times;
  return times;
}
