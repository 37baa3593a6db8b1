"""Runs nn ops through nnc's lowering and compares them with PyTorch.

Each case is a function `@f` in the nn dialect plus a PyTorch reference that
implements TensorFlow's semantics independently (padding, LRN, pooling,
losses). The function is lowered with `nnc-opt --convert-nn-to-linalg`, then
with MLIR's own passes to LLVM, and executed by `mlir-runner` on random
inputs; outputs must match within 1e-4 relative error (f32).

    python3 oracle.py --tools BUILD/bin --llvm /usr/lib/llvm-22 FAMILY
"""

import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch
import torch.nn.functional as F

LOWERING = [
    "--one-shot-bufferize=bufferize-function-boundaries",
    "--convert-linalg-to-loops", "--lower-affine", "--convert-scf-to-cf",
    "--expand-strided-metadata", "--lower-affine", "--finalize-memref-to-llvm",
    "--convert-math-to-llvm", "--convert-math-to-libm",
    "--convert-arith-to-llvm", "--convert-cf-to-llvm",
    "--convert-func-to-llvm", "--reconcile-unrealized-casts",
]


def type_of(array):
    elt = "i32" if array.dtype == np.int32 else "f32"
    return "tensor<%s%s>" % ("".join("%dx" % d for d in array.shape), elt)


def constant(name, array):
    """An arith.constant holding `array` (nested lists for rank > 1)."""
    if array.dtype == np.int32:
        body = np.array2string(array, separator=", ", threshold=sys.maxsize)
    else:
        body = np.array2string(array.astype(np.float32), separator=", ",
                               threshold=sys.maxsize, floatmode="unique",
                               max_line_width=sys.maxsize)
    return "  %%%s = arith.constant dense<%s> : %s\n" % (name, body, type_of(array))


def run(args, func, inputs, result_shapes):
    """Lowers and runs @f on `inputs`; returns its results as arrays."""
    results = ", ".join("tensor<%sf32>" % "".join("%dx" % d for d in s)
                        for s in result_shapes)
    main = "func.func private @printMemrefF32(memref<*xf32>)\n"
    main += "func.func @main() {\n"
    for i, a in enumerate(inputs):
        main += constant("in%d" % i, a)
    names = ", ".join("%%in%d" % i for i in range(len(inputs)))
    types = ", ".join(type_of(a) for a in inputs)
    outs = ", ".join("%%r%d" % i for i in range(len(result_shapes)))
    main += "  %s = call @f(%s) : (%s) -> (%s)\n" % (outs, names, types, results)
    for i, s in enumerate(result_shapes):
        t = "tensor<%sf32>" % "".join("%dx" % d for d in s)
        m = "memref<%sf32>" % "".join("%dx" % d for d in s)
        main += "  %%m%d = bufferization.to_buffer %%r%d : %s to %s\n" % (i, i, t, m)
        main += "  %%u%d = memref.cast %%m%d : %s to memref<*xf32>\n" % (i, i, m)
        main += "  call @printMemrefF32(%%u%d) : (memref<*xf32>) -> ()\n" % i
    main += "  return\n}\n"
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "case.mlir")
        with open(src, "w") as f:
            f.write(func + "\n" + main)
        linalg = subprocess.run(
            [os.path.join(args.tools, "nnc-opt"), src, "--convert-nn-to-linalg"],
            check=True, capture_output=True, text=True).stdout
        llvm = subprocess.run(
            [os.path.join(args.llvm, "bin", "mlir-opt")] + LOWERING,
            input=linalg, check=True, capture_output=True, text=True).stdout
        libs = ",".join(os.path.join(args.llvm, "lib", l) for l in
                        ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
        out = subprocess.run(
            [os.path.join(args.llvm, "bin", "mlir-runner"), "-e", "main",
             "-entry-point-result=void", "-shared-libs=" + libs],
            input=llvm, check=True, capture_output=True, text=True).stdout
    arrays = []
    for block, shape in zip(out.split("Unranked Memref")[1:], result_shapes):
        data = block.split("data =", 1)[1]
        numbers = re.findall(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf|nan)", data)
        arrays.append(np.array([float(v) for v in numbers],
                               dtype=np.float64).reshape(shape))
    return arrays


def close(got, want, rtol=1e-4):
    want = np.asarray(want, dtype=np.float64)
    scale = max(float(np.max(np.abs(want))), 1e-6)
    err = float(np.max(np.abs(got - want))) / scale if want.size else 0.0
    return err <= rtol, err


def add_target_arguments(parser):
    """--target and --precision, passed on to nnc; the tolerance follows."""
    parser.add_argument("--target", choices=("cpu", "cuda"), default="cpu")
    parser.add_argument("--precision", choices=("fp32", "tf32", "bf16"),
                        default="fp32")


def target_flags(args):
    flags = ["--target=" + args.target]
    if args.target == "cuda":
        flags.append("--precision=" + args.precision)
    return flags


def tolerance(args):
    """1e-4 relative in f32; TF32 and bf16 round operands to 10 and 7 bits."""
    return 1e-4 if args.precision == "fp32" else 1e-2


def report(checks, rtol=1e-4):
    """Prints one line per (name, got, want) check and a closing
    "N passed, N failed" line; returns the process exit status."""
    failed = 0
    for name, got, want in checks:
        ok, err = close(np.asarray(got, np.float64), want, rtol)
        print("%s: %s (max relative error %.2e)" %
              ("match" if ok else "MISMATCH", name, err))
        failed += not ok
    print("%d passed, %d failed" % (len(checks) - failed, failed))
    return 1 if failed else 0
