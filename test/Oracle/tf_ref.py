"""TensorFlow's semantics in PyTorch, written independently of nnc: SAME
padding split as TF splits it (the extra pixel after), pooling windows that
count only real elements, and LRN's alpha not divided by the window."""

import math

import numpy as np
import torch
import torch.nn.functional as F


def t(a):
    return torch.from_numpy(np.ascontiguousarray(a))


def tf_pads(size, window, stride, dilation, padding):
    """(before, after) of one axis under TF padding rules."""
    if isinstance(padding, tuple):
        return padding
    if padding == "VALID":
        return (0, 0)
    out = -(-size // stride)
    effective = (window - 1) * dilation + 1
    total = max((out - 1) * stride + effective - size, 0)
    return (total // 2, total - total // 2)


def nchw(x):
    return t(x).permute(0, 3, 1, 2)


def nhwc(x):
    return x.permute(0, 2, 3, 1).numpy()


def ref_conv(x, w, strides, dilations, padding):
    kh, kw = w.shape[0], w.shape[1]
    ph = tf_pads(x.shape[1], kh, strides[0], dilations[0], padding[0])
    pw = tf_pads(x.shape[2], kw, strides[1], dilations[1], padding[1])
    xp = F.pad(nchw(x), (pw[0], pw[1], ph[0], ph[1]))
    y = F.conv2d(xp, t(w).permute(3, 2, 0, 1), stride=strides,
                 dilation=dilations)
    return nhwc(y)


def ref_pool(x, window, strides, padding, kind):
    ph = tf_pads(x.shape[1], window[0], strides[0], 1, padding)
    pw = tf_pads(x.shape[2], window[1], strides[1], 1, padding)
    pads = (pw[0], pw[1], ph[0], ph[1])
    if kind == "max":
        xp = F.pad(nchw(x), pads, value=-math.inf)
        return nhwc(F.max_pool2d(xp, window, strides))
    # TF averages over the real elements of each window only.
    sums = F.avg_pool2d(F.pad(nchw(x), pads), window, strides) * (
        window[0] * window[1])
    ones = torch.ones(1, 1, x.shape[1], x.shape[2])
    counts = F.avg_pool2d(F.pad(ones, pads), window, strides) * (
        window[0] * window[1])
    return nhwc(sums / counts)


def ref_lrn(x, radius, bias, alpha, beta):
    # PyTorch divides alpha by the window size; TensorFlow does not.
    size = 2 * radius + 1
    return nhwc(F.local_response_norm(nchw(x), size, alpha=alpha * size,
                                      beta=beta, k=bias))
