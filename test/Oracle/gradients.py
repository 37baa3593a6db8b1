"""Training against PyTorch autograd, through the bench program.

    python3 gradients.py --nnc NNC --work DIR [--batch N] [--no-train]
                         [--target=cpu|cuda] [--precision=...] MODEL.nn

Compiles the model with `nnc -o`, then
- runs one `forward_backward` step with --dump and compares the loss and
  the gradient of every parameter with PyTorch autograd (float64) on the
  same parameters and batch;
- unless --no-train, runs one `train_step` from the same seed and compares
  every updated parameter with the optimizer's update written out here
  (TensorFlow's momentum, Keras' Adam) from PyTorch's gradients.
The PyTorch models (tf_models.py, on python/tf_semantics.py) are
themselves checked against finite differences (torch.autograd.gradcheck,
float64). Prints one line per check and "N passed, N failed".
"""

import argparse
import os
import sys

import numpy as np
import torch

import oracle
import tf_models

torch.set_default_dtype(torch.float64)


# The optimizer each model declares: (kind, learning rate, momentum).
OPTIMIZERS = {"cifar10_cnn": ("sgd", 0.1, 0.0), "cifar_mlp": ("sgd", 0.01, 0.0),
              "grad_cnn": ("sgd", 0.1, 0.9), "grad_mlp": ("adam", 0.01, 0.0),
              "grad_misc": ("nesterov", 0.05, 0.5),
              "grad_train": ("sgd", 0.1, 0.9),
              "grad_strided": ("sgd", 0.05, 0.5),
              "grad_pools": ("sgd", 0.05, 0.5),
              "grad_branches": ("sgd", 0.05, 0.5),
              "grad_wide": ("sgd", 0.05, 0.5),
              "grad_packed": ("sgd", 0.05, 0.5),
              "grad_filters": ("sgd", 1.0, 0.5)}


def update(kind, lr, momentum, w, g):
    """One step from zero optimizer state, as nnc documents it."""
    if kind == "adam":
        b1, b2, eps = 0.9, 0.999, 1e-7
        m, v = (1 - b1) * g, (1 - b2) * g * g
        lr_t = lr * np.sqrt(1 - b2) / (1 - b1)
        return w - lr_t * m / (np.sqrt(v) + eps)
    if kind == "nesterov":  # v = g; w -= lr * (g + momentum * v)
        return w - lr * (g + momentum * g)
    # TensorFlow's momentum: v = momentum * 0 + g; w -= lr * v.
    return w - lr * g


def run_bench(bench, mode, dump, batch_seed):
    return oracle.run_dump(bench, dump, mode, 1, batch_seed, ["--threads=2"])


def main():
    parser = argparse.ArgumentParser()
    oracle.add_program_arguments(parser)
    parser.add_argument("--no-train", action="store_true")
    parser.add_argument("--gradcheck", action="store_true")
    parser.add_argument("--float32", action="store_true",
                        help="compute the reference in float32: max pooling "
                        "makes gradients discontinuous, and a float64 forward "
                        "pass picks other winners among near-ties")
    oracle.add_target_arguments(parser)
    parser.add_argument("--loss-scale", type=float,
                        help="compile with static loss scaling")
    parser.add_argument("--cpu", help="compile for this CPU (nnc --cpu)")
    parser.add_argument("model")
    args = parser.parse_args()
    name = os.path.basename(args.model)[:-3]
    if args.float32:
        torch.set_default_dtype(torch.float32)
    dtype = torch.get_default_dtype()
    os.makedirs(args.work, exist_ok=True)
    bench = oracle.build(
        args.nnc, args.model, os.path.join(args.work, name + "-bench"),
        args.target, args.precision, args.batch,
        (["--loss-scale=%g" % args.loss_scale] if args.loss_scale else []) +
        (["--cpu=" + args.cpu] if args.cpu else []))
    batch_seed, fb = tf_models.separated_seed(
        name,
        lambda seed: run_bench(bench, "forward-backward",
                               os.path.join(args.work, name + "-fb.npz"), seed),
        dtype,
        lambda seed, gap: print("note: batch seed %d has max-pool windows "
                                "within %.1e of a tie; trying the next" %
                                (seed, gap)))
    if batch_seed is None:
        print("MISMATCH: no batch without near-tied max-pool windows")
        return 1

    grads = {k[:-5]: v for k, v in fb.items() if k.endswith(".grad")}
    params, x, y, loss = tf_models.reference(name, fb, dtype)
    model = tf_models.LOSSES[name]
    loss.backward()

    checks = [("loss", fb["loss"], loss.detach().double().numpy())]
    for k in grads:
        checks.append(("d loss / d " + k, grads[k],
                       params[k].grad.double().numpy()))

    if args.gradcheck:
        small = {k: v.detach().clone().requires_grad_(True)
                 for k, v in params.items()}
        keys = sorted(small)
        ok = torch.autograd.gradcheck(
            lambda *ps: model(dict(zip(keys, ps)), x, y),
            [small[k] for k in keys], eps=1e-6, atol=1e-5)
        print("%s: the PyTorch reference against finite differences" %
              ("match" if ok else "MISMATCH"))

    if not args.no_train:
        kind, lr, momentum = OPTIMIZERS[name]
        tr = run_bench(bench, "train", os.path.join(args.work, name + "-tr.npz"),
                       batch_seed)
        checks.append(("train_step loss", tr["loss"],
                       loss.detach().double().numpy()))
        for k in grads:
            want = update(kind, lr, momentum, fb[k].astype(np.float64),
                          params[k].grad.double().numpy())
            # The update itself, so a missing update cannot pass.
            checks.append(("update of " + k, tr[k] - fb[k], want - fb[k]))

    return oracle.report(checks, oracle.tolerance(args.precision))


if __name__ == "__main__":
    sys.exit(main())
