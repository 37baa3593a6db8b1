"""`python bench/tf_peers.py --check`: the TensorFlow peers of
bench/tf_peers.py against the PyTorch peers of bench/peers.py on the same
weights and inputs (a small batch). For each model it compares the
forward output, the loss, every parameter's gradient and the forward
FLOP count; a difference is the largest absolute error over the largest
absolute PyTorch value. Prints one line per model and exits 1 when one
exceeds TOLERANCE."""

import numpy as np
import tensorflow as tf
import torch

import peers
import tf_peers

TOLERANCE = 1e-4
BATCH = {"cifar_mlp": 4, "cifar10_cnn": 4, "alexnet": 2}


def torch_model(name):
    """The PyTorch model, its loss function and its layers by the names of
    tf_peers.PARAMS."""
    torch.manual_seed(0)
    if name == "alexnet":
        model = peers.AlexNet()
        layers = {"conv%d" % (i + 1): c.conv
                  for i, c in enumerate(model.convs)}
        return model, lambda out, y: peers.T.l2_loss(out), layers
    if name == "cifar10_cnn":
        model = peers.Cifar10CNN()
        layers = {"conv1": model.conv1.conv, "conv2": model.conv2.conv,
                  "local3": model.local3, "local4": model.local4,
                  "out": model.out}
        return model, lambda out, y: peers.cifar10_loss(model, out, y), layers
    model = peers.CifarMLP()
    layers = {"h1": model.h1, "h2": model.h2, "out": model.out}
    return model, peers.T.categorical_cross_entropy, layers


def to_tf_layout(name, key, w):
    """A PyTorch weight (or its gradient) in TensorFlow's layout: HWIO
    filters, (in, out) matrices; the MLP's first layer reads NHWC images
    flattened, PyTorch's reads them NCHW."""
    w = w.detach().numpy()
    if w.ndim == 4:
        return w.transpose(2, 3, 1, 0)
    if name == "cifar_mlp" and key == "h1":
        return w.T.reshape(3, 32, 32, -1).transpose(1, 2, 0, 3).reshape(
            3072, -1)
    return w.T


def difference(a, b):
    return float(np.abs(np.asarray(a) - b).max() / max(np.abs(b).max(),
                                                       1e-30))


def check(name):
    """{quantity: difference} for one model."""
    batch = BATCH[name]
    model, loss_fn, layers = torch_model(name)
    x_tf, y = tf_peers.inputs(name, batch, np.random.default_rng(0))
    x = torch.from_numpy(x_tf.transpose(0, 3, 1, 2).copy())
    out = model(x)
    value = loss_fn(out, torch.from_numpy(y).long())
    value.backward()
    if out.ndim == 4:
        out = out.permute(0, 2, 3, 1)
    params = {k: (to_tf_layout(name, k, m.weight), m.bias.detach().numpy())
              for k, m in layers.items()}
    p = {k: (tf.Variable(w), tf.Variable(b)) for k, (w, b) in params.items()}
    variables = [v for k in sorted(p) for v in p[k]]
    with tf.GradientTape() as tape:
        out_tf = tf_peers.MODELS[name](p, tf.constant(x_tf))
        value_tf = tf_peers.loss(name, p, out_tf, tf.constant(y))
    grads = dict(zip([(k, i) for k in sorted(p) for i in (0, 1)],
                     tape.gradient(value_tf, variables)))
    result = {"output": difference(out_tf, out.detach().numpy()),
              "loss": difference(value_tf, value.detach().numpy())}
    for (k, i), g in grads.items():
        m = layers[k]
        ref = to_tf_layout(name, k, m.weight.grad) if i == 0 else \
            m.bias.grad.numpy()
        result["d%s.%s" % (k, "wb"[i])] = difference(g, ref)
    count = tf_peers.forward_flops(name, params, batch)
    result["flops"] = abs(count - peers.forward_flops(model, x)) / count
    return result


def main():
    failed = False
    for name in ("cifar_mlp", "cifar10_cnn", "alexnet"):
        result = check(name)
        worst = max(result, key=result.get)
        ok = result[worst] <= TOLERANCE
        failed |= not ok
        print("%-12s %s: largest difference %.1e (%s); %s" % (
            name, "ok" if ok else "FAILED", result[worst], worst,
            ", ".join("%s %.1e" % kv for kv in result.items())), flush=True)
    return 1 if failed else 0
