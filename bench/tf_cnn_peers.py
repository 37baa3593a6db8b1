"""The tf_cnn_benchmarks nets as nnc's peers: ResNet-50 v1, VGG16,
Inception-v3 and AlexNet, trained on synthetic images in TensorFlow 2 and
PyTorch 2 on the CPU (fp32), one framework per process.

    python bench/tf_cnn_peers.py --model=resnet50 --batch=32 --steps=10 \\
        --warmup=2 --framework=tf|tf-xla|torch|torch-cl|torch-compile \\
        --threads=2 [--peak-memory]

prints one JSON line: the median step time and images/sec (batch / median
step), every step's time, the first step's time (tracing and compilation
included) and the last loss; with --peak-memory, the process's peak
resident set (ru_maxrss) after the last step.

The nets are those of tf_cnn_benchmarks' models/ and convnet_builder.py,
written once (`NETS`) against a small set of layer functions that each
framework implements:
  - ResNet-50 v1: stride in the first 1x1 of each bottleneck, projection
    shortcuts, SAME_RESNET padding (explicit (k-1)//2 before when the stride
    is not 1), batch norm with decay 0.9, epsilon 1e-5 and a scale;
  - Inception-v3: the stem, blocks A x3, B, C x4, D, E x2 (average pool in
    the first E, max pool in the second), no auxiliary head; batch norm with
    decay 0.999, epsilon 1e-3 and no scale;
  - VGG16: convolutions [2, 2, 3, 3, 3] with biases, no batch norm, two
    4096-unit layers each followed by dropout (keep 0.5);
  - AlexNet: 227x227 inputs, VALID 11x11/4 first convolution, 64, 192, 384,
    384, 256 channels, no LRN, two 4096-unit layers with dropout.
Every net ends in a 1001-way affine layer. The loss is the batch mean of
sparse softmax cross-entropy plus 4e-5 times l2_loss of every trainable
variable but batch norm's; plain SGD with a fixed learning rate updates
them. Images are drawn once from a normal (mean 127, deviation 60)
truncated at two deviations, labels uniformly from [0, 1000).

Frameworks: tf (raw TensorFlow ops in NHWC inside a tf.function train
step), tf-xla (the same step with jit_compile=True), torch (PyTorch eager,
NCHW), torch-cl (eager, channels_last) and torch-compile (torch.compile of
the net, channels_last). PyTorch applies the weight decay as SGD's
weight_decay on the same variables, which is the same update.
"""

import argparse
import json
import math
import os
import resource
import statistics
import sys
import time

NUM_CLASSES = 1001
LABEL_CLASSES = 1000
WEIGHT_DECAY = 4e-5
LEARNING_RATE = 0.005
IMAGE_SIZE = {"resnet50": 224, "vgg16": 224, "inception3": 299,
              "alexnet": 227}
FRAMEWORKS = ("tf", "tf-xla", "torch", "torch-cl", "torch-compile")


class BatchNorm:
    """tf_cnn_benchmarks' batch norm settings of a net."""

    def __init__(self, decay, epsilon, scale):
        self.decay, self.epsilon, self.scale = decay, epsilon, scale


def tf_pads(size, window, stride, mode):
    """(before, after) padding of one axis: SAME splits it as TensorFlow
    does (the odd element after), SAME_RESNET pads (window - 1) // 2 before
    when the stride is not 1 (else it is SAME), VALID none."""
    if mode == "VALID":
        return 0, 0
    if mode == "SAME_RESNET" and stride > 1:
        return (window - 1) // 2, window - 1 - (window - 1) // 2
    total = max((-(-size // stride) - 1) * stride + window - size, 0)
    return total // 2, total - total // 2


# --- the nets ----------------------------------------------------------------
#
# `n` is the framework's layer set: conv, max_pool, avg_pool, concat,
# add_relu, spatial_mean, flatten, affine, dropout and channels. `n.bn`, when
# set, gives every convolution a batch norm instead of its bias.


def bottleneck_v1(n, x, depth, stride):
    if n.channels(x) == depth:
        shortcut = x if stride == 1 else n.avg_pool(x, 1, stride, "VALID")
    else:
        shortcut = n.conv(x, depth, 1, 1, stride, relu=False)
    y = n.conv(x, depth // 4, 1, 1, stride)
    y = n.conv(y, depth // 4, 3, 3, 1, "SAME_RESNET")
    y = n.conv(y, depth, 1, 1, 1, relu=False)
    return n.add_relu(shortcut, y)


def resnet50(n, x):
    n.bn = BatchNorm(0.9, 1e-5, True)
    x = n.conv(x, 64, 7, 7, 2, "SAME_RESNET")
    x = n.max_pool(x, 3, 2, "SAME")
    for depth, blocks, stride in ((256, 3, 1), (512, 4, 2), (1024, 6, 2),
                                  (2048, 3, 2)):
        for i in range(blocks):
            x = bottleneck_v1(n, x, depth, stride if i == 0 else 1)
    return n.spatial_mean(x)


def inception_a(n, x, pool_filters):
    b1 = n.conv(x, 64, 1, 1)
    b2 = n.conv(n.conv(x, 48, 1, 1), 64, 5, 5)
    b3 = n.conv(n.conv(n.conv(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    b4 = n.conv(n.avg_pool(x, 3, 1, "SAME"), pool_filters, 1, 1)
    return n.concat([b1, b2, b3, b4])


def inception_b(n, x):
    b1 = n.conv(x, 384, 3, 3, 2, "VALID")
    b2 = n.conv(n.conv(n.conv(x, 64, 1, 1), 96, 3, 3), 96, 3, 3, 2, "VALID")
    b3 = n.max_pool(x, 3, 2, "VALID")
    return n.concat([b1, b2, b3])


def inception_c(n, x, width):
    b1 = n.conv(x, 192, 1, 1)
    b2 = n.conv(x, width, 1, 1)
    b2 = n.conv(n.conv(b2, width, 1, 7), 192, 7, 1)
    b3 = n.conv(x, width, 1, 1)
    for filters, kh, kw in ((width, 7, 1), (width, 1, 7), (width, 7, 1),
                            (192, 1, 7)):
        b3 = n.conv(b3, filters, kh, kw)
    b4 = n.conv(n.avg_pool(x, 3, 1, "SAME"), 192, 1, 1)
    return n.concat([b1, b2, b3, b4])


def inception_d(n, x):
    b1 = n.conv(n.conv(x, 192, 1, 1), 320, 3, 3, 2, "VALID")
    b2 = n.conv(n.conv(n.conv(x, 192, 1, 1), 192, 1, 7), 192, 7, 1)
    b2 = n.conv(b2, 192, 3, 3, 2, "VALID")
    b3 = n.max_pool(x, 3, 2, "VALID")
    return n.concat([b1, b2, b3])


def inception_e(n, x, pool):
    b1 = n.conv(x, 320, 1, 1)
    t = n.conv(x, 384, 1, 1)
    b2, b3 = n.conv(t, 384, 1, 3), n.conv(t, 384, 3, 1)
    u = n.conv(n.conv(x, 448, 1, 1), 384, 3, 3)
    b4, b5 = n.conv(u, 384, 1, 3), n.conv(u, 384, 3, 1)
    b6 = n.conv(pool(x, 3, 1, "SAME"), 192, 1, 1)
    return n.concat([b1, b2, b3, b4, b5, b6])


def inception3(n, x):
    n.bn = BatchNorm(0.999, 1e-3, False)
    x = n.conv(x, 32, 3, 3, 2, "VALID")
    x = n.conv(x, 32, 3, 3, 1, "VALID")
    x = n.conv(x, 64, 3, 3)
    x = n.max_pool(x, 3, 2, "VALID")
    x = n.conv(x, 80, 1, 1, 1, "VALID")
    x = n.conv(x, 192, 3, 3, 1, "VALID")
    x = n.max_pool(x, 3, 2, "VALID")
    for pool_filters in (32, 64, 64):
        x = inception_a(n, x, pool_filters)
    x = inception_b(n, x)
    for width in (128, 160, 160, 192):
        x = inception_c(n, x, width)
    x = inception_d(n, x)
    x = inception_e(n, x, n.avg_pool)
    x = inception_e(n, x, n.max_pool)
    return n.flatten(n.avg_pool(x, 8, 1, "VALID"))


def classifier(n, x):
    """Two 4096-unit layers, each followed by dropout."""
    x = n.dropout(n.affine(n.flatten(x), 4096))
    return n.dropout(n.affine(x, 4096))


def vgg16(n, x):
    for convs, filters in zip((2, 2, 3, 3, 3), (64, 128, 256, 512, 512)):
        for _ in range(convs):
            x = n.conv(x, filters, 3, 3)
        x = n.max_pool(x, 2, 2, "VALID")
    return classifier(n, x)


def alexnet(n, x):
    x = n.max_pool(n.conv(x, 64, 11, 11, 4, "VALID"), 3, 2, "VALID")
    x = n.max_pool(n.conv(x, 192, 5, 5), 3, 2, "VALID")
    x = n.conv(n.conv(n.conv(x, 384, 3, 3), 384, 3, 3), 256, 3, 3)
    return classifier(n, n.max_pool(x, 3, 2, "VALID"))


NETS = {"resnet50": resnet50, "vgg16": vgg16, "inception3": inception3,
        "alexnet": alexnet}


def logits(model, n, images):
    return n.affine(NETS[model](n, images), NUM_CLASSES, relu=False)


class Layers:
    """A net's layers in the order its function asks for them: made on the
    first pass, handed out again on every later one."""

    def __init__(self, store):
        self.store, self.next = store, 0

    def get(self, make):
        if self.next == len(self.store):
            self.store.append(make())
        layer = self.store[self.next]
        self.next += 1
        return layer


def conv_stddev(kh, kw, cin):
    """tf.variance_scaling_initializer(): a normal truncated at two
    deviations with variance 1 / fan_in."""
    return math.sqrt(1.0 / (kh * kw * cin)) / 0.87962566103423978


def affine_stddev(cin, relu):
    return math.sqrt((2.0 if relu else 1.0) / cin)


# --- TensorFlow --------------------------------------------------------------


class TFLayers:
    """The layer functions in raw TensorFlow ops, NHWC."""

    def __init__(self, tf, layers, trainable, decayed):
        self.tf, self.layers, self.bn = tf, Layers(layers), None
        self.trainable, self.decayed = trainable, decayed

    def variable(self, value, trainable=True, decay=True):
        v = self.tf.Variable(value, trainable=trainable)
        if trainable:
            self.trainable.append(v)
        if trainable and decay:
            self.decayed.append(v)
        return v

    def normal(self, shape, stddev):
        return self.tf.random.truncated_normal(shape, stddev=stddev)

    def channels(self, x):
        return x.shape[-1]

    def conv(self, x, filters, kh, kw, stride=1, mode="SAME", relu=True):
        tf, bn, cin = self.tf, self.bn, x.shape[-1]

        def make():
            layer = {"kernel": self.variable(self.normal(
                [kh, kw, cin, filters], conv_stddev(kh, kw, cin)))}
            if bn is None:
                layer["biases"] = self.variable(tf.zeros([filters]))
                return layer
            layer["beta"] = self.variable(tf.zeros([filters]), decay=False)
            layer["gamma"] = (self.variable(tf.ones([filters]), decay=False)
                              if bn.scale else tf.ones([filters]))
            layer["mean"] = self.variable(tf.zeros([filters]), False)
            layer["variance"] = self.variable(tf.ones([filters]), False)
            return layer

        layer = self.layers.get(make)
        padding = "SAME" if mode == "SAME_RESNET" else mode
        if mode == "SAME_RESNET" and stride > 1:
            ph = tf_pads(x.shape[1], kh, stride, mode)
            pw = tf_pads(x.shape[2], kw, stride, mode)
            x = tf.pad(x, [[0, 0], list(ph), list(pw), [0, 0]])
            padding = "VALID"
        y = tf.nn.conv2d(x, layer["kernel"], stride, padding)
        if bn is None:
            y = tf.nn.bias_add(y, layer["biases"])
        else:
            y = self.batch_norm(y, layer, bn)
        return tf.nn.relu(y) if relu else y

    def batch_norm(self, x, layer, bn):
        y, mean, variance = self.tf.compat.v1.nn.fused_batch_norm(
            x, layer["gamma"], layer["beta"], epsilon=bn.epsilon,
            data_format="NHWC", is_training=True)
        for key, batch in (("mean", mean), ("variance", variance)):
            layer[key].assign_sub((layer[key] - batch) * (1.0 - bn.decay))
        return y

    def max_pool(self, x, k, s, mode):
        return self.tf.nn.max_pool2d(x, k, s, mode)

    def avg_pool(self, x, k, s, mode):
        return self.tf.nn.avg_pool2d(x, k, s, mode)

    def concat(self, xs):
        return self.tf.concat(xs, 3)

    def add_relu(self, a, b):
        return self.tf.nn.relu(a + b)

    def spatial_mean(self, x):
        return self.tf.reduce_mean(x, [1, 2])

    def flatten(self, x):
        return self.tf.reshape(x, [x.shape[0], -1])

    def affine(self, x, units, relu=True):
        cin = x.shape[-1]
        layer = self.layers.get(lambda: {
            "weights": self.variable(self.normal(
                [cin, units], affine_stddev(cin, relu))),
            "biases": self.variable(self.tf.zeros([units]))})
        y = self.tf.matmul(x, layer["weights"]) + layer["biases"]
        return self.tf.nn.relu(y) if relu else y

    def dropout(self, x):
        return self.tf.nn.dropout(x, rate=0.5)


def tf_step(model, batch, framework, threads):
    """The train step as a function returning the loss (a float)."""
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.random.set_seed(0)
    size = IMAGE_SIZE[model]
    images = tf.random.truncated_normal([batch, size, size, 3], 127.0, 60.0)
    labels = tf.random.uniform([batch], 0, LABEL_CLASSES, tf.int32)
    layers, trainable, decayed = [], [], []
    logits(model, TFLayers(tf, layers, trainable, decayed), images[:2])

    @tf.function(jit_compile=framework == "tf-xla")
    def step():
        with tf.GradientTape() as tape:
            out = logits(model, TFLayers(tf, layers, [], []), images)
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels, out))
            loss += WEIGHT_DECAY * tf.add_n(
                [tf.nn.l2_loss(v) for v in decayed])
        for v, g in zip(trainable, tape.gradient(loss, trainable)):
            v.assign_sub(LEARNING_RATE * g)
        return loss

    return lambda: float(step()), {"tensorflow": tf.__version__}


# --- PyTorch -----------------------------------------------------------------


class TorchLayers:
    """The layer functions in PyTorch modules and functions, NCHW (or
    channels_last, which keeps NCHW's indexing)."""

    def __init__(self, torch, layers):
        self.torch, self.nn = torch, torch.nn
        self.F = torch.nn.functional
        self.layers, self.bn = Layers(layers), None

    def channels(self, x):
        return x.shape[1]

    def pads(self, x, kh, kw, stride, mode):
        return (tf_pads(x.shape[2], kh, stride, mode),
                tf_pads(x.shape[3], kw, stride, mode))

    def conv(self, x, filters, kh, kw, stride=1, mode="SAME", relu=True):
        nn, bn, cin = self.nn, self.bn, x.shape[1]
        (top, bottom), (left, right) = self.pads(x, kh, kw, stride, mode)
        symmetric = top == bottom and left == right

        def make():
            c = nn.Conv2d(cin, filters, (kh, kw), stride,
                          (top, left) if symmetric else 0, bias=bn is None)
            nn.init.trunc_normal_(c.weight, std=conv_stddev(kh, kw, cin))
            if c.bias is not None:
                nn.init.zeros_(c.bias)
            if bn is None:
                return c
            norm = nn.BatchNorm2d(filters, bn.epsilon, 1.0 - bn.decay)
            norm.weight.requires_grad_(bn.scale)
            return nn.Sequential(c, norm)

        if not symmetric:
            x = self.F.pad(x, (left, right, top, bottom))
        y = self.layers.get(make)(x)
        return self.F.relu(y, inplace=True) if relu else y

    def max_pool(self, x, k, s, mode):
        (top, bottom), (left, right) = self.pads(x, k, k, s, mode)
        if top == bottom and left == right:
            return self.F.max_pool2d(x, k, s, (top, left))
        if top == 0 and left == 0 and -(-x.shape[2] // s) == \
                -(-(x.shape[2] - k) // s) + 1 and -(-x.shape[3] // s) == \
                -(-(x.shape[3] - k) // s) + 1:
            # Padding after only: ceil_mode's partial last windows.
            return self.F.max_pool2d(x, k, s, ceil_mode=True)
        x = self.F.pad(x, (left, right, top, bottom), value=-math.inf)
        return self.F.max_pool2d(x, k, s)

    def avg_pool(self, x, k, s, mode):
        (top, bottom), (left, right) = self.pads(x, k, k, s, mode)
        if top != bottom or left != right:
            raise ValueError("asymmetric average pooling")
        return self.F.avg_pool2d(x, k, s, (top, left),
                                 count_include_pad=False)

    def concat(self, xs):
        return self.torch.cat(xs, 1)

    def add_relu(self, a, b):
        return self.F.relu(a + b, inplace=True)

    def spatial_mean(self, x):
        return x.mean((2, 3))

    def flatten(self, x):
        return x.flatten(1)

    def affine(self, x, units, relu=True):
        nn, cin = self.nn, x.shape[1]

        def make():
            layer = nn.Linear(cin, units)
            nn.init.trunc_normal_(layer.weight, std=affine_stddev(cin, relu))
            nn.init.zeros_(layer.bias)
            return layer

        y = self.layers.get(make)(x)
        return self.F.relu(y, inplace=True) if relu else y

    def dropout(self, x):
        return self.F.dropout(x, 0.5, training=True)


def torch_net(torch, model):
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layers = torch.nn.ModuleList()

        def forward(self, images):
            return logits(model, TorchLayers(torch, self.layers), images)

    return Net()


def torch_step(model, batch, framework, threads):
    import torch
    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(0)
    size = IMAGE_SIZE[model]
    images = torch.nn.init.trunc_normal_(
        torch.empty(batch, 3, size, size), 127.0, 60.0, 7.0, 247.0)
    labels = torch.randint(0, LABEL_CLASSES, (batch,))
    net = torch_net(torch, model)
    net(images[:2])  # makes the layers
    if framework != "torch":
        net = net.to(memory_format=torch.channels_last)
        images = images.contiguous(memory_format=torch.channels_last)
    norms = (torch.nn.BatchNorm2d,)
    decayed = [p for m in net.modules() if not isinstance(m, norms)
               for p in m.parameters(recurse=False)]
    others = [p for m in net.modules() if isinstance(m, norms)
              for p in m.parameters(recurse=False) if p.requires_grad]
    opt = torch.optim.SGD([{"params": decayed, "weight_decay": WEIGHT_DECAY},
                           {"params": others, "weight_decay": 0.0}],
                          lr=LEARNING_RATE)
    forward = torch.compile(net) if framework == "torch-compile" else net

    def step():
        opt.zero_grad(set_to_none=True)
        loss = torch.nn.functional.cross_entropy(forward(images), labels)
        loss.backward()
        opt.step()
        return loss.item()

    return step, {"torch": torch.__version__}


# --- timing ------------------------------------------------------------------


def run(step, steps, warmup):
    """(first step's seconds, seconds of each timed step, last loss)."""
    times, loss = [], None
    for i in range(warmup + steps):
        start = time.perf_counter()
        loss = step()
        times.append(time.perf_counter() - start)
    return times[0], times[warmup:], loss


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=sorted(NETS), required=True)
    parser.add_argument("--framework", choices=FRAMEWORKS, required=True)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--peak-memory", action="store_true",
                        help="report ru_maxrss after the last step")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.warmup < 0 or args.batch < 2:
        parser.error("need --steps >= 1, --warmup >= 0 and --batch >= 2")
    make = tf_step if args.framework.startswith("tf") else torch_step
    step, versions = make(args.model, args.batch, args.framework,
                          args.threads)
    first, times, loss = run(step, args.steps, args.warmup)
    median = statistics.median(times)
    result = {
        "model": args.model, "framework": args.framework,
        "batch": args.batch, "threads": args.threads, "steps": args.steps,
        "warmup": args.warmup, "median_step_seconds": median,
        "images_per_sec": args.batch / median, "step_seconds": times,
        "first_step_seconds": first, "loss": loss, "versions": versions}
    if args.peak_memory:
        result["peak_rss_bytes"] = \
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
