"""The CUDA target against the CPU target, through their bench programs.

    python3 cuda_vs_cpu.py --nnc NNC --work DIR [--batch N]
                           [--precision fp32|tf32|bf16] MODEL.nn

Compiles the model for both targets and runs both programs from the same
seeds: three forward steps (the forward output), three forward-backward
steps (the loss and every parameter's gradient) and three training steps
(every parameter after them). On the GPU the first call runs plainly, the
second is captured into a CUDA graph and the third replays it, so the last
dumps come from a replay. Relative error 1e-4 in fp32, 1e-2 in tf32 and
bf16. For models whose PyTorch reference is in gradients.py, the batch is
one whose max-pool windows are not within rounding of a tie (the two
targets sum in different orders). Prints one line per check and
"N passed, N failed".
"""

import argparse
import os
import subprocess
import sys

import numpy as np
import torch

import gradients
import oracle


def build(args, target, name):
    exe = os.path.join(args.work, "%s-%s" % (name, target))
    cmd = [args.nnc, args.model, "-o", exe, "--target=" + target]
    if args.batch:
        cmd.append("--batch=%d" % args.batch)
    if target == "cuda":
        cmd.append("--precision=" + args.precision)
    subprocess.run(cmd, check=True)
    return exe


def run(exe, mode, seed, dump):
    subprocess.run([exe, "--mode=" + mode, "--steps=3", "--warmup=0",
                    "--seed=%d" % seed, "--dump=" + dump],
                   check=True, stdout=subprocess.DEVNULL)
    return dict(np.load(dump))


def separated_seed(name, cpu, work):
    """A batch seed whose max-pool windows are decided by more than
    rounding in the reference (the first one otherwise)."""
    if name not in gradients.MODELS:
        return 3
    torch.set_default_dtype(torch.float32)
    seed, _ = gradients.separated_seed(
        name, lambda seed: run(cpu, "forward-backward", seed,
                               os.path.join(work, name + "-seed.npz")),
        torch.float32)
    return 3 if seed is None else seed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nnc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--batch", type=int)
    parser.add_argument("--precision", choices=("fp32", "tf32", "bf16"),
                        default="fp32")
    parser.add_argument("model")
    args = parser.parse_args()
    name = os.path.basename(args.model)[:-3]
    os.makedirs(args.work, exist_ok=True)
    cpu, gpu = build(args, "cpu", name), build(args, "cuda", name)
    seed = separated_seed(name, cpu, args.work)
    checks = []
    for mode in ("forward", "forward-backward", "train"):
        try:
            want = run(cpu, mode, seed,
                       os.path.join(args.work, "%s-%s-cpu.npz" % (name, mode)))
        except subprocess.CalledProcessError:
            continue  # the model has no such entry point
        got = run(gpu, mode, seed,
                  os.path.join(args.work, "%s-%s-cuda.npz" % (name, mode)))
        for key in sorted(want):
            if want[key].dtype.kind != "f" or key == "images":
                continue
            checks.append(("%s %s" % (mode, key), got[key], want[key]))
    return oracle.report(checks, 1e-4 if args.precision == "fp32" else 1e-2)


if __name__ == "__main__":
    sys.exit(main())
