"""Runs COMMAND and prints its exit status: `status.py -- COMMAND...`."""
import subprocess
import sys

command = sys.argv[sys.argv.index("--") + 1:]
print("exit status %d" % subprocess.call(command, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL))
