"""A command run under a pseudo-terminal, for the tests of what the bench
program shows on one (pty_run.py, signal_run.py)."""
import os
import pty
import subprocess


def run(command, setup=None, on_output=None):
    """Runs `command` with its stdout and stderr on a new pseudo-terminal
    until it closes it. `setup(terminal)` configures the terminal first;
    `on_output(child, output)` sees the output so far after every read.
    Returns the output (bytes) and the exit status."""
    master, terminal = pty.openpty()
    if setup:
        setup(terminal)
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                             stdout=terminal, stderr=terminal, close_fds=True)
    os.close(terminal)
    output = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
        if on_output:
            on_output(child, output)
    return bytes(output), child.wait()
