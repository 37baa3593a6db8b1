"""nnc's TensorFlow 2 peers on the CPU: the matrix product and the models
of models/cifar_mlp.nn, cifar10_cnn.nn and alexnet.nn, timed in this
process.

    python bench/tf_peers.py model NAME MODE BATCH STEPS THREADS [--xla]
    python bench/tf_peers.py matmul N STEPS THREADS [--xla]
    python bench/tf_peers.py --check

The first two print {"seconds": [...], "flops": F} as bench/peers.py does
(MODE: forward, forward-backward, train). Each step is one call of a
tf.function (--xla: jit_compile=True) on tensors made once: NHWC, HWIO
filters, TensorFlow's own SAME padding, tf.nn.local_response_normalization
(whose alpha, like the .nn file's, is not divided by the window), the
.nn file's loss and plain SGD at its learning rate. cifar_mlp's loss is
Keras 2's categorical cross-entropy written out (normalise each row,
clip to [1e-7, 1 - 1e-7], minus the log of the label's entry, batch mean).

--check builds each model here and in bench/peers.py (PyTorch) with the
same weights and inputs and asserts that the outputs, the losses, the
gradients and the FLOP counts agree.
"""

import json
import math
import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402

import programs  # noqa: E402

EPSILON = 1e-7

# Each model's parameters in TensorFlow's layout: (name, shape, initial
# deviation); biases are zero.
PARAMS = {
    "cifar_mlp": [("h1", (3072, 3000), None), ("h2", (3000, 1000), None),
                  ("out", (1000, 10), None)],
    "cifar10_cnn": [("conv1", (5, 5, 3, 64), 5e-2),
                    ("conv2", (5, 5, 64, 64), 5e-2),
                    ("local3", (2304, 384), 0.04),
                    ("local4", (384, 192), 0.04),
                    ("out", (192, 10), 1 / 192.0)],
    "alexnet": [("conv1", (11, 11, 3, 64), 0.1),
                ("conv2", (5, 5, 64, 192), 0.1),
                ("conv3", (3, 3, 192, 384), 0.1),
                ("conv4", (3, 3, 384, 256), 0.1),
                ("conv5", (3, 3, 256, 256), 0.1)],
}
LEARNING_RATE = {"cifar_mlp": 0.01, "cifar10_cnn": 0.1, "alexnet": 0.0}
INPUT = {"cifar_mlp": (32, 32, 3), "cifar10_cnn": (24, 24, 3),
         "alexnet": (224, 224, 3)}

# Multiply-adds of the convolutions and dense layers traced last, times two.
flops = [0]


def conv(x, p, stride=1):
    """SAME convolution with bias and ReLU."""
    w = p[0]
    flops[0] += 2 * x.shape[0] * math.ceil(x.shape[1] / stride) * \
        math.ceil(x.shape[2] / stride) * math.prod(w.shape)
    y = tf.nn.conv2d(x, w, stride, "SAME")
    return tf.nn.relu(tf.nn.bias_add(y, p[1]))


def dense(x, p, activation=None):
    flops[0] += 2 * x.shape[0] * p[0].shape[0] * p[0].shape[1]
    y = tf.matmul(x, p[0]) + p[1]
    return activation(y) if activation else y


def lrn(x, radius, bias, alpha, beta):
    return tf.nn.local_response_normalization(x, radius, bias, alpha, beta)


def alexnet(p, x):
    x = tf.nn.max_pool2d(lrn(conv(x, p["conv1"], 4), 2, 2.0, 1e-4, 0.75),
                         3, 2, "VALID")
    x = tf.nn.max_pool2d(lrn(conv(x, p["conv2"]), 2, 2.0, 1e-4, 0.75),
                         3, 2, "VALID")
    x = conv(conv(conv(x, p["conv3"]), p["conv4"]), p["conv5"])
    return tf.nn.max_pool2d(x, 3, 2, "VALID")


def cifar10_cnn(p, x):
    x = tf.nn.max_pool2d(conv(x, p["conv1"]), 3, 2, "SAME")
    x = lrn(x, 4, 1.0, 0.001 / 9.0, 0.75)
    x = lrn(conv(x, p["conv2"]), 4, 1.0, 0.001 / 9.0, 0.75)
    x = tf.nn.max_pool2d(x, 3, 2, "SAME")
    x = tf.reshape(x, [x.shape[0], -1])
    x = dense(dense(x, p["local3"], tf.nn.relu), p["local4"], tf.nn.relu)
    return dense(x, p["out"])


def cifar_mlp(p, x):
    x = tf.reshape(x, [x.shape[0], -1])
    x = dense(dense(x, p["h1"], tf.nn.relu), p["h2"], tf.nn.relu)
    return dense(x, p["out"], tf.sigmoid)


def keras2_categorical_cross_entropy(probs, labels):
    p = probs / tf.reduce_sum(probs, -1, keepdims=True)
    p = tf.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    y = tf.one_hot(labels, probs.shape[-1])
    return tf.reduce_mean(-tf.reduce_sum(y * tf.math.log(p), -1))


def loss(name, p, out, labels):
    if name == "alexnet":
        return tf.nn.l2_loss(out)
    if name == "cifar_mlp":
        return keras2_categorical_cross_entropy(out, labels)
    ce = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels, out))
    return ce + 0.004 * (tf.nn.l2_loss(p["local3"][0]) +
                         tf.nn.l2_loss(p["local4"][0]))


MODELS = {"alexnet": alexnet, "cifar10_cnn": cifar10_cnn,
          "cifar_mlp": cifar_mlp}


def initial_params(name, rng):
    """{layer: (weights, biases)} as NumPy arrays: truncated normals of the
    .nn file's deviations, Glorot-uniform where it has none (Keras)."""
    params = {}
    for key, shape, stddev in PARAMS[name]:
        if stddev is None:
            limit = math.sqrt(6.0 / (shape[0] + shape[1]))
            w = rng.uniform(-limit, limit, shape)
        else:
            w = np.clip(rng.standard_normal(shape), -2, 2) * stddev
        params[key] = (w.astype(np.float32),
                       np.zeros(shape[-1], np.float32))
    return params


def inputs(name, batch, rng):
    shape = (batch,) + INPUT[name]
    if name == "cifar_mlp":
        x = rng.uniform(0, 1, shape)
    else:
        x = rng.standard_normal(shape) * (0.1 if name == "alexnet" else 1)
    return x.astype(np.float32), rng.integers(0, 10, batch).astype(np.int32)


def step_function(name, mode, params, x, labels, xla):
    """The tf.function of one step of `mode` on variables holding
    `params`; returns (function, variables by layer)."""
    p = {k: (tf.Variable(w), tf.Variable(b)) for k, (w, b) in params.items()}
    variables = [v for k in sorted(p) for v in p[k]]
    x, labels = tf.constant(x), tf.constant(labels)
    lr = LEARNING_RATE[name]

    def forward_backward():
        with tf.GradientTape() as tape:
            value = loss(name, p, MODELS[name](p, x), labels)
        return value, tape.gradient(value, variables)

    def train():
        value, grads = forward_backward()
        for v, g in zip(variables, grads):
            v.assign_sub(lr * g)
        return value

    def forward():
        return MODELS[name](p, x)

    fn = {"forward": forward, "forward-backward": forward_backward,
          "train": train}[mode]
    return tf.function(fn, jit_compile=xla), p


def forward_flops(name, params, batch):
    flops[0] = 0
    p = {k: (tf.constant(w), tf.constant(b)) for k, (w, b) in params.items()}

    def forward(x):
        return MODELS[name](p, x)

    tf.function(forward).get_concrete_function(
        tf.TensorSpec((batch,) + INPUT[name], tf.float32))
    return flops[0]


def model_workload(name, mode, batch, steps, xla):
    rng = np.random.default_rng(0)
    params = initial_params(name, rng)
    x, labels = inputs(name, batch, rng)
    fn, _ = step_function(name, mode, params, x, labels, xla)
    return (programs.timed(fn, steps, 1),
            forward_flops(name, params, batch))


def matmul_workload(n, steps, xla):
    rng = np.random.default_rng(0)
    a = tf.constant(rng.standard_normal((n, n), dtype=np.float32))
    b = tf.constant(rng.standard_normal((n, n), dtype=np.float32))
    mm = tf.function(tf.linalg.matmul, jit_compile=xla)
    return programs.timed(lambda: mm(a, b), steps, 1)


def main(argv):
    if argv[1:] == ["--check"]:
        import tf_peers_check
        return tf_peers_check.main()
    xla = "--xla" in argv
    args = [a for a in argv[2:] if not a.startswith("--")]
    tf.config.threading.set_intra_op_parallelism_threads(int(args[-1]))
    tf.config.threading.set_inter_op_parallelism_threads(1)
    if argv[1] == "model":
        name, mode, batch, steps = args[0], args[1], int(args[2]), int(args[3])
        seconds, count = model_workload(name, mode, batch, steps, xla)
    else:
        n, steps = int(args[0]), int(args[1])
        seconds, count = matmul_workload(n, steps, xla), 2 * n ** 3
    json.dump({"seconds": seconds, "flops": count}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
