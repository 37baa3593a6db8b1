"""What the oracle scripts share; needs NumPy, not PyTorch.

- `run`: lowers a function `@f` in the nn dialect with
  `nnc-opt --convert-nn-to-linalg`, then with MLIR's own passes to LLVM,
  and executes it with `mlir-runner` on given inputs (forward_ops.py);
- `build` and `run_dump`: compile a model into its bench program, run it
  and read the arrays it dumps;
- `target_checks` and `comparison_seed`: a CUDA program against the CPU
  program of the same model (cuda_vs_cpu.py, bench/gpu_run.py);
- `close`, `tolerance` and `report`: the comparisons and their report.
"""

import os
import re
import subprocess
import sys
import tempfile

import numpy as np

LOWERING = [
    "--one-shot-bufferize=bufferize-function-boundaries",
    "--convert-linalg-to-loops", "--lower-affine", "--convert-scf-to-cf",
    "--expand-strided-metadata", "--lower-affine", "--finalize-memref-to-llvm",
    "--convert-math-to-llvm", "--convert-math-to-libm",
    "--convert-arith-to-llvm", "--convert-cf-to-llvm",
    "--convert-func-to-llvm", "--reconcile-unrealized-casts",
]


def tensor_type(shape, elt="f32"):
    """The MLIR tensor type of `shape`: tensor<2x3xf32>."""
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), elt)


INTEGER_TYPES = {np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}


def type_of(array):
    return tensor_type(array.shape, INTEGER_TYPES.get(array.dtype, "f32"))


def constant(name, array):
    """An arith.constant holding `array` (nested lists for rank > 1)."""
    if array.dtype in INTEGER_TYPES:
        body = np.array2string(array, separator=", ", threshold=sys.maxsize)
    else:
        body = np.array2string(array.astype(np.float32), separator=", ",
                               threshold=sys.maxsize, floatmode="unique",
                               max_line_width=sys.maxsize)
    return "  %%%s = arith.constant dense<%s> : %s\n" % (name, body, type_of(array))


def run(args, func, inputs, result_shapes):
    """Lowers and runs @f on `inputs`; returns its results as arrays."""
    results = ", ".join(tensor_type(s) for s in result_shapes)
    main = "func.func private @printMemrefF32(memref<*xf32>)\n"
    main += "func.func @main() {\n"
    for i, a in enumerate(inputs):
        main += constant("in%d" % i, a)
    names = ", ".join("%%in%d" % i for i in range(len(inputs)))
    types = ", ".join(type_of(a) for a in inputs)
    outs = ", ".join("%%r%d" % i for i in range(len(result_shapes)))
    main += "  %s = call @f(%s) : (%s) -> (%s)\n" % (outs, names, types, results)
    for i, s in enumerate(result_shapes):
        t = tensor_type(s)
        m = "memref" + t[len("tensor"):]
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
    """(whether `got` is within `rtol` of `want`, relative to want's
    largest magnitude; that error). A missing result (None) is not."""
    if got is None:
        return False, float("inf")
    want = np.asarray(want, dtype=np.float64)
    if not want.size:
        return True, 0.0
    scale = max(float(np.max(np.abs(want))), 1e-6)
    err = float(np.max(np.abs(np.asarray(got, np.float64) - want))) / scale
    return err <= rtol, err


def add_program_arguments(parser, batch=None):
    """--nnc (the compiler), --work (a directory for programs and dumps)
    and --batch (the batch to compile for; the model's own by default)."""
    parser.add_argument("--nnc", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--batch", type=int, default=batch)


def add_precision_argument(parser):
    """--precision of the CUDA target; the tolerance follows."""
    parser.add_argument("--precision", choices=("fp32", "tf32", "bf16"),
                        default="fp32")


def add_target_arguments(parser):
    """--target and --precision, passed on to nnc."""
    parser.add_argument("--target", choices=("cpu", "cuda"), default="cpu")
    add_precision_argument(parser)


def build(nnc, model, exe, target="cpu", precision="fp32", batch=None,
          flags=()):
    """Compiles MODEL.nn into its bench program `exe` for `target` (at
    `precision` on CUDA) and `batch` when given; returns `exe`."""
    cmd = [nnc, model, "-o", exe, "--target=" + target] + list(flags)
    if target == "cuda":
        cmd.append("--precision=" + precision)
    if batch:
        cmd.append("--batch=%d" % batch)
    subprocess.run(cmd, check=True)
    return exe


def tolerance(precision):
    """1e-4 relative in f32; TF32 and bf16 round operands to 10 and 7 bits."""
    return 1e-4 if precision == "fp32" else 1e-2


def run_dump(exe, path, mode="forward", steps=1, seed=7, flags=(), env=None):
    """Runs a bench program for `steps` steps of `mode` (no warm-up) on
    the batches of seed `seed`, dumping to `path`; returns the arrays."""
    subprocess.run([exe, "--mode=" + mode, "--steps=%d" % steps,
                    "--warmup=0", "--seed=%d" % seed, "--dump=" + path] +
                   list(flags), check=True, stdout=subprocess.DEVNULL, env=env)
    return dict(np.load(path))


def target_checks(cpu, gpu, seed, base, env=None):
    """The CUDA program `gpu` against the CPU program `cpu` of one model,
    from the same batch seed: three steps of each mode the CPU program has
    (forward, forward-backward, train), and a check ("MODE NAME", got, want)
    for every floating-point array but the images, and for global_step. A
    CUDA program that fails gives the check ("MODE: the CUDA program
    failed", None, None).
    Dumps go to BASE-MODE-cpu.npz and BASE-MODE-cuda.npz. The CUDA program
    also trains through its data-parallel step alone (NNRT_DATA_PARALLEL=1:
    gradients, NCCL's sum over one rank, apply_update), checked against
    the CPU's training ("train-data-parallel")."""
    parallel = dict(env if env is not None else os.environ,
                    NNRT_DATA_PARALLEL="1")
    for mode, gpu_env in (("forward", env), ("forward-backward", env),
                          ("train", env), ("train-data-parallel", parallel)):
        run_mode = "train" if mode == "train-data-parallel" else mode
        dump = "%s-%s-%%s.npz" % (base, mode)
        try:
            want = run_dump(cpu, dump % "cpu", run_mode, 3, seed, env=env)
        except subprocess.CalledProcessError:
            continue  # the model has no such entry point
        try:
            got = run_dump(gpu, dump % "cuda", run_mode, 3, seed, env=gpu_env)
        except subprocess.CalledProcessError:
            yield mode + ": the CUDA program failed", None, None
            continue
        for key in sorted(want):
            # Floating-point arrays, and the i64 step counter exactly.
            if (want[key].dtype.kind == "f" and key != "images" or
                    key == "global_step"):
                yield "%s %s" % (mode, key), got[key], want[key]


def comparison_seed(name, cpu, path, env=None):
    """A batch seed for comparing two targets: one whose max-pool windows
    are decided by more than rounding in the PyTorch reference (the targets
    sum in different orders). 3 for models without a reference, where no
    seed is free of near-ties, or where PyTorch is missing. `cpu` is the
    model's CPU program; its dumps go to `path`."""
    try:
        import torch
        import tf_models
    except ImportError:
        return 3
    if name not in tf_models.LOSSES:
        return 3
    seed, _ = tf_models.separated_seed(
        name, lambda seed: run_dump(cpu, path, "forward-backward", 3, seed,
                                    env=env), torch.float32)
    return 3 if seed is None else seed


def report(checks, rtol=1e-4):
    """Prints one line per (name, got, want) or (name, got, want, tolerance)
    check and a closing "N passed, N failed" line; returns the process exit
    status. A check's own tolerance, when it is not `rtol`, is printed."""
    failed = 0
    for name, got, want, *own in checks:
        tol = own[0] if own else rtol
        ok, err = close(got, want, tol)
        print("%s: %s (max relative error %.2e%s)" %
              ("match" if ok else "MISMATCH", name, err,
               "" if tol == rtol else ", tolerance %.2e" % tol))
        failed += not ok
    print("%d passed, %d failed" % (len(checks) - failed, failed))
    return 1 if failed else 0
