"""Dropout masks of a compiled program: bit for bit, and their statistics.

    python3 dropout_masks.py --nnc NNC --work DIR Inputs/dropout_masks.nn

Compiles the model with `nnc -o` and runs `forward_backward` with the
global step at 0, 7 and 2^24 - 1 (--load of the parameters with
global_step set). The gradient of each layer's biases is its mask scaled
by 1 / (1 - rate)^2 (see the model). Checks, for every layer and step:
- the mask against philox.py's, bit for bit (seeds: FNV-1a of the layer
  name shifted right once, or the explicit one), and the kept values;
- the kept fraction within 4 standard errors of 1 - rate;
and that masks differ between steps and between layers as independent
draws would (the fraction of differing bits within 4 standard errors of
2 p (1 - p)), and that a second compilation and run draw the same
masks. Prints one line
per check and "N passed, N failed".
"""

import argparse
import math
import os
import sys

import numpy as np

import oracle
import philox

# name -> (rate, seed), as in Inputs/dropout_masks.nn.
LAYERS = {"d1": (0.3, philox.seed_of("d1")), "d2": (0.3, philox.seed_of("d2")),
          "d3": (0.5, 12345)}
STEPS = (0, 7, 2 ** 24 + 1)  # the last: past f32's exact integers


def within(name, value, want, sigma):
    """A statistical check: |value - want| <= 4 sigma."""
    ok = abs(value - want) <= 4 * sigma
    return ok, "%s: %.5f, expected %.5f +/- %.5f" % (name, value, want,
                                                     4 * sigma)


def main():
    parser = argparse.ArgumentParser()
    oracle.add_program_arguments(parser)
    parser.add_argument("model")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    bench = oracle.build(args.nnc, args.model,
                         os.path.join(args.work, "dropout-bench"))
    work = lambda f: os.path.join(args.work, "dropout-%s.npz" % f)
    flags = ["--threads=2"]
    first = oracle.run_dump(bench, work("0"), "forward-backward", 1, 3, flags)
    params = {k: v for k, v in first.items()
              if "." in k and not k.endswith(".grad")}
    masks, checks = {}, []
    for step in STEPS:
        if step:
            np.savez(work("params"), global_step=np.int64(step), **params)
            dump = oracle.run_dump(bench, work(str(step)), "forward-backward",
                                   1, 3, flags + ["--load=" + work("params")])
        else:
            dump = first
        for name, (rate, seed) in LAYERS.items():
            grad = dump["h%s.biases.grad" % name[1:]]
            got = grad != 0
            want = philox.dropout_keep(grad.shape, step, rate, seed)
            masks[name, step] = got
            wrong = int(np.sum(got != want))
            checks.append((wrong == 0, "%s step %d: mask bit for bit "
                           "(%d of %d bits differ)" % (name, step, wrong,
                                                       got.size)))
            ok, _ = oracle.close(grad, want / (1 - rate) ** 2)
            checks.append((ok, "%s step %d: kept values 1 / (1 - rate)^2" %
                           (name, step)))
            p = 1 - rate
            checks.append(within("%s step %d: kept fraction" % (name, step),
                                 got.mean(), p,
                                 math.sqrt(p * (1 - p) / got.size)))

    def differ(a, b, rate):
        q = 2 * rate * (1 - rate)
        return float(np.mean(masks[a] != masks[b])), q, math.sqrt(
            q * (1 - q) / masks[a].size)

    for a, b in ((("d1", 0), ("d1", 7)), (("d1", 7), ("d1", STEPS[2])),
                 (("d3", 0), ("d3", 7)), (("d1", 0), ("d2", 0)),
                 (("d2", 7), ("d1", 7))):
        value, q, sigma = differ(a, b, LAYERS[a[0]][0])
        checks.append(within("%s step %d against %s step %d: bits differing"
                             % (a + b), value, q, sigma))
    # Another compilation and run draw the same masks.
    again = oracle.build(args.nnc, args.model,
                         os.path.join(args.work, "dropout-bench-again"))
    again = oracle.run_dump(again, work("again"), "forward-backward", 1, 3,
                            flags)
    same = all(np.array_equal(again[k], first[k]) for k in first)
    checks.append((same, "compiled and run again: the same masks and "
                   "gradients"))
    failed = 0
    for ok, text in checks:
        print("%s: %s" % ("match" if ok else "MISMATCH", text))
        failed += not ok
    print("%d passed, %d failed" % (len(checks) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
