"""Runs a command under a pseudo-terminal COLUMNS wide (0: the size is
unset) and checks what a terminal would show of its output: interpreting
"\\r", "\\n" and the erase sequence "\\x1b[K", no line may reach past the
last column (it would wrap), no character of a longer earlier text may be
left over after a "\\r", and the line may be redrawn at most about ten
times a second. Prints the verdicts and the final screen lines.

    pty_run.py COLUMNS -- COMMAND...
"""
import fcntl
import os
import re
import struct
import sys
import termios
import time

import terminal

columns = int(sys.argv[1])
command = sys.argv[sys.argv.index("--") + 1:]


def setup(tty):
    fcntl.ioctl(tty, termios.TIOCSWINSZ,
                struct.pack("HHHH", 24, columns, 0, 0))
    attrs = termios.tcgetattr(tty)
    attrs[1] &= ~termios.ONLCR  # keep "\n" as the program wrote it
    termios.tcsetattr(tty, termios.TCSANOW, attrs)


start = time.monotonic()
output, status = terminal.run(command, setup)
elapsed = time.monotonic() - start
text = output.decode("utf-8", "replace")

width = columns if columns > 0 else int(os.environ.get("COLUMNS", "80"))
# TensorFlow's timestamped lines are printed as its benchmarks print them,
# whatever the width; they are never redrawn.
timestamped = re.compile(r"\d{4}-\d\d-\d\d \d\d:")
lines, screen, cursor, reached, redrawn_widest = [], [], 0, 0, 0
too_wide, leftovers, redraws, i = 0, 0, 0, 0
first_drawn = []


def settle():
    """Checks the line before the cursor returns to its start."""
    global leftovers
    if "".join(screen[reached:]).strip(" "):
        leftovers += 1


def commit():
    """Ends the line: it, and every text drawn on it before, must fit."""
    global too_wide
    line = "".join(screen).rstrip(" ")
    final = 0 if timestamped.match(line) else reached
    if max(final, redrawn_widest) > width - 1:
        too_wide += 1
    lines.append(line)


while i < len(text):
    c = text[i]
    if text.startswith("\x1b[K", i):
        del screen[cursor:]
        i += 3
        continue
    if c == "\r":
        if not first_drawn and screen:
            first_drawn.append("".join(screen))
        settle()
        redraws += 1
        redrawn_widest = max(redrawn_widest, reached)
        cursor = reached = 0
    elif c == "\n":
        settle()
        commit()
        screen, cursor, reached, redrawn_widest = [], 0, 0, 0
    else:
        if cursor < len(screen):
            screen[cursor] = c
        else:
            screen.append(c)
        cursor += 1
        reached = max(reached, cursor)
    i += 1
if screen:
    commit()

# Each phase (an epoch; a benchmark's forward and forward-backward halves,
# whose summaries say "across N steps") may add a few forced redraws: its
# first draw, and the erasures of its last one.
phases = sum(l.startswith("Epoch") or " across " in l for l in lines)
allowed = 10 * elapsed + 4 * max(1, phases)
print("exit status %d" % status)
print("lines past column %d: %d" % (width - 1, too_wide))
print("left over after a carriage return: %d" % leftovers)
print("redraws: %s" % ("at most 10 a second" if redraws <= allowed else
                       "%d in %.2f s" % (redraws, elapsed)))
print("redrawn: %s" % ("yes" if redraws > 0 else "no"))
print("escape sequences: %d" % text.count("\x1b"))
print("first redrawn: %s" % (first_drawn[0] if first_drawn else "none"))
for line in lines:
    print("| " + line)
