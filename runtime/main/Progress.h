//===- Progress.h - progress lines on a terminal ----------------*- C++ -*-===//
//
// Part of nnc's runtime (the bench program). Keras' progress bar for
// training epochs and a step counter for --steps runs: drawn only when
// stdout is a terminal, sized to its width, never wrapping, each redraw
// clearing the previous line, at most ten redraws a second.
//
//===----------------------------------------------------------------------===//

#ifndef NNRT_MAIN_PROGRESS_H
#define NNRT_MAIN_PROGRESS_H

#include <cstdint>
#include <string>

namespace nnrt {

/// Whether stdout is a terminal (and progress lines redraw in place).
bool stdoutIsTerminal();
/// Plain lines from now on, whatever stdout is: under mpirun, whose ranks
/// write to a terminal of its own even when its output is a file.
void usePlainOutput();

/// The terminal's columns: TIOCGWINSZ on stdout, else $COLUMNS, else 80.
int terminalWidth();

/// "  7/100": the step right-aligned to the width of the total.
std::string stepCount(int64_t step, int64_t steps);

/// Seconds as Keras writes an ETA: "7s", "1:05", "1:02:03".
std::string formatEta(double seconds);

/// "[=====>........]" with `inside` characters between the brackets.
std::string progressBar(int64_t step, int64_t steps, int inside);

/// `count [bar] - rest`, the bar shrunk (at most 30 wide) or dropped so the
/// line fits in `columns - 1` characters, then cut there if it still does
/// not.
std::string fitProgressLine(const std::string &count, int64_t step,
                            int64_t steps, const std::string &rest,
                            int columns);

/// `line` broken at its " - " separators into lines of at most
/// `columns - 1` characters (continuations indented by two), so a final
/// line never wraps.
std::string wrapLine(const std::string &line, int columns);

/// A line redrawn in place on a terminal.
class ProgressLine {
public:
  ProgressLine();
  bool active() const { return terminal; }
  /// Whether a redraw is due: the first, or 0.1 s after the last one.
  bool due() const;
  /// Replaces the line with `line` (already fitted): "\r", the text, and
  /// "\x1b[K" (erase to the end of the line), or on a terminal without
  /// escape sequences (TERM=dumb) spaces over the rest of the previous text.
  void draw(const std::string &line);
  /// Erases the line, leaving the cursor at its start.
  void clear();
  /// Replaces the line with `line`, wrapped to the width, and ends it.
  void finish(const std::string &line);
  int columns() const;

private:
  /// "\r" and a blank line of `length` characters, or "\r\x1b[K".
  void erase(size_t length);

  bool terminal, dumb;
  bool shown = false;
  size_t length = 0; ///< of the text drawn last
  double last = -1;
};

/// A transient "warm-up 3/10" / "step 17/100 - ETA: 1:05" line for runs
/// whose own lines are sparse; erased before each of their lines.
class StepCounter {
public:
  StepCounter(int64_t warmup, int64_t steps);
  /// After `done` steps of all (warm-up first).
  void update(int64_t done);
  /// Erases the counter before a line of the run's own.
  void clear() { line.clear(); }

private:
  ProgressLine line;
  int64_t warmup, steps;
  double start;
};

} // namespace nnrt

#endif // NNRT_MAIN_PROGRESS_H
