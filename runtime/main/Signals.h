//===- Signals.h - stopping a run on SIGINT, SIGTERM or SIGHUP --*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). While a StopSignals lives, the
// first SIGINT (Ctrl-C), SIGTERM or SIGHUP only asks the run to stop: every
// mode's loop ends after its current step, and the program writes what it
// measured (--json, marked interrupted; training also --save) and exits
// with 128 + the signal's number. A second signal ends the program at once.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_SIGNALS_H
#define NNRT_MAIN_SIGNALS_H

namespace nnrt {

/// Installs the stop handlers; the destructor puts back the default
/// actions.
class StopSignals {
public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals &) = delete;
  StopSignals &operator=(const StopSignals &) = delete;
};

/// Whether a signal asked the run to stop, and which (0: none).
bool interrupted();
int interruptSignal();
/// "SIGINT", "SIGTERM" or "SIGHUP": the signal that asked the run to stop.
const char *interruptName();

/// Across ranks, a signal only records itself (signalSeen()); the run
/// stops when requestStop() says the ranks agreed to, after the same step.
void stopTogether();
int signalSeen();
void requestStop(int signal);

} // namespace nnrt

#endif // NNRT_MAIN_SIGNALS_H
