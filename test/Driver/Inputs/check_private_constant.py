"""Checks the dump of Inputs/private-constant.mlir's bench program: its
output is the input plus twice the constant (added, added, subtracted,
added); prints the largest difference."""

import sys

import numpy as np

dump = np.load(sys.argv[1])
constant = np.arange(1, 9, dtype=np.float32).reshape(2, 4)
error = np.abs(dump["output0"] - (dump["arg0"] + 2 * constant)).max()
print("max abs error", error)
print("ok" if error < 1e-5 else "wrong")
