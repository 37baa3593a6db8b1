"""The models of the oracle checks in PyTorch, on TensorFlow's semantics
(python/tf_semantics.py), written independently of nnc.

FORWARD: the output of each model in models/ from its parameters and input
(NHWC). LOSSES: the training loss of those models and of the small
gradient models in Inputs/. Parameters are named as nnc names them
("conv1.weights"). `reference` evaluates a model on a bench program's
dump; `separated_seed` finds a batch without near-tied max-pool windows.
"""

import math
import os
import sys

import numpy as np
import torch

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "..", "python"))
import tf_semantics as T  # noqa: E402

import philox  # noqa: E402


def _conv(p, name, x, stride=1, **kw):
    return T.conv(x, p[name + ".weights"], p[name + ".biases"], stride=stride,
                  **kw)


def _dense(p, name, x, act=None):
    return T.dense(x, p[name + ".weights"], p[name + ".biases"], act)


def alexnet(p, x):
    lrn = lambda v: T.lrn(v, 2, 2.0, 1e-4, 0.75)
    v = T.max_pool(lrn(_conv(p, "conv1", x, 4, act="relu")), 3, 2, "VALID")
    v = T.max_pool(lrn(_conv(p, "conv2", v, act="relu")), 3, 2, "VALID")
    for name in ("conv3", "conv4", "conv5"):
        v = _conv(p, name, v, act="relu")
    return T.max_pool(v, 3, 2, "VALID")


def cifar10_cnn(p, x):
    lrn = lambda v: T.lrn(v, 4, 1.0, 0.001 / 9.0, 0.75)
    v = lrn(T.max_pool(_conv(p, "conv1", x, act="relu"), 3, 2, "SAME"))
    v = T.max_pool(lrn(_conv(p, "conv2", v, act="relu")), 3, 2, "SAME")
    v = _dense(p, "local3", v.reshape(x.shape[0], -1), "relu")
    v = _dense(p, "local4", v, "relu")
    return _dense(p, "softmax_linear", v)


def cifar_mlp(p, x):
    v = _dense(p, "hidden1", x.reshape(x.shape[0], -1), "relu")
    v = _dense(p, "hidden2", v, "relu")
    return _dense(p, "probs", v, "sigmoid")


FORWARD = {f.__name__: f for f in (alexnet, cifar10_cnn, cifar_mlp)}


def grad_cnn(p, x, y):
    v = _conv(p, "c1", x, stride=2, act="relu")
    v = T.lrn(T.max_pool(v, 3, 2, "SAME"), 1, 1.0, 0.5, 0.75)
    v = _conv(p, "c2", v, dilation=2, act="tanh")
    v = T.avg_pool(v, 2, 2, "SAME").reshape(x.shape[0], -1)
    v = _dense(p, "d2", _dense(p, "d1", v, "sigmoid"))
    return (T.sparse_softmax_cross_entropy(v + v, y) +
            T.weight_decay(0.01, [p["d1.weights"]]))


def grad_mlp(p, x, y):
    v = _dense(p, "h", x, "tanh").reshape(x.shape[0], 7)
    return T.categorical_cross_entropy(_dense(p, "p", v, "softmax"), y)


def grad_misc(p, x, y):
    v = _conv(p, "c1", x, stride=3, padding="VALID", act="relu")
    v = _conv(p, "c2", torch.nn.functional.pad(v, (0, 0, 0, 1, 2, 0)),
              padding="VALID", act="tanh")
    f = v.reshape(x.shape[0], -1)
    g = f @ f.T
    h = g @ f
    k = f.T @ h
    l = k.T @ h.T
    o = h @ l
    return T.sparse_softmax_cross_entropy(_dense(p, "d", o), y)


def grad_strided(p, x, y):
    v = _conv(p, "c0", x, act="tanh")
    outs = [
        _conv(p, "p1", v, stride=2, act="tanh"),
        _conv(p, "p2", v, stride=3, padding="VALID", act="tanh"),
        _conv(p, "p3", v, stride=(2, 3), act="tanh"),
        _conv(p, "p4", torch.nn.functional.pad(v, (0, 0, 1, 2, 3, 0)),
              stride=2, padding="VALID", act="tanh"),
        T.avg_pool(v, 3, 1, "SAME"),
        T.avg_pool(v, (4, 2), 1, "SAME"),
        T.avg_pool(v, 11, 1, "VALID"),
    ]
    flat = torch.cat([o.reshape(x.shape[0], -1) for o in outs], dim=1)
    return T.sparse_softmax_cross_entropy(_dense(p, "d", flat), y)


def grad_pools(p, x, y):
    v = _conv(p, "c0", x, act="tanh")
    outs = [
        T.max_pool(v, 3, 1, "SAME"),
        T.max_pool(v, 2, 2, "VALID"),
        T.max_pool(v, (3, 2), (2, 3), "SAME"),
        T.max_pool(v, 1, 2, "VALID"),
        T.avg_pool(v, 3, 2, "SAME"),
        T.avg_pool(v, (2, 3), (3, 2), "VALID"),
    ]
    flat = torch.cat([o.reshape(x.shape[0], -1) for o in outs], dim=1)
    return T.sparse_softmax_cross_entropy(_dense(p, "d", flat), y)


def grad_branches(p, x, y):
    v = _conv(p, "c0", x, act="tanh")
    outs = [
        _conv(p, "b1", v, act="tanh"),
        _conv(p, "b2", v, act="tanh"),
        _conv(p, "b3", T.avg_pool(v, 3, 1, "SAME"), act="tanh"),
    ]
    flat = torch.cat(outs, dim=3).reshape(x.shape[0], -1)
    return T.sparse_softmax_cross_entropy(_dense(p, "d", flat), y)


def grad_wide(p, x, y):
    v = _conv(p, "c1", _conv(p, "c0", x, act="tanh"), act="tanh")
    return T.sparse_softmax_cross_entropy(
        _dense(p, "d", v.reshape(x.shape[0], -1)), y)


def grad_filters(p, x, y):
    v = _conv(p, "c1", _conv(p, "c0", x, act="tanh"), act="tanh")
    return T.sparse_softmax_cross_entropy(
        _dense(p, "d", v.mean(dim=(1, 2))), y)


def grad_packed(p, x, y):
    v = x
    for name in ("h1", "h2", "h3"):
        v = _dense(p, name, v, "tanh")
    return T.sparse_softmax_cross_entropy(_dense(p, "p", v), y)


def resnet_padding(kernel):
    """tf_cnn_benchmarks' SAME_RESNET above stride 1 as explicit (top,
    bottom, left, right): k - 1 rows and columns, half before (rounded
    down)."""
    kh, kw = kernel
    return ((kh - 1) // 2, kh - 1 - (kh - 1) // 2,
            (kw - 1) // 2, kw - 1 - (kw - 1) // 2)


def batch_norm(x, gamma, beta, eps, mean=None, var=None):
    """Batch normalisation over every axis but the last: with the batch's
    mean and biased variance when `mean` is None (training), else with the
    given (moving) statistics. Returns (output, mean, variance, n)."""
    axes = tuple(range(x.dim() - 1))
    n = x.numel() // x.shape[-1]
    if mean is None:
        mean = x.mean(dim=axes)
        var = ((x - mean) ** 2).mean(dim=axes)
    y = (x - mean) / torch.sqrt(var + eps)
    if gamma is not None:
        y = y * gamma
    return y + beta, mean, var, n


def dropout(x, rate, name, step):
    """Inverted dropout with the mask philox.py draws for the layer `name`
    at global step `step`."""
    keep = philox.dropout_keep(tuple(x.shape), step, rate,
                               philox.seed_of(name))
    return x * torch.from_numpy(keep).to(x.dtype) / (1 - rate)


# grad_train's batch normalisations: name -> (epsilon, decay, has gamma).
GRAD_TRAIN_NORMS = {"b1": (1e-5, 0.9, True), "b2": (1e-3, 0.999, False)}


def grad_train_net(p, x, step=0, training=True):
    """The logits of Inputs/grad_train.nn and the batch statistics of its
    normalisations, {name: (mean, variance, n)}. In training, batch
    statistics and dropout at `step`; otherwise the moving statistics in
    `p` and no dropout."""
    stats = {}

    def norm(name, v):
        eps, _, has_gamma = GRAD_TRAIN_NORMS[name]
        moving = ((None, None) if training else
                  (p[name + ".moving_mean"], p[name + ".moving_variance"]))
        y, mean, var, n = batch_norm(
            v, p[name + ".gamma"] if has_gamma else None, p[name + ".beta"],
            eps, *moving)
        stats[name] = (mean, var, n)
        return y

    def conv(name, v, kernel, stride=1, bias=True):
        padding = resnet_padding(kernel) if stride > 1 else "SAME"
        return T.conv(v, p[name + ".weights"],
                      p[name + ".biases"] if bias else None, stride=stride,
                      padding=padding)

    b1 = torch.relu(norm("b1", conv("c1", x, (3, 3), 2, bias=False)))
    a1 = conv("a1", b1, (1, 7))
    a2 = conv("a2", a1, (7, 1), 2, bias=False)
    s1 = conv("s1", b1, (2, 2), 2, bias=False)
    r = torch.relu(norm("b2", torch.cat([a2, s1], dim=3)))
    if training:
        r = dropout(r, 0.25, "dr", step)
    m = r.mean(dim=(1, 2))
    if training:
        m = dropout(m, 0.4, "dm", step)
    return _dense(p, "logits", m), stats


def grad_train(p, x, y, step=0):
    return T.sparse_softmax_cross_entropy(grad_train_net(p, x, step)[0], y)


LOSSES = {
    "alexnet": lambda p, x, y: T.l2_loss(alexnet(p, x)),
    "cifar10_cnn": lambda p, x, y: (
        T.sparse_softmax_cross_entropy(cifar10_cnn(p, x), y) +
        T.weight_decay(0.004, [p["local3.weights"], p["local4.weights"]])),
    "cifar_mlp": lambda p, x, y: T.categorical_cross_entropy(cifar_mlp(p, x),
                                                             y),
    "grad_cnn": grad_cnn, "grad_mlp": grad_mlp, "grad_misc": grad_misc,
    "grad_train": grad_train, "grad_strided": grad_strided,
    "grad_pools": grad_pools, "grad_branches": grad_branches,
    "grad_wide": grad_wide, "grad_packed": grad_packed,
    "grad_filters": grad_filters,
}


def reference(name, fb, dtype):
    """The model's loss on the parameters and batch of a forward-backward
    dump: (parameters, input, labels, loss)."""
    grads = [k[:-5] for k in fb if k.endswith(".grad")]
    params = {k: torch.tensor(fb[k], dtype=dtype, requires_grad=True)
              for k in grads}
    # Inputs and labels: the arrays that are neither parameters (dotted
    # names, global_step) nor outputs.
    inputs = [k for k in fb if "." not in k and
              k not in ("loss", "correct", "global_step")]
    x = torch.tensor(fb[[k for k in inputs if fb[k].dtype == np.float32][0]],
                     dtype=dtype)
    labels = [k for k in inputs if fb[k].dtype == np.int32]
    y = torch.tensor(fb[labels[0]]) if labels else None
    return params, x, y, LOSSES[name](params, x, y)


def separated_seed(name, forward_backward, dtype, on_tie=None):
    """The first batch seed (3 to 32) whose max-pool windows are all decided
    by more than rounding in the reference: elsewhere two computations may
    route a gradient to different winners. `forward_backward(seed)` gives
    the dump of that batch; `on_tie(seed, gap)` hears of each seed passed
    over. Returns (seed, dump), or (None, None) when every seed has a tie."""
    for seed in range(3, 3 + 30):
        fb = forward_backward(seed)
        T.pool_gap[0] = math.inf
        with torch.no_grad():
            reference(name, fb, dtype)
        if T.pool_gap[0] > 1e-5:
            return seed, fb
        if on_tie:
            on_tie(seed, T.pool_gap[0])
    return None, None
