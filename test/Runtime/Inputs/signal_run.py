"""Starts a command, waits until it has printed a line containing TEXT,
sends it SIGNAL and prints its exit status ("exit N") once it ends; the
command's output passes through.

    signal_run.py SIGNAL TEXT -- COMMAND...
"""
import signal
import subprocess
import sys

sig = getattr(signal, sys.argv[1])
text = sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
for line in child.stdout:
    sys.stdout.write(line)
    if text in line:
        child.send_signal(sig)
        break
sys.stdout.write(child.stdout.read())
print("exit", child.wait())
sys.stdout.flush()
