"""Several training steps and inference after them, against PyTorch.

    python3 train_steps.py --nnc NNC --work DIR [--steps N] [--bench EXE]
                           MODEL.nn

For Inputs/grad_train.nn (batch normalisation, dropout; SGD with momentum
0.9, learning rate 0.1), through the bench program:
- `--mode=train --steps=N` from the initial parameters, on the same
  synthetic batch each step: every parameter afterwards (the trainable
  ones, their momentum, each normalisation's moving mean and variance, and
  global_step) against the same N steps written out here: autograd
  gradients of the PyTorch model (float64, tf_models.grad_train_net) with
  the dropout masks of steps 0 .. N-1; v <- 0.9 v + g, w <- w - 0.1 v;
  moving <- decay * moving + (1 - decay) * statistic, the variance times
  Bessel's n / (n - 1);
- `--mode=forward` on those parameters (--load): the logits with the moving
  statistics and no dropout.
Each changed array is compared by its change, so a missing update cannot
pass. --bench names the model's bench program when it is already compiled
(by gradients.py). Prints one line per check and "N passed, N failed".
"""

import argparse
import os
import sys

import numpy as np
import torch

import oracle
import tf_models

torch.set_default_dtype(torch.float64)

LEARNING_RATE, MOMENTUM = 0.1, 0.9


def reference_steps(init, names, x, y, steps):
    """The parameters `names` (name -> float64 array) after `steps`
    steps from `init`."""
    state = {k: init[k].astype(np.float64) for k in names}
    trainable = [k for k in init if k + ".momentum" in init]
    for step in range(steps):
        p = {k: torch.tensor(state[k], requires_grad=k in trainable)
             for k in state}
        logits, stats = tf_models.grad_train_net(p, x, step)
        loss = tf_models.T.sparse_softmax_cross_entropy(logits, y)
        loss.backward()
        for k in trainable:
            v = MOMENTUM * state[k + ".momentum"] + p[k].grad.numpy()
            state[k + ".momentum"] = v
            state[k] = state[k] - LEARNING_RATE * v
        for name, (mean, var, n) in stats.items():
            decay = tf_models.GRAD_TRAIN_NORMS[name][1]
            for key, value in (("moving_mean", mean.detach().numpy()),
                               ("moving_variance",
                                var.detach().numpy() * n / (n - 1))):
                k = "%s.%s" % (name, key)
                state[k] = decay * state[k] + (1 - decay) * value
        state["global_step"] = state["global_step"] + 1
    return state


def main():
    parser = argparse.ArgumentParser()
    oracle.add_program_arguments(parser)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--bench", help="the model's bench program")
    parser.add_argument("model")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    name = os.path.basename(args.model)[:-3]
    bench = args.bench or oracle.build(
        args.nnc, args.model, os.path.join(args.work, name + "-bench"))
    work = lambda f: os.path.join(args.work, "%s-%s.npz" % (name, f))
    flags = ["--threads=2"]
    init = oracle.run_dump(bench, work("init"), "forward", 1, 3, flags)
    trained = oracle.run_dump(bench, work("train"), "train", args.steps, 3,
                              flags + ["--save=" + work("params")])
    x = torch.tensor(trained["images"], dtype=torch.float64)
    y = torch.tensor(trained["labels"])
    checks = [("images unchanged between steps", trained["images"],
               init["images"])]
    # The parameters: what both dumps hold but the inputs and outputs.
    names = [k for k in init if k in trained and k != "images"]
    want = reference_steps(init, names, x, y, args.steps)
    for k in sorted(want):
        checks.append(("%s after %d train steps (change)" % (k, args.steps),
                       trained[k] - init[k], want[k] - init[k]))

    forward = oracle.run_dump(bench, work("forward"), "forward", 1, 3,
                              flags + ["--load=" + work("params")])
    p = {k: torch.tensor(v) for k, v in want.items()}
    with torch.no_grad():
        logits, _ = tf_models.grad_train_net(p, x, training=False)
    checks.append(("forward (moving statistics, no dropout) after training",
                   forward["output0"], logits.numpy()))
    return oracle.report(checks)


if __name__ == "__main__":
    sys.exit(main())
