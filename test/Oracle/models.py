"""Whole models against PyTorch, through the bench program.

    python3 models.py --nnc NNC --work DIR [--batch N] [--cifar10]
                      [--target=cpu|cuda] [--precision=fp32|tf32|bf16] MODEL

Compiles models/MODEL.nn with `nnc -o`, runs one forward step of the bench
program with --dump, and recomputes the output from the dumped parameters
and inputs with an independent PyTorch version of the model (tf_models.py,
float64). With --cifar10 the bench reads generated files in the CIFAR-10
binary format, and the dumped inputs are also checked against an
independent implementation of the preprocessing. Prints one line per check
and a closing "N passed, N failed" line.
"""

import argparse
import os
import sys

import numpy as np
import torch

import oracle
import tf_models


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
    oracle.add_program_arguments(parser, batch=2)
    parser.add_argument("--models", required=True)
    parser.add_argument("--cifar10", action="store_true")
    oracle.add_target_arguments(parser)
    parser.add_argument("model", choices=sorted(tf_models.FORWARD))
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    bench = oracle.build(args.nnc,
                         os.path.join(args.models, args.model + ".nn"),
                         os.path.join(args.work, args.model + "-bench"),
                         args.target, args.precision, args.batch)
    dump = os.path.join(args.work, args.model + "-dump.npz")
    flags = ["--threads=2"]
    if args.cifar10:
        labels, pixels = write_cifar10(args.work, 3 * args.batch,
                                       np.random.default_rng(5))
        flags.append("--data=cifar10:" + args.work)
    arrays = oracle.run_dump(bench, dump, flags=flags)
    images = arrays["images"]
    checks = []
    if args.cifar10:
        want = preprocess(pixels[:args.batch], images.shape[1],
                          images.shape[2]).reshape(images.shape)
        checks.append(("preprocessed images", images, want))
        if "labels" in arrays:
            checks.append(("labels", arrays["labels"], labels[:args.batch]))
    params = {k: torch.from_numpy(v.astype(np.float64))
              for k, v in arrays.items()}
    with torch.no_grad():
        want = tf_models.FORWARD[args.model](params, params["images"]).numpy()
    checks.append(("%s forward (batch %d)" % (args.model, args.batch),
                   arrays["output0"], want))
    return oracle.report(checks, oracle.tolerance(args.precision))


if __name__ == "__main__":
    sys.exit(main())
