"""Checks the dumps of Inputs/tap.nn's bench program built with and without
--tap='more.2.*,pool': the same parameters, loss and outputs; the taps are
the layers' outputs (relu after batch normalisation, the 2x2 max pool of
it); prints one line per check."""

import sys

import numpy as np

plain, tapped = np.load(sys.argv[1]), np.load(sys.argv[2])
print("taps:", sorted(set(tapped) - set(plain)))
print("same:", all(np.array_equal(plain[k], tapped[k])
                    for k in plain if k in tapped))
bn, pool = tapped["more.2.bn"], tapped["pool"]
n, h, w, c = bn.shape
windows = bn.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
print("relu:", bool((bn >= 0).all() and (bn > 0).any()))
print("pool:", np.array_equal(windows, pool))
