"""Runs a command on a pseudo-terminal (its standard input, output and
error), prints what it wrote and exits with its status; a command still
running after 20 seconds is killed and reported as TIMEOUT."""

import os
import pty
import signal
import sys

pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])


def timeout(*_):
    os.kill(pid, signal.SIGKILL)
    print("TIMEOUT")


signal.signal(signal.SIGALRM, timeout)
signal.alarm(20)
out = b""
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    out += data
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
