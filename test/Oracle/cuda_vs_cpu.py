"""The CUDA target against the CPU target, through their bench programs.

    python3 cuda_vs_cpu.py --nnc NNC --work DIR [--batch N]
                           [--precision fp32|tf32|bf16] MODEL.nn

Compiles the model for both targets and runs both programs from the same
seeds: three forward steps (the forward output), three forward-backward
steps (the loss and every parameter's gradient) and three training steps
(every parameter after them). On the GPU the first call runs plainly, the
second is captured into a CUDA graph and the third replays it, so the last
dumps come from a replay. Relative error 1e-4 in fp32, 1e-2 in tf32 and
bf16. For models with a PyTorch reference (tf_models.py), the batch is
one whose max-pool windows are not within rounding of a tie (the two
targets sum in different orders). Prints one line per check and
"N passed, N failed".
"""

import argparse
import os
import sys

import oracle


def main():
    parser = argparse.ArgumentParser()
    oracle.add_program_arguments(parser)
    oracle.add_precision_argument(parser)
    parser.add_argument("model")
    args = parser.parse_args()
    name = os.path.basename(args.model)[:-3]
    os.makedirs(args.work, exist_ok=True)
    cpu, gpu = (oracle.build(args.nnc, args.model,
                             os.path.join(args.work, "%s-%s" % (name, target)),
                             target, args.precision, args.batch)
                for target in ("cpu", "cuda"))
    seed = oracle.comparison_seed(name, cpu,
                                  os.path.join(args.work, name + "-seed.npz"))
    checks = oracle.target_checks(cpu, gpu, seed,
                                  os.path.join(args.work, name))
    return oracle.report(list(checks), oracle.tolerance(args.precision))


if __name__ == "__main__":
    sys.exit(main())
