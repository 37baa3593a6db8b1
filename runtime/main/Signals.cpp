//===- Signals.cpp - stopping a run on SIGINT, SIGTERM or SIGHUP ----------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Signals.h"

#include <csignal>

using namespace nnrt;

namespace {
/// The signal that asked the run to stop, or 0.
volatile std::sig_atomic_t stopRequested = 0;
/// The signal this process received, or 0; across ranks, the run stops
/// only when the ranks agree (DataParallel.h).
volatile std::sig_atomic_t signalReceived = 0;
bool stopsAlone = true;
const int stopSignals[] = {SIGINT, SIGTERM, SIGHUP};

void handleStopSignals(void (*handler)(int)) {
  for (int signal : stopSignals)
    std::signal(signal, handler);
}

void onStopSignal(int signal) {
  signalReceived = signal;
  if (stopsAlone)
    stopRequested = signal;
  handleStopSignals(SIG_DFL); // a second one ends the program
}
} // namespace

StopSignals::StopSignals() { handleStopSignals(onStopSignal); }

StopSignals::~StopSignals() { handleStopSignals(SIG_DFL); }

bool nnrt::interrupted() { return stopRequested != 0; }

int nnrt::interruptSignal() { return stopRequested; }

void nnrt::stopTogether() { stopsAlone = false; }

int nnrt::signalSeen() { return signalReceived; }

void nnrt::requestStop(int signal) { stopRequested = signal; }

const char *nnrt::interruptName() {
  switch (stopRequested) {
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "SIGINT";
  }
}
