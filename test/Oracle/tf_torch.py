"""TensorFlow's layer semantics as differentiable PyTorch functions on NHWC
tensors (HWIO filters), written independently of nnc: SAME padding split as
TensorFlow splits it, -inf padding for max pooling, averages over real
elements only, LRN's alpha not divided by the window, Keras' categorical
cross-entropy (normalise, clip)."""

import math

import torch
import torch.nn.functional as F

from tf_ref import tf_pads


def _pads(x, window, stride, dilation, padding):
    ph = tf_pads(x.shape[1], window[0], stride, dilation, padding)
    pw = tf_pads(x.shape[2], window[1], stride, dilation, padding)
    return (pw[0], pw[1], ph[0], ph[1])


def conv(x, w, b=None, stride=1, dilation=1, padding="SAME", act=None):
    pads = _pads(x, w.shape[:2], stride, dilation, padding)
    y = F.conv2d(F.pad(x.permute(0, 3, 1, 2), pads), w.permute(3, 2, 0, 1),
                 stride=stride, dilation=dilation).permute(0, 2, 3, 1)
    if b is not None:
        y = y + b
    return activate(y, act)


def dense(x, w, b=None, act=None):
    y = x @ w
    if b is not None:
        y = y + b
    return activate(y, act)


def activate(y, act):
    if act == "relu":
        return torch.relu(y)
    if act == "sigmoid":
        return torch.sigmoid(y)
    if act == "tanh":
        return torch.tanh(y)
    if act == "softmax":
        return torch.softmax(y, dim=-1)
    return y


# The smallest gap, relative to the window's maximum, between the two
# largest values of any max-pool window computed since the last reset.
# Gradients follow the winner, so windows closer than rounding can pick
# another winner in another implementation.
pool_gap = [math.inf]


def max_pool(x, window, stride, padding):
    pads = _pads(x, (window, window), stride, 1, padding)
    xp = F.pad(x.permute(0, 3, 1, 2), pads, value=-math.inf)
    patches = xp.unfold(2, window, stride).unfold(3, window, stride)
    top = patches.flatten(-2).detach().topk(2, dim=-1).values
    gap = (top[..., 0] - top[..., 1]) / top[..., 0].abs()
    exact_zero = (top[..., 0] == 0) & (top[..., 1] == 0)
    gap = gap[~exact_zero & torch.isfinite(gap)]
    if gap.numel():
        pool_gap[0] = min(pool_gap[0], float(gap.min()))
    return F.max_pool2d(xp, window, stride).permute(0, 2, 3, 1)


def avg_pool(x, window, stride, padding):
    pads = _pads(x, (window, window), stride, 1, padding)
    xn = F.pad(x.permute(0, 3, 1, 2), pads)
    ones = F.pad(torch.ones(1, 1, x.shape[1], x.shape[2], dtype=x.dtype), pads)
    sums = F.avg_pool2d(xn, window, stride) * window * window
    counts = F.avg_pool2d(ones, window, stride) * window * window
    return (sums / counts).permute(0, 2, 3, 1)


def lrn(x, radius, bias, alpha, beta):
    sq = F.pad(x * x, (radius, radius))
    c = x.shape[-1]
    window = sum(sq[..., k:k + c] for k in range(2 * radius + 1))
    return x / (bias + alpha * window) ** beta


def sparse_softmax_cross_entropy(logits, labels):
    return F.cross_entropy(logits, labels.long())


def categorical_cross_entropy(probs, labels, eps=1e-7):
    p = probs / probs.sum(dim=1, keepdim=True)
    p = torch.clamp(p, eps, 1 - eps)
    return -torch.log(p[torch.arange(p.shape[0]), labels.long()]).mean()


def l2_loss(x):
    return (x * x).sum() / 2
