"""One training step of the tf_cnn_benchmarks models against PyTorch.

    python3 tf_cnn_models.py --nnc NNC --models DIR --work DIR [--batch N]
                             resnet50|vgg16|inception3|alexnet_tf_cnn

Compiles models/MODEL.nn with `nnc -o` (batch 2 by default), dumps the
initial parameters and batch of its bench program (`--mode=forward`), runs
one `--mode=train` step on them and compares with the same step written
out here: the net in PyTorch (float64, NHWC, TensorFlow's semantics from
python/tf_semantics.py), built from the parameter names nnc gives it;
the loss, the batch mean of sparse softmax cross-entropy plus
4e-5 * l2_loss of every weight and bias (batch normalisation's gamma and
beta are not decayed); plain SGD, w <- w - lr * (autograd gradient);
batch normalisation with the batch's statistics and its moving averages,
moving <- decay * moving + (1 - decay) * statistic (the variance times
Bessel's n / (n - 1)); dropout with philox.py's masks at the step; and
global_step counted up by one.

ResNet-50's learning rate is 0 at step 0 (its warm-up), so its step is
taken from a checkpoint (`--load`) whose global_step is in the warm-up
ramp, and again from one past it. Every array is compared by its change,
so a missing update cannot pass.

With millions of activations, a few relu inputs and max-pool windows are
within rounding of a tie in every step: float32 and float64 then route the
gradient differently, and whole filters' updates differ by far more than
rounding. So the program is compiled with `--tap` of the layers that decide
those branches (every relu's output, every max pool's input), and its
train dump holds them as the step computed them. The reference takes those
decisions and nothing else from nnc: each relu is x * (nnc's output > 0),
each max pool gathers the winner nnc picks from its float32 input (the
first maximum of the window in row-major order; padding never wins), and
the arithmetic stays float64. A decision that differs from float64's own
must be within TIE of a tie, relative to its layer's largest magnitude
(relu: |input|; max pool: the gap to float64's winner); a note gives their
number and the farthest, and one farther is a MISMATCH (a forward bug).

Every check allows RTOL (1e-4) relative error. Batch normalisation over
the few values per channel of batch 2 (98 in ResNet-50's last stage, 128 in
Inception-v3's) divides by standard deviations far below the values'
magnitude, so every layer multiplies the rounding error of the one before:
the same reference computed in float32, with the same decisions, is itself
up to about 1.5e-4 (ResNet-50) and 2.5e-4 (Inception-v3) from float64 in
the last layers. For those two models each check's tolerance is the larger
of RTOL and FLOOR (3) times that float32 error of the same array, printed
with the check when it is larger than RTOL; likewise a decision's distance
to a tie may reach FLOOR times the float32 error of its layer's input.
Prints one line per check and "N passed, N failed".
"""

import argparse
import fnmatch
import math
import os
import sys

import numpy as np
import torch

import oracle
import tf_models

T = tf_models.T

torch.set_default_dtype(torch.float64)
torch.set_num_threads(2)

WEIGHT_DECAY = 4e-5


# A branch decision nnc takes that float64 would take otherwise must be
# this close to a tie, relative to its layer's largest magnitude.
TIE = 1e-4
# The tolerance of every check (relative to the largest magnitude wanted),
# and, for the models with batch normalisation, the multiple of the same
# reference's float32 error that may raise it (see the docstring).
RTOL = 1e-4
FLOOR = 3


def relative(distance, layer):
    """`distance` relative to the largest magnitude in `layer` (0 when
    the layer is all zeros, and so is the distance)."""
    scale = float(layer.abs().max())
    return float(distance) / scale if scale else float(distance)


class Net:
    """The parameters of one evaluation and what it records: the batch
    statistics of each normalisation ({"conv1.bn": (mean, var, n)}), the
    names of the parameters used, the branch decisions taken from nnc's
    tapped layers `taps` that float64 would take otherwise
    ({"relu"|"max_pool": [(layer, count, distance to a tie)]}), and each
    deciding layer's input ({(kind, layer): tensor})."""

    def __init__(self, params, step, bn_epsilon, taps):
        self.p, self.step, self.epsilon = params, step, bn_epsilon
        self.stats, self.used = {}, set()
        self.taps = taps
        self.taken = {"relu": [], "max_pool": []}
        self.inputs = {}

    def relu(self, name, y):
        """relu(y) as the layer `name` decided in nnc: y where its output
        is positive, else 0."""
        keep = torch.from_numpy(self.taps[name] > 0)
        pre = y.detach()
        self.inputs["relu", name] = pre
        differ = keep != (pre > 0)
        if differ.any():
            self.taken["relu"].append(
                (name, int(differ.sum()),
                 relative(pre[differ].abs().max(), pre)))
        return y * keep.to(y.dtype)

    def max_pool(self, x, name, window, stride, padding):
        """tf.nn.max_pool with nnc's winners: each window's first maximum
        (row-major) in nnc's float32 layer `name`, the pool's input; -inf
        padding never wins. The gradient follows the gathered winner."""
        window, stride = T._pair(window), T._pair(stride)
        k = window[0] * window[1]

        def windows(v):
            v = T.pad_nchw(T.to_nchw(v), window, stride, 1, padding,
                           value=-math.inf)
            return v.unfold(2, window[0], stride[0]).unfold(
                3, window[1], stride[1]).flatten(-2)

        def first_max(w):
            top = w.max(dim=-1, keepdim=True).values
            order = torch.arange(k).expand(w.shape)
            return torch.where(w == top, order, k).min(
                dim=-1, keepdim=True).values

        tapped = torch.from_numpy(self.taps[name]).to(torch.float64)
        self.inputs["max_pool", name] = x.detach()
        winner = first_max(windows(tapped))
        xw = windows(x)
        own = first_max(xw.detach())
        differ = winner != own
        if differ.any():
            gap = (xw.detach().gather(-1, own) -
                   xw.detach().gather(-1, winner))[differ]
            self.taken["max_pool"].append(
                (name, int(differ.sum()), relative(gap.max(), x.detach())))
        return T.to_nhwc(xw.gather(-1, winner).squeeze(-1))

    def param(self, name, shape=None):
        self.used.add(name)
        v = self.p[name]
        if shape is not None and tuple(v.shape) != tuple(shape):
            raise ValueError("%s: shape %s, expected %s" %
                             (name, tuple(v.shape), tuple(shape)))
        return v

    def conv_bn(self, name, x, filters, kernel, stride=1, padding="SAME",
                relu=True):
        """A convolution without bias, batch normalisation (with gamma when
        the model has one), then relu unless told otherwise."""
        kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
        if padding == "SAME_RESNET":
            padding = (tf_models.resnet_padding((kh, kw)) if stride > 1
                       else "SAME")
        w = self.param(name + ".conv.weights", (kh, kw, x.shape[3], filters))
        v = T.conv(x, w, None, stride=stride, padding=padding)
        bn = name + ".bn."
        gamma = (self.param(bn + "gamma", (filters,))
                 if bn + "gamma" in self.p else None)
        y, mean, var, n = tf_models.batch_norm(
            v, gamma, self.param(bn + "beta", (filters,)), self.epsilon)
        self.stats[name + ".bn"] = (mean, var, n)
        return self.relu(name + ".bn", y) if relu else y

    def conv(self, name, x, filters, kernel, stride=1, padding="SAME"):
        """A convolution with bias and relu."""
        w = self.param(name + ".weights",
                       (kernel, kernel, x.shape[3], filters))
        b = self.param(name + ".biases", (filters,))
        return self.relu(name, T.conv(x, w, b, stride=stride,
                                      padding=padding))

    def dense(self, name, x, units, relu=False):
        w = self.param(name + ".weights", (x.shape[1], units))
        y = T.dense(x, w, self.param(name + ".biases", (units,)))
        return self.relu(name, y) if relu else y

    def dropout(self, name, x, rate):
        return tf_models.dropout(x, rate, name, self.step)


def resnet50(net, x):
    v = net.conv_bn("conv1", x, 64, 7, 2, "SAME_RESNET")
    v = net.max_pool(v, "conv1.bn", 3, 2, "SAME")
    for stage, depth, blocks, stride in (("res2", 256, 3, 1),
                                         ("res3", 512, 4, 2),
                                         ("res4", 1024, 6, 2),
                                         ("res5", 2048, 3, 2)):
        for block in range(blocks):
            first = block == 0
            name = stage + (".first" if first else ".more.%d" % block)
            s = stride if first else 1
            shortcut = (net.conv_bn(name + ".shortcut", v, depth, 1, s,
                                    relu=False) if first else v)
            r = net.conv_bn(name + ".res.conv1", v, depth // 4, 1, s)
            r = net.conv_bn(name + ".res.conv2", r, depth // 4, 3, 1,
                            "SAME_RESNET")
            r = net.conv_bn(name + ".res.conv3", r, depth, 1, relu=False)
            v = net.relu(name + ".out", shortcut + r)
    return net.dense("logits", v.mean(dim=(1, 2)), 1001)


def inception_a(net, name, x, pool_filters):
    c = lambda n, v, f, k: net.conv_bn(name + "." + n, v, f, k)
    b0 = c("b0", x, 64, 1)
    b1 = c("b1", c("b1a", x, 48, 1), 64, 5)
    b2 = c("b2", c("b2b", c("b2a", x, 64, 1), 96, 3), 96, 3)
    b3 = c("b3", T.avg_pool(x, 3, 1, "SAME"), pool_filters, 1)
    return torch.cat([b0, b1, b2, b3], dim=3)


def inception_b(net, name, x, x_name):
    c = lambda n, v, f, k, s=1, pad="SAME": net.conv_bn(name + "." + n, v, f,
                                                        k, s, pad)
    b0 = c("b0", x, 384, 3, 2, "VALID")
    b1 = c("b1", c("b1b", c("b1a", x, 64, 1), 96, 3), 96, 3, 2, "VALID")
    b2 = net.max_pool(x, x_name, 3, 2, "VALID")
    return torch.cat([b0, b1, b2], dim=3)


def inception_c(net, name, x, width):
    c = lambda n, v, f, k: net.conv_bn(name + "." + n, v, f, k)
    b0 = c("b0", x, 192, 1)
    b1 = c("b1a", x, width, 1)
    b1 = c("b1", c("b1b", b1, width, (1, 7)), 192, (7, 1))
    b2 = c("b2b", c("b2a", x, width, 1), width, (7, 1))
    b2 = c("b2d", c("b2c", b2, width, (1, 7)), width, (7, 1))
    b2 = c("b2", b2, 192, (1, 7))
    b3 = c("b3", T.avg_pool(x, 3, 1, "SAME"), 192, 1)
    return torch.cat([b0, b1, b2, b3], dim=3)


def inception_d(net, name, x, x_name):
    c = lambda n, v, f, k, s=1, pad="SAME": net.conv_bn(name + "." + n, v, f,
                                                        k, s, pad)
    b0 = c("b0", c("b0a", x, 192, 1), 320, 3, 2, "VALID")
    b1 = c("b1c", c("b1b", c("b1a", x, 192, 1), 192, (1, 7)), 192, (7, 1))
    b1 = c("b1", b1, 192, 3, 2, "VALID")
    b2 = net.max_pool(x, x_name, 3, 2, "VALID")
    return torch.cat([b0, b1, b2], dim=3)


def inception_e(net, name, x, pooled):
    c = lambda n, v, f, k: net.conv_bn(name + "." + n, v, f, k)
    b0 = c("b0", x, 320, 1)
    b1a = c("b1a", x, 384, 1)
    b1b, b1c = c("b1b", b1a, 384, (1, 3)), c("b1c", b1a, 384, (3, 1))
    b2b = c("b2b", c("b2a", x, 448, 1), 384, 3)
    b2c, b2d = c("b2c", b2b, 384, (1, 3)), c("b2d", b2b, 384, (3, 1))
    b3 = c("b3", pooled, 192, 1)
    return torch.cat([b0, b1b, b1c, b2c, b2d, b3], dim=3)


def inception3(net, x):
    v = net.conv_bn("conv0", x, 32, 3, 2, "VALID")
    v = net.conv_bn("conv1", v, 32, 3, 1, "VALID")
    v = net.max_pool(net.conv_bn("conv2", v, 64, 3), "conv2.bn", 3, 2,
                     "VALID")
    v = net.conv_bn("conv3", v, 80, 1, 1, "VALID")
    v = net.max_pool(net.conv_bn("conv4", v, 192, 3, 1, "VALID"), "conv4.bn",
                     3, 2, "VALID")
    for i, pool_filters in enumerate((32, 64, 64)):
        v = inception_a(net, "mixed%d" % i, v, pool_filters)
    v = inception_b(net, "mixed3", v, "mixed2.out")
    for i, width in enumerate((128, 160, 160, 192)):
        v = inception_c(net, "mixed%d" % (i + 4), v, width)
    v = inception_d(net, "mixed8", v, "mixed7.out")
    v = inception_e(net, "mixed9", v, T.avg_pool(v, 3, 1, "SAME"))
    v = inception_e(net, "mixed10", v,
                    net.max_pool(v, "mixed9.out", 3, 1, "SAME"))
    v = T.avg_pool(v, 8, 1, "VALID")
    return net.dense("logits", v.reshape(x.shape[0], -1), 1001)


def classifier(net, v):
    """The two 4096-unit layers with dropout and the logits."""
    v = net.dropout("drop6", net.dense("fc6", v.reshape(v.shape[0], -1),
                                       4096, relu=True), 0.5)
    v = net.dropout("drop7", net.dense("fc7", v, 4096, relu=True), 0.5)
    return net.dense("logits", v, 1001)


def vgg16(net, x):
    v = x
    for g, (convs, filters) in enumerate(((2, 64), (2, 128), (3, 256),
                                          (3, 512), (3, 512))):
        for i in range(convs):
            name = "group%d.conv.%d.conv" % (g + 1, i + 1)
            v = net.conv(name, v, filters, 3)
        v = net.max_pool(v, name, 2, 2, "VALID")
    return classifier(net, v)


def alexnet_tf_cnn(net, x):
    v = net.conv("conv1", x, 64, 11, 4, "VALID")
    v = net.conv("conv2", net.max_pool(v, "conv1", 3, 2, "VALID"), 192, 5)
    v = net.conv("conv3", net.max_pool(v, "conv2", 3, 2, "VALID"), 384, 3)
    v = net.conv("conv5", net.conv("conv4", v, 384, 3), 256, 3)
    return classifier(net, net.max_pool(v, "conv5", 3, 2, "VALID"))


def resnet_rate(batch, step):
    """models/resnet50.nn's learning rate at `step`: 0.128 * batch / 256,
    ramped up by step / warm-up over 5 epochs of 1,281,167 images, then
    piecewise constant (only the first piece is needed here)."""
    rate = 0.128 * batch / 256
    epoch = 1281167 / batch
    warmup = math.floor(5 * epoch)
    assert step <= math.floor(30 * epoch)
    return rate * step / warmup if step < warmup else rate


def resnet_steps(batch):
    """The global steps ResNet-50 is checked from: half way up the warm-up
    and just past it."""
    warmup = math.floor(5 * 1281167 / batch)
    return [warmup // 2 + 1, warmup + 1]


# model -> (net, batch normalisation (epsilon, decay), learning rate at a
# step for a batch, the global steps to check from, the layers to tap: the
# outputs of every relu and the input of every max pool).
MODELS = {
    "resnet50": (resnet50, (1e-5, 0.9), resnet_rate, resnet_steps,
                 "*.bn,*.out"),
    "inception3": (inception3, (1e-3, 0.999), lambda b, s: 0.005,
                   lambda b: [0], "*.bn,mixed2.out,mixed7.out,mixed9.out"),
    "vgg16": (vgg16, None, lambda b, s: 0.005, lambda b: [0],
              "group*.conv.*.conv,fc6,fc7"),
    "alexnet_tf_cnn": (alexnet_tf_cnn, None, lambda b, s: 0.005,
                       lambda b: [0], "conv1,conv2,conv3,conv4,conv5,fc6,fc7"),
}


def tapped(model, name):
    """Whether `name` is a layer the model's program taps."""
    return any(fnmatch.fnmatchcase(name, p)
               for p in MODELS[model][4].split(","))


def trainable(name):
    return name.rsplit(".", 1)[-1] in ("weights", "biases", "gamma", "beta")


def decayed(name):
    return name.rsplit(".", 1)[-1] in ("weights", "biases")


def reference(model, init, x, y, step, taps, dtype=torch.float64):
    """(loss, gradients, moving averages after the step, the branch
    decisions taken from nnc, the parameters the net used, the deciding
    layers' inputs) from the parameters `init` at global step `step`, with
    the relu and max-pool decisions of nnc's tapped layers `taps`,
    computed in `dtype`."""
    build, norm = MODELS[model][:2]
    p = {k: torch.tensor(v, dtype=dtype, requires_grad=trainable(k))
         for k, v in init.items() if "." in k}
    net = Net(p, step, norm[0] if norm else None, taps)
    default = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        logits = build(net, x.to(dtype))
        loss = T.sparse_softmax_cross_entropy(logits, y) + T.weight_decay(
            WEIGHT_DECAY, [p[k] for k in sorted(net.used) if decayed(k)])
        loss.backward()
    finally:
        torch.set_default_dtype(default)
    grads = {k: p[k].grad.double().numpy() for k in net.used if trainable(k)}
    moving = {}
    for name, (mean, var, n) in net.stats.items():
        decay = norm[1]
        mean, var = mean.detach().double(), var.detach().double()
        for key, value in (("moving_mean", mean.numpy()),
                           ("moving_variance", var.numpy() * n / (n - 1))):
            k = "%s.%s" % (name, key)
            net.used.add(k)
            old = init[k].astype(np.float64)
            moving[k] = decay * old + (1 - decay) * value
    return float(loss), grads, moving, net.taken, net.used, net.inputs


def expected(init, lr, loss, grads, moving):
    """{"loss": the loss, name: the change of each checked array}."""
    want = {"loss": np.float64(loss)}
    for k in sorted(init):
        if k in grads:
            want[k] = -lr * grads[k]
        elif k in moving:
            want[k] = moving[k] - init[k]
        elif k == "global_step":
            want[k] = np.array(1)
    return want


def tolerances(want, want32):
    """Each check's tolerance: RTOL, or FLOOR times the error of the same
    reference in float32 (the same decisions), where that is larger."""
    return {k: max(RTOL, FLOOR * oracle.close(want32[k], w)[1])
            for k, w in want.items()}


def tie_tolerances(inputs, inputs32):
    """How far from a tie each deciding layer's decisions may be: TIE, or
    FLOOR times the float32 error of the layer's input (the same
    decisions), relative to its largest magnitude, where that is larger."""
    return {k: max(TIE, FLOOR * relative((inputs32[k].double() - x).abs()
                                         .max(), x))
            for k, x in inputs.items()}


def stored_change(trained, init, want):
    """The change from `init` to `trained` (float32), less the rounding of
    the stored result: each element's error beyond half a float32 unit of
    the new value. A weight of 0.02 stores a change of 1e-6 only to 0.1%."""
    got = trained.astype(np.float64) - init
    if trained.dtype != np.float32:
        return got
    slack = np.spacing(np.abs(trained)) / 2
    err = got - want
    return want + np.sign(err) * np.maximum(np.abs(err) - slack, 0)


def step_checks(model, batch, bench, work, seed, step):
    """The checks of one train step from global step `step` on the batch
    of `seed`."""
    flags = ["--threads=2"]
    init = oracle.run_dump(bench, work("init"), "forward", 1, seed, flags)
    init = {k: v for k, v in init.items() if not tapped(model, k)}
    if step:
        params = {k: v for k, v in init.items()
                  if "." in k or k == "global_step"}
        params["global_step"] = np.array(step, dtype=np.int64)
        np.savez(work("start"), **params)
        init = params
        flags.append("--load=" + work("start"))
    trained = oracle.run_dump(bench, work("train"), "train", 1, seed, flags)
    x = torch.tensor(trained["images"], dtype=torch.float64)
    y = torch.tensor(trained["labels"])
    taps = {k: v for k, v in trained.items() if tapped(model, k)}
    loss, grads, moving, taken, used, inputs = reference(
        model, init, x, y, step, taps)
    lr = MODELS[model][2](batch, step)
    want = expected(init, lr, loss, grads, moving)
    tol, tie = {}, {}
    if MODELS[model][1]:  # batch normalisation: the float32 floor
        ref32 = reference(model, init, x, y, step, taps, torch.float32)
        tol = tolerances(want, expected(init, lr, *ref32[:3]))
        tie = tie_tolerances(inputs, ref32[5])
    at = "step %d" % step
    checks = []
    for kind, layers in sorted(taken.items()):
        far = max((d for _, _, d in layers), default=0.0)
        print("note: %s: %d %s decisions taken from nnc in %d layers, at "
              "most %.1e of the layer's scale from a tie" %
              (at, sum(n for _, n, _ in layers), kind, len(layers), far))
        checks += [("%s %s %s: %d decisions %.1e from a tie (allowed "
                    "%.1e)" % (at, name, kind, n, d,
                               tie.get((kind, name), TIE)), None, None)
                   for name, n, d in layers if d > tie.get((kind, name), TIE)]
    checks.append(("%s loss" % at, trained["loss"], want["loss"],
                   tol.get("loss", RTOL)))
    unused = sorted(k for k in init if "." in k and k not in used)
    checks += [("%s %s is not in the reference" % (at, k), None, None)
               for k in unused]
    for k in sorted(init):
        if k in want:
            checks.append(("%s %s (change)" % (at, k),
                           stored_change(trained[k], init[k], want[k]),
                           want[k], tol.get(k, RTOL)))
    return checks


def main():
    parser = argparse.ArgumentParser()
    oracle.add_program_arguments(parser, batch=2)
    parser.add_argument("--models", required=True)
    parser.add_argument("model", choices=sorted(MODELS))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    bench = oracle.build(args.nnc,
                         os.path.join(args.models, args.model + ".nn"),
                         os.path.join(args.work, args.model + "-bench"),
                         batch=args.batch,
                         flags=["--tap=" + MODELS[args.model][4]])
    work = lambda f: os.path.join(args.work, "%s-%s.npz" % (args.model, f))
    checks = []
    for step in MODELS[args.model][3](args.batch):
        checks += step_checks(args.model, args.batch, bench, work, 3, step)
    status = oracle.report(checks, RTOL)
    if not status:  # the dumps of the large models take a gigabyte
        for f in ("init", "start", "train"):
            if os.path.exists(work(f)):
                os.remove(work(f))
    return status


if __name__ == "__main__":
    sys.exit(main())
