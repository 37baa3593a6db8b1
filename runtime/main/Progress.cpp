//===- Progress.cpp - progress lines on a terminal ------------------------===//
//
// Part of nnc's runtime (the bench program).
//
//===----------------------------------------------------------------------===//

#include "Progress.h"

#include "nnrt/Stats.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace nnrt;

namespace {
/// Redraws are at least this far apart (Keras' and tqdm's pace).
constexpr double kRedrawSeconds = 0.1;
/// The widest bar, as Keras draws it.
constexpr int kBarWidth = 30;
/// A narrower bar is dropped rather than drawn.
constexpr int kMinBarWidth = 6;
} // namespace

namespace {
bool plainOutput = false;
} // namespace

void nnrt::usePlainOutput() { plainOutput = true; }

bool nnrt::stdoutIsTerminal() {
  return !plainOutput && isatty(fileno(stdout));
}

int nnrt::terminalWidth() {
  winsize size{};
  if (ioctl(fileno(stdout), TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  if (const char *columns = std::getenv("COLUMNS")) {
    int n = std::atoi(columns);
    if (n > 0)
      return n;
  }
  return 80;
}

std::string nnrt::stepCount(int64_t step, int64_t steps) {
  std::string total = std::to_string(steps), done = std::to_string(step);
  if (done.size() < total.size())
    done.insert(0, total.size() - done.size(), ' ');
  return done + "/" + total;
}

std::string nnrt::formatEta(double seconds) {
  long long s = static_cast<long long>(seconds + 0.5);
  char buffer[32];
  if (s >= 3600)
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", s / 3600,
                  s % 3600 / 60, s % 60);
  else if (s >= 60)
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", s / 60, s % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%llds", s);
  return buffer;
}

std::string nnrt::progressBar(int64_t step, int64_t steps, int inside) {
  int done = steps ? static_cast<int>(inside * step / steps) : inside;
  std::string bar = "[" + std::string(done, '=');
  if (done < inside)
    bar += '>' + std::string(inside - done - 1, '.');
  return bar + "]";
}

std::string nnrt::fitProgressLine(const std::string &count, int64_t step,
                                  int64_t steps, const std::string &rest,
                                  int columns) {
  int room = std::max(columns - 1, 1);
  std::string tail = rest.empty() ? "" : " - " + rest;
  int inside = std::min<int>(
      kBarWidth, room - static_cast<int>(count.size() + tail.size()) - 3);
  std::string line = count;
  if (inside >= kMinBarWidth)
    line += " " + progressBar(step, steps, inside);
  line += tail;
  if (static_cast<int>(line.size()) > room)
    line.resize(room);
  return line;
}

std::string nnrt::wrapLine(const std::string &line, int columns) {
  size_t room = static_cast<size_t>(std::max(columns - 1, 8));
  if (line.size() <= room)
    return line;
  std::string out, current;
  size_t at = 0;
  while (at <= line.size()) {
    size_t next = line.find(" - ", at);
    std::string piece =
        line.substr(at, next == std::string::npos ? next : next - at);
    std::string joined = current.empty() ? piece : current + " - " + piece;
    if (!current.empty() && joined.size() > room) {
      out += current + "\n";
      current = "  " + piece;
    } else {
      current = joined;
    }
    while (current.size() > room) { // a piece wider than the terminal
      out += current.substr(0, room) + "\n";
      current = "  " + current.substr(room);
    }
    if (next == std::string::npos)
      break;
    at = next + 3;
  }
  return out + current;
}

ProgressLine::ProgressLine() : terminal(stdoutIsTerminal()) {
  const char *term = std::getenv("TERM");
  dumb = term && std::string(term) == "dumb";
}

void ProgressLine::erase(size_t previous) {
  if (dumb)
    std::printf("\r%s\r", std::string(previous, ' ').c_str());
  else
    std::printf("\r\x1b[K");
}

int ProgressLine::columns() const { return terminalWidth(); }

bool ProgressLine::due() const {
  return terminal && (last < 0 || monotonicSeconds() - last >= kRedrawSeconds);
}

void ProgressLine::draw(const std::string &line) {
  if (!terminal)
    return;
  if (dumb)
    std::printf(
        "\r%s%s", line.c_str(),
        std::string(length > line.size() ? length - line.size() : 0, ' ')
            .c_str());
  else
    std::printf("\r%s\x1b[K", line.c_str());
  std::fflush(stdout);
  shown = true;
  length = line.size();
  last = monotonicSeconds();
}

void ProgressLine::clear() {
  if (!terminal || !shown)
    return;
  erase(length);
  std::fflush(stdout);
  shown = false;
  length = 0;
}

void ProgressLine::finish(const std::string &line) {
  if (terminal) {
    erase(shown ? length : 0);
    std::printf("%s\n", wrapLine(line, columns()).c_str());
  } else {
    std::printf("%s\n", line.c_str());
  }
  std::fflush(stdout);
  shown = false;
  length = 0;
  last = -1;
}

StepCounter::StepCounter(int64_t warmup, int64_t steps)
    : warmup(warmup), steps(steps), start(monotonicSeconds()) {
  update(0);
}

void StepCounter::update(int64_t done) {
  if (!line.due() && done != 0)
    return;
  bool warming = done < warmup;
  int64_t step = warming ? done : done - warmup;
  int64_t total = warming ? warmup : steps;
  std::string count =
      std::string(warming ? "warm-up " : "step ") + stepCount(step, total);
  std::string eta;
  if (done > 0)
    eta = "ETA: " + formatEta((monotonicSeconds() - start) / done *
                              (warmup + steps - done));
  line.draw(fitProgressLine(count, step, total, eta, line.columns()));
}
