"""Whole models against PyTorch, through the bench program.

    python3 models.py --nnc NNC --work DIR [--batch N] [--cifar10]
                      [--target=cpu|cuda] [--precision=fp32|tf32|bf16] MODEL

Compiles models/MODEL.nn with `nnc -o`, runs one forward step of the bench
program with --dump, and recomputes the output from the dumped parameters
and inputs with an independent PyTorch version of the model (float64, TF
semantics from tf_ref). With --cifar10 the bench reads generated files in
the CIFAR-10 binary format, and the dumped inputs are also checked against
an independent implementation of the preprocessing. Prints one line per
check and a closing "N passed, N failed" line.
"""

import argparse
import os
import subprocess
import sys

import numpy as np
import torch

import oracle
from tf_ref import ref_conv, ref_lrn, ref_pool

torch.set_default_dtype(torch.float64)


def conv(p, name, x, stride=1):
    w, b = p[name + ".weights"], p[name + ".biases"]
    y = ref_conv(x, w, (stride, stride), (1, 1), ("SAME", "SAME")) + b
    return np.maximum(y, 0)


def dense(p, name, x, activation=None):
    y = x @ p[name + ".weights"] + p[name + ".biases"]
    if activation == "relu":
        return np.maximum(y, 0)
    if activation == "sigmoid":
        return 1 / (1 + np.exp(-y))
    return y


def maxpool(x, window, stride, padding):
    return ref_pool(x, (window, window), (stride, stride), padding, "max")


def alexnet(p, x):
    lrn = lambda y: ref_lrn(y, 2, 2.0, 1e-4, 0.75)
    y = maxpool(lrn(conv(p, "conv1", x, stride=4)), 3, 2, "VALID")
    y = maxpool(lrn(conv(p, "conv2", y)), 3, 2, "VALID")
    y = conv(p, "conv5", conv(p, "conv4", conv(p, "conv3", y)))
    return maxpool(y, 3, 2, "VALID")


def cifar10_cnn(p, x):
    lrn = lambda y: ref_lrn(y, 4, 1.0, 0.001 / 9.0, 0.75)
    y = lrn(maxpool(conv(p, "conv1", x), 3, 2, "SAME"))
    y = maxpool(lrn(conv(p, "conv2", y)), 3, 2, "SAME")
    y = y.reshape(y.shape[0], -1)
    y = dense(p, "local4", dense(p, "local3", y, "relu"), "relu")
    return dense(p, "softmax_linear", y)


def cifar_mlp(p, x):
    y = x.reshape(x.shape[0], -1)
    y = dense(p, "hidden2", dense(p, "hidden1", y, "relu"), "relu")
    return dense(p, "probs", y, "sigmoid")


MODELS = {"alexnet": alexnet, "cifar10_cnn": cifar10_cnn,
          "cifar_mlp": cifar_mlp}


def write_cifar10(directory, records, rng):
    """A data_batch_1.bin of random records; returns (labels, pixels)."""
    labels = rng.integers(0, 10, records, dtype=np.uint8)
    pixels = rng.integers(0, 256, (records, 3072), dtype=np.uint8)
    data = np.concatenate([labels[:, None], pixels], axis=1)
    data.tofile(os.path.join(directory, "data_batch_1.bin"))
    return labels, pixels


def preprocess(pixels, height, width):
    """CIFAR-10 records as the reference models read them (NHWC)."""
    images = pixels.reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1).astype(
        np.float64)
    if height == 32:
        return images / 255.0
    top, left = (32 - height) // 2, (32 - width) // 2
    crops = images[:, top:top + height, left:left + width, :]
    n = height * width * 3
    mean = crops.mean(axis=(1, 2, 3), keepdims=True)
    std = crops.std(axis=(1, 2, 3), keepdims=True)
    return (crops - mean) / np.maximum(std, 1 / np.sqrt(n))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nnc", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--cifar10", action="store_true")
    oracle.add_target_arguments(parser)
    parser.add_argument("model", choices=sorted(MODELS))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    bench = os.path.join(args.work, args.model + "-bench")
    dump = os.path.join(args.work, args.model + "-dump.npz")
    subprocess.run([args.nnc, os.path.join(args.models, args.model + ".nn"),
                    "--batch=%d" % args.batch, "-o", bench] +
                   oracle.target_flags(args), check=True)
    flags = ["--steps=1", "--warmup=0", "--threads=2", "--seed=7",
             "--dump=" + dump]
    if args.cifar10:
        labels, pixels = write_cifar10(args.work, 3 * args.batch,
                                       np.random.default_rng(5))
        flags.append("--data=cifar10:" + args.work)
    subprocess.run([bench] + flags, check=True, stdout=subprocess.DEVNULL)

    arrays = dict(np.load(dump))
    images = arrays["images"]
    checks = []
    if args.cifar10:
        want = preprocess(pixels[:args.batch], images.shape[1],
                          images.shape[2]).reshape(images.shape)
        checks.append(("preprocessed images", images, want))
        if "labels" in arrays:
            checks.append(("labels", arrays["labels"], labels[:args.batch]))
    params = {k: v.astype(np.float64) for k, v in arrays.items()}
    want = MODELS[args.model](params, images.astype(np.float64))
    checks.append(("%s forward (batch %d)" % (args.model, args.batch),
                   arrays["output0"], want))
    return oracle.report(checks, oracle.tolerance(args))


if __name__ == "__main__":
    sys.exit(main())
