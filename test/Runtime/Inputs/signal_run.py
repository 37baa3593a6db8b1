"""Starts a command, waits until it has printed a line containing TEXT
(the COUNT-th such line, by default the first), sends it SIGNAL and prints
its exit status ("exit N") once it ends; the command's output passes
through.

    signal_run.py [--pty] SIGNAL TEXT [COUNT] -- COMMAND...

With --pty the command writes to a pseudo-terminal (stdout and stderr),
so TEXT may be in a progress line it redraws; each "\\r" passes through
as a line break.
"""
import os
import signal
import subprocess
import sys

import terminal

args = sys.argv[1:]
use_pty = args[0] == "--pty"
if use_pty:
    args = args[1:]
sig = getattr(signal, args[0])
text = args[1]
count = int(args[2]) if args.index("--") > 2 else 1
command = args[args.index("--") + 1:]

if not use_pty:
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    for line in child.stdout:
        sys.stdout.write(line)
        count -= text in line
        if count == 0:
            child.send_signal(sig)
            break
    sys.stdout.write(child.stdout.read())
    print("exit", child.wait())
    sys.stdout.flush()
    sys.exit(0)

sent = False


def signal_when_shown(child, output):
    global sent
    if not sent and output.decode("utf-8", "replace").count(text) >= count:
        child.send_signal(sig)
        sent = True


output, status = terminal.run(command, on_output=signal_when_shown)
output = output.decode("utf-8", "replace")
sys.stdout.write(output.replace("\x1b[K", "").replace("\r", "\n"))
print("exit", status)
sys.stdout.flush()
