"""Whether two saved training runs hold the same parameters within a
relative tolerance: `close.py A.npz B.npz RTOL`.

Each array's largest difference, relative to the largest magnitude of B's
array, must be at most RTOL; integer arrays (the global step) must be
equal. Prints each array's figure, then `same within RTOL` or exits 1.
"""

import sys

import numpy as np


def main(a_path, b_path, rtol):
    rtol = float(rtol)
    a, b = np.load(a_path), np.load(b_path)
    if sorted(a.files) != sorted(b.files):
        sys.exit("different arrays: %s / %s" % (sorted(a.files), sorted(b.files)))
    worst = 0.0
    for name in b.files:
        x, y = a[name], b[name]
        if x.shape != y.shape or x.dtype != y.dtype:
            sys.exit("%s: %s %s / %s %s" % (name, x.shape, x.dtype, y.shape, y.dtype))
        if not np.issubdtype(y.dtype, np.floating):
            if not np.array_equal(x, y):
                sys.exit("%s: %s / %s" % (name, x, y))
            continue
        x, y = x.astype(np.float64), y.astype(np.float64)
        scale = max(np.abs(y).max(), 1e-30)
        rel = np.abs(x - y).max() / scale
        print("%s: %.2e" % (name, rel))
        worst = max(worst, rel)
    if worst > rtol:
        sys.exit("largest relative difference %.2e exceeds %g" % (worst, rtol))
    print("same within %g" % rtol)


if __name__ == "__main__":
    main(*sys.argv[1:])
