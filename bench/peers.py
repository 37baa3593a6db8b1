"""The peers of nnc's benchmarks: the same workloads in PyTorch (eager, on
the CPU) and NumPy, timed in this process.

Each model mirrors its .nn file in NCHW, as PyTorch users run it, with
TensorFlow's semantics from python/tf_semantics.py (asymmetric SAME padding,
-inf padding for max pooling, LRN with TensorFlow's alpha, the same losses)
and the same optimizer, so both sides do the same arithmetic."""

import contextlib
import json
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                             "..", "python"))
import tf_semantics as T  # noqa: E402

import programs  # noqa: E402


class Conv(nn.Module):
    """TF-style SAME or VALID convolution with bias and optional ReLU."""

    def __init__(self, cin, cout, k, s=1, padding="SAME", relu=True):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, s)
        self.k, self.s, self.padding, self.relu = k, s, padding, relu

    def forward(self, x):
        y = self.conv(T.pad_nchw(x, self.k, self.s, padding=self.padding))
        return F.relu(y) if self.relu else y


def lrn(radius, bias, alpha, beta):
    return nn.LocalResponseNorm(**T.lrn_torch_params(radius, bias, alpha,
                                                     beta))


class AlexNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([
            Conv(3, 64, 11, 4), Conv(64, 192, 5), Conv(192, 384, 3),
            Conv(384, 256, 3), Conv(256, 256, 3)])
        self.lrn = lrn(2, 2.0, 1e-4, 0.75)

    def forward(self, x):
        c = self.convs
        x = T.max_pool_nchw(self.lrn(c[0](x)), 3, 2, "VALID")
        x = T.max_pool_nchw(self.lrn(c[1](x)), 3, 2, "VALID")
        return T.max_pool_nchw(c[4](c[3](c[2](x))), 3, 2, "VALID")


class Cifar10CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = Conv(3, 64, 5), Conv(64, 64, 5)
        self.lrn = lrn(4, 1.0, 0.001 / 9.0, 0.75)
        self.local3, self.local4 = nn.Linear(2304, 384), nn.Linear(384, 192)
        self.out = nn.Linear(192, 10)

    def forward(self, x):
        x = self.lrn(T.max_pool_nchw(self.conv1(x), 3, 2, "SAME"))
        x = T.max_pool_nchw(self.lrn(self.conv2(x)), 3, 2, "SAME")
        x = x.permute(0, 2, 3, 1).reshape(x.shape[0], -1)
        x = F.relu(self.local4(F.relu(self.local3(x))))
        return self.out(x)


class CifarMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.h1, self.h2 = nn.Linear(3072, 3000), nn.Linear(3000, 1000)
        self.out = nn.Linear(1000, 10)

    def forward(self, x):
        x = F.relu(self.h2(F.relu(self.h1(x.reshape(x.shape[0], -1)))))
        return torch.sigmoid(self.out(x))


def cifar10_loss(model, logits, labels):
    return T.sparse_softmax_cross_entropy(logits, labels) + T.weight_decay(
        0.004, [model.local3.weight, model.local4.weight])


def forward_flops(model, x):
    """Multiply-adds of convolutions and dense layers, times two."""
    total = [0]

    def conv_hook(m, inp, out):
        total[0] += 2 * out.numel() * m.in_channels * m.kernel_size[0] * \
            m.kernel_size[1]

    def linear_hook(m, inp, out):
        total[0] += 2 * out.numel() * m.in_features

    hooks = [m.register_forward_hook(conv_hook if isinstance(m, nn.Conv2d)
                                     else linear_hook)
             for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    with torch.no_grad():
        model(x)
    for h in hooks:
        h.remove()
    return total[0]


def timed(fn, steps, warmup, device="cpu"):
    """Seconds of each of `steps` calls after `warmup`; on a GPU each step
    ends with a synchronisation, as nnc's bench program's does."""
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    return programs.timed(fn, steps, warmup, sync)


def set_precision(device, precision):
    """fp32: no TF32 anywhere; tf32: TF32 tensor cores for convolutions and
    matrix products; bf16: autocast to bf16 (f32 master weights). Returns
    the context each step runs in."""
    if device == "cuda":
        tf32 = precision == "tf32"
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        torch.backends.cudnn.benchmark = True
    if precision == "bf16":
        return lambda: torch.autocast(device_type=device, dtype=torch.bfloat16)
    return contextlib.nullcontext


def model_workload(name, mode, batch, steps, warmup, device="cpu",
                   precision="fp32", compiled=False, channels_last=False):
    """Seconds per step of `mode` (forward, forward-backward, train) and
    the forward pass's FLOPs, eager or through torch.compile, NCHW or
    channels_last."""
    torch.manual_seed(0)
    if name == "alexnet":
        model, x = AlexNet(), torch.randn(batch, 3, 224, 224) * 0.1
        loss_fn = lambda out, y: T.l2_loss(out)
        lr = 0.0
    elif name == "cifar10_cnn":
        model, x = Cifar10CNN(), torch.randn(batch, 3, 24, 24)
        loss_fn = lambda out, y: cifar10_loss(model, out, y)
        lr = 0.1
    else:
        model, x = CifarMLP(), torch.rand(batch, 3, 32, 32)
        loss_fn = T.categorical_cross_entropy
        lr = 0.01
    y = torch.randint(0, 10, (batch,))
    flops = forward_flops(model, x)
    model, x, y = model.to(device), x.to(device), y.to(device)
    if channels_last:
        model = model.to(memory_format=torch.channels_last)
        x = x.contiguous(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    context = set_precision(device, precision)
    run = torch.compile(model) if compiled else model

    def forward():
        with torch.no_grad(), context():
            run(x)

    def forward_backward():
        model.zero_grad(set_to_none=True)
        with context():
            loss = loss_fn(run(x), y)
        loss.backward()

    def train():
        forward_backward()  # the model's parameters are the optimizer's
        opt.step()

    fn = {"forward": forward, "forward-backward": forward_backward,
          "train": train}[mode]
    return timed(fn, steps, warmup, device), flops


def matmul_workload(n, steps, warmup, library, device="cpu",
                    precision="fp32"):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    if library == "torch":
        ta, tb = torch.from_numpy(a).to(device), torch.from_numpy(b).to(device)
        context = set_precision(device, precision)

        def mm():
            with context():
                torch.mm(ta, tb)
        return timed(mm, steps, warmup, device)
    return timed(lambda: a @ b, steps, warmup)


def tf_cnn_flops(model, batch):
    """Forward FLOPs of a bench/tf_cnn_peers.py net at `batch`."""
    import tf_cnn_peers
    torch.manual_seed(0)
    size = tf_cnn_peers.IMAGE_SIZE[model]
    net = tf_cnn_peers.torch_net(torch, model)
    x = torch.zeros(1, 3, size, size)
    net(torch.zeros(2, 3, size, size))  # makes the layers
    return forward_flops(net.eval(), x) * batch


def main(argv):
    """python3 peers.py model NAME MODE BATCH STEPS THREADS [OPTIONS]
       python3 peers.py matmul N STEPS LIBRARY THREADS [OPTIONS]
       python3 peers.py tf_cnn_flops MODEL BATCH
    OPTIONS: --device=cpu|cuda, --precision=fp32|tf32|bf16, --compile,
    --channels-last.
    Prints {"seconds": [...], "flops": F} (compare.py and gpu_run.py run
    each peer in a process of its own, with the settings that peer should
    have); tf_cnn_flops prints {"flops": F}."""
    if argv[1] == "tf_cnn_flops":
        json.dump({"flops": tf_cnn_flops(argv[2], int(argv[3]))}, sys.stdout)
        return
    options = [a for a in argv[2:] if a.startswith("--")]
    args = [a for a in argv[2:] if not a.startswith("--")]
    opt = dict(o[2:].split("=", 1) if "=" in o else (o[2:], "1")
               for o in options)
    device, precision = opt.get("device", "cpu"), opt.get("precision", "fp32")
    torch.set_num_threads(int(args[-1]))
    warmup = 3 if device == "cuda" else 1
    if argv[1] == "model":
        name, mode, batch, steps = args[0], args[1], int(args[2]), int(args[3])
        seconds, flops = model_workload(name, mode, batch, steps, warmup,
                                        device, precision, "compile" in opt,
                                        "channels-last" in opt)
    else:
        n, steps, library = int(args[0]), int(args[1]), args[2]
        seconds = matmul_workload(n, steps, warmup, library, device, precision)
        flops = 2 * n ** 3
    json.dump({"seconds": seconds, "flops": flops}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
