"""TensorFlow's layer semantics as differentiable PyTorch functions.

The reference functions take NHWC tensors and HWIO filters, as TensorFlow
and nnc do: SAME padding split as TensorFlow splits it (the extra pixel
after), explicit and VALID padding, -inf padding for max pooling, averages
over the real elements of a window only, LRN's alpha not divided by the
window, softmax cross-entropy, Keras' categorical cross-entropy (normalise,
clip, log), l2_loss and weight decay.

The NCHW functions (`pad_nchw`, `max_pool_nchw`, `lrn_nchw`) and the
constants `lrn_torch_params` gives PyTorch's LRN are what the NHWC
functions are built on, and what PyTorch models in NCHW use to compute the
same thing at PyTorch's own speed.

Written for Debian's PyTorch 1.13 (the oracle's) and PyTorch 2.x (the
peers' elsewhere): it uses only functions both have. Depends on nothing of
nnc.
"""

import math

import torch
import torch.nn.functional as F


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


# --- padding -----------------------------------------------------------------

def same_pads(size, window, stride):
    """(before, after) of one axis under SAME: the output has
    ceil(size / stride) elements, and an odd total puts the extra element
    after."""
    out = -(-size // stride)
    total = max((out - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


def tf_pads(size, window, stride=1, dilation=1, padding="SAME"):
    """(before, after) of one axis: "SAME", "VALID", or an explicit
    (before, after) pair."""
    if not isinstance(padding, str):
        return tuple(padding)
    if padding == "VALID":
        return (0, 0)
    return same_pads(size, (window - 1) * dilation + 1, stride)


def nchw_pads(height, width, window, stride=1, dilation=1, padding="SAME"):
    """F.pad's (left, right, top, bottom) for an NCHW tensor. `padding` is
    "SAME", "VALID" or the explicit (top, bottom, left, right) of nnc's
    `pad` attribute; window, stride and dilation are ints or (h, w)."""
    window, stride, dilation = _pair(window), _pair(stride), _pair(dilation)
    if isinstance(padding, str):
        ph, pw = padding, padding
    else:
        ph, pw = padding[0:2], padding[2:4]
    top, bottom = tf_pads(height, window[0], stride[0], dilation[0], ph)
    left, right = tf_pads(width, window[1], stride[1], dilation[1], pw)
    return (left, right, top, bottom)


def pad_nchw(x, window, stride=1, dilation=1, padding="SAME", value=0.0):
    """`x` (NCHW) padded for a TensorFlow window; itself when nothing is
    added."""
    pads = nchw_pads(x.shape[2], x.shape[3], window, stride, dilation,
                     padding)
    if not any(pads):
        return x
    return F.pad(x, pads, value=value)


def to_nchw(x):
    return x.permute(0, 3, 1, 2)


def to_nhwc(x):
    return x.permute(0, 2, 3, 1)


# --- layers ------------------------------------------------------------------

def activate(y, act=None):
    if act == "relu":
        return torch.relu(y)
    if act == "sigmoid":
        return torch.sigmoid(y)
    if act == "tanh":
        return torch.tanh(y)
    if act == "softmax":
        return torch.softmax(y, dim=-1)
    return y


def conv(x, w, b=None, stride=1, dilation=1, padding="SAME", act=None):
    """tf.nn.conv2d (NHWC, HWIO filter), then the bias and activation."""
    xp = pad_nchw(to_nchw(x), w.shape[:2], stride, dilation, padding)
    y = to_nhwc(F.conv2d(xp, w.permute(3, 2, 0, 1), stride=_pair(stride),
                         dilation=_pair(dilation)))
    if b is not None:
        y = y + b
    return activate(y, act)


def dense(x, w, b=None, act=None):
    y = x @ w
    if b is not None:
        y = y + b
    return activate(y, act)


# The smallest gap, relative to the window's maximum, between the two
# largest values of any max-pool window `max_pool` computed since the last
# reset (pool_gap[0] = math.inf). Gradients follow the winner, so windows
# closer than rounding can pick another winner in another implementation.
pool_gap = [math.inf]


def _note_gap(xp, window, stride):
    if window[0] * window[1] < 2:
        return  # one element: no tie
    patches = xp.unfold(2, window[0], stride[0]).unfold(3, window[1],
                                                        stride[1])
    top = patches.flatten(-2).detach().topk(2, dim=-1).values
    gap = (top[..., 0] - top[..., 1]) / top[..., 0].abs()
    exact_zero = (top[..., 0] == 0) & (top[..., 1] == 0)
    gap = gap[~exact_zero & torch.isfinite(gap)]
    if gap.numel():
        pool_gap[0] = min(pool_gap[0], float(gap.min()))


def max_pool_nchw(x, window, stride, padding="VALID", note_gap=False):
    """tf.nn.max_pool on NCHW: padding never wins (-inf)."""
    window, stride = _pair(window), _pair(stride)
    xp = pad_nchw(x, window, stride, 1, padding, value=-math.inf)
    if note_gap:
        _note_gap(xp, window, stride)
    return F.max_pool2d(xp, window, stride)


def max_pool(x, window, stride, padding):
    """tf.nn.max_pool (NHWC); notes the closest tie in `pool_gap`."""
    return to_nhwc(max_pool_nchw(to_nchw(x), window, stride, padding, True))


def avg_pool(x, window, stride, padding):
    """tf.nn.avg_pool (NHWC): each window averages its real elements only."""
    window, stride = _pair(window), _pair(stride)
    ones = torch.ones(1, 1, x.shape[1], x.shape[2], dtype=x.dtype,
                      device=x.device)
    sums = F.avg_pool2d(pad_nchw(to_nchw(x), window, stride, 1, padding),
                        window, stride)
    counts = F.avg_pool2d(pad_nchw(ones, window, stride, 1, padding), window,
                          stride)
    return to_nhwc(sums / counts)


def lrn_torch_params(radius, bias, alpha, beta):
    """PyTorch's LocalResponseNorm arguments for tf.nn.lrn: PyTorch
    divides alpha by the window size, TensorFlow does not."""
    size = 2 * radius + 1
    return {"size": size, "alpha": alpha * size, "beta": beta, "k": bias}


def lrn_nchw(x, radius, bias, alpha, beta):
    """tf.nn.lrn over the channels of an NCHW tensor."""
    return F.local_response_norm(x, **lrn_torch_params(radius, bias, alpha,
                                                       beta))


def lrn(x, radius, bias, alpha, beta):
    """tf.nn.lrn (NHWC): x / (bias + alpha * sum of squares over the
    2 * radius + 1 channels around) ** beta."""
    return to_nhwc(lrn_nchw(to_nchw(x), radius, bias, alpha, beta))


# --- losses ------------------------------------------------------------------

def sparse_softmax_cross_entropy(logits, labels):
    """tf.nn.sparse_softmax_cross_entropy_with_logits, averaged over the
    batch."""
    return F.cross_entropy(logits, labels.long())


def categorical_cross_entropy(probs, labels, eps=1e-7):
    """Keras 2's categorical cross-entropy of probabilities against sparse
    labels: normalised per row, clipped to [eps, 1 - eps], batch mean."""
    p = torch.clamp(probs / probs.sum(dim=1, keepdim=True), eps, 1 - eps)
    rows = torch.arange(p.shape[0], device=p.device)
    return -torch.log(p[rows, labels.long()]).mean()


def l2_loss(x):
    """tf.nn.l2_loss: half the sum of squares."""
    return (x * x).sum() / 2


def weight_decay(scale, weights):
    """scale times the l2_loss of each weight, summed (nn.weight_decay)."""
    return scale * sum(l2_loss(w) for w in weights)
