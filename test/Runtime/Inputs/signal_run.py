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
import pty
import signal
import subprocess
import sys

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

master, slave = pty.openpty()
child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=slave,
                         stderr=slave, close_fds=True)
os.close(slave)
output, sent = "", False
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    output += chunk.decode("utf-8", "replace")
    if not sent and output.count(text) >= count:
        child.send_signal(sig)
        sent = True
sys.stdout.write(output.replace("\x1b[K", "").replace("\r", "\n"))
print("exit", child.wait())
sys.stdout.flush()
