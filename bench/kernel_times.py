#!/usr/bin/env python3
"""Where a compiled training step's contraction time goes, call by call.

    bench/kernel_times.py models/resnet50.nn --batch=32 [--cpu=znver3]
                          [--steps=6] [--top=25] [--nnc=build/bin/nnc]

Builds the model's bench program, runs its training step under
`perf record` (cpu-clock samples of every thread), and lines the main
thread's samples in the contraction kernels up with the sequence of
contraction calls of `training_pass`, read from the LLVM dialect with its
debug locations: consecutive samples in one kernel are one call (or a run
of calls of that kernel). Every call is named after its layer (a layer's
forward convolution, its data gradient and its filter gradient share the
name) and costs that layer's FLOPs (nn.conv2d, nn.dense, nn.matmul in the
nn stage), so it prints each call's seconds per step and GFLOP/s, the
calls that lose the most time against `--par` GFLOP/s, and the totals.
Only whole steps count. Needs perf (Debian's linux-perf) and a model with
a training step. With --nn, --llvm and --samples (the nn stage, the LLVM
dialect with debug locations and `perf script -F tid,time,ip,sym` output)
it reads a recorded run instead of building and running one.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    """Runs `cmd`; a missing program or a failure ends the script with what
    went wrong (and the command's own error output when it was captured)."""
    try:
        return subprocess.run(cmd, check=True, **kw)
    except FileNotFoundError:
        hint = " (Debian's linux-perf)" if cmd[0] == "perf" else ""
        sys.exit(f"kernel_times: cannot run {cmd[0]}: not found{hint}")
    except subprocess.CalledProcessError as e:
        output = e.stderr.strip() if isinstance(e.stderr, str) else ""
        sys.exit(f"kernel_times: {os.path.basename(cmd[0])} failed (exit "
                 f"status {e.returncode})" + (f":\n{output}" if output else ""))


def layer_flops(nn_text):
    """FLOPs of every convolution and product of the nn stage, by name."""
    flops = {}
    shape = r"tensor<([\dx]+)xf32>"
    conv = re.compile(r"%(\S+) = nn\.conv2d .*: \(" + shape + ", " + shape +
                      r"\) -> " + shape)
    dense = re.compile(r"%(\S+) = nn\.(?:dense|matmul)\S* .*: \(" + shape +
                       ", " + shape)
    for line in nn_text.splitlines():
        if m := conv.search(line):
            kh, kw, ci, co = map(int, m.group(3).split("x"))
            n, ho, wo, _ = map(int, m.group(4).split("x"))
            flops[m.group(1)] = 2 * n * ho * wo * kh * kw * ci * co
        elif m := dense.search(line):
            a = list(map(int, m.group(2).split("x")))
            b = list(map(int, m.group(3).split("x")))
            flops[m.group(1)] = 2 * a[0] * a[1] * b[-1]
    return flops


def contraction_calls(llvm_text):
    """The contraction kernels, and training_pass's calls of them in order
    as (kernel, layer name)."""
    lines = llvm_text.splitlines()
    locs = {}
    for line in lines:
        if m := re.match(r"#loc(\d+) = loc\((.*)\)$", line):
            locs[m.group(1)] = m.group(2)

    def name(ref, depth=0):
        text = locs.get(ref, "")
        if m := re.match(r"callsite\(#loc(\d+) at", text):
            return name(m.group(1), depth + 1) if depth < 64 else text
        m = re.match(r'"([^"]+)"', text)
        return m.group(1) if m else text

    kernels = {m.group(1) for line in lines
               if (m := re.match(r"  llvm.func @(nnc_kernel_\d+)\(", line))
               and "nnc-contraction" in line}
    calls, inside = [], False
    for line in lines:
        if re.match(r"  llvm.func @training_pass\(", line):
            inside = True
        elif inside and re.match(r"  llvm.func ", line):
            break
        elif inside:
            m = re.search(r"llvm.call @(nnc_kernel_\d+)\(.*loc\(#loc(\d+)\)",
                          line)
            if m and m.group(1) in kernels:
                calls.append((m.group(1), name(m.group(2))))
    return kernels, calls


def runs_of_samples(script_text, kernels):
    """The main thread's samples as runs [kernel, samples] (other code ends
    a run)."""
    samples = [line.split() for line in script_text.splitlines()]
    samples = [s for s in samples if len(s) >= 4]
    if not samples:
        sys.exit("kernel_times: perf recorded no samples")
    main = min(int(s[0]) for s in samples)
    runs, last = [], None
    for s in samples:
        if int(s[0]) != main:
            continue
        # A kernel's parallel loop runs in its KERNEL.bodyN function.
        sym = s[3].split(".")[0]
        if sym not in kernels:
            last = None
            continue
        if runs and last == sym:
            runs[-1][1] += 1
        else:
            runs.append([sym, 1])
        last = sym
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", nargs="?")
    parser.add_argument("--batch", type=int)
    parser.add_argument("--cpu", help="nnc's --cpu (default: the host)")
    parser.add_argument("--nnc", default=os.path.join(ROOT, "build/bin/nnc"))
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--mode", help="the program's --mode (default: its "
                        "own, tf-cnn for a tf_cnn_benchmarks model)")
    parser.add_argument("--frequency", type=int, default=1999)
    parser.add_argument("--par", type=float, default=215.0,
                        help="GFLOP/s a call is measured against")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--nn", help="the nn stage, already emitted")
    parser.add_argument("--llvm", help="the LLVM dialect, already emitted")
    parser.add_argument("--samples", help="perf script's output, recorded")
    args = parser.parse_args()
    given = [args.nn, args.llvm, args.samples]
    if any(given) and not all(given):
        sys.exit("kernel_times: --nn, --llvm and --samples go together")
    if all(given):
        nn, llvm, script = (open(path).read() for path in given)
    else:
        nn, llvm, script = record(args)
    report(args, nn, llvm, script)


def record(args):
    """Builds the program and records its training step: the nn stage, the
    LLVM dialect and perf script's samples."""
    if not args.model:
        sys.exit("kernel_times: name a model, or give --nn, --llvm and "
                 "--samples")
    flags = [f"--batch={args.batch}"] if args.batch else []
    flags += [f"--cpu={args.cpu}"] if args.cpu else []
    with tempfile.TemporaryDirectory() as tmp:
        nnc = [args.nnc, args.model] + flags
        nn = run(nnc + ["--emit=nn", "-o", "-"], capture_output=True,
                 text=True).stdout
        llvm = run(nnc + ["--emit=llvm-mlir", "--mlir-print-debuginfo",
                          "-o", "-"], capture_output=True, text=True).stdout
        prog = os.path.join(tmp, "prog")
        run(nnc + ["-o", prog])
        data = os.path.join(tmp, "perf.data")
        mode = [f"--mode={args.mode}"] if args.mode else []
        run(["perf", "record", "-q", "-e", "cpu-clock", "-F",
             str(args.frequency), "-o", data, prog, f"--steps={args.steps}",
             "--warmup=1", f"--threads={args.threads}"] + mode,
            stdout=subprocess.DEVNULL)
        script = run(["perf", "script", "-i", data, "-F", "tid,time,ip,sym"],
                     capture_output=True, text=True).stdout
    return nn, llvm, script


def report(args, nn, llvm, script):
    """Lines the samples up with the calls and prints the table."""
    flops = layer_flops(nn)
    kernels, calls = contraction_calls(llvm)
    if not calls:
        sys.exit("kernel_times: no contraction calls in training_pass")
    # Consecutive calls of one kernel are one run of samples.
    groups = []
    for kernel, layer in calls:
        if groups and groups[-1][0] == kernel:
            groups[-1][1].append(layer)
        else:
            groups.append([kernel, [layer]])
    runs = runs_of_samples(script, kernels)

    # Walk the runs through the calls, step after step, from the first run
    # of the step's first kernel; a call with no run of its own had no
    # sample. Only whole steps count.
    samples = collections.Counter()
    step, whole, j = collections.Counter(), 0, 0
    while j < len(runs) and runs[j][0] != groups[0][0]:
        j += 1
    i = 0
    while j < len(runs):
        kernel = groups[i][0]
        if runs[j][0] == kernel:
            following = groups[(i + 1) % len(groups)][0]
            step[i] += runs[j][1]
            j += 1
            while j < len(runs) and runs[j][0] == kernel != following:
                step[i] += runs[j][1]
                j += 1
        i = (i + 1) % len(groups)
        if i == 0:
            samples.update(step)
            step.clear()
            whole += 1
    if not whole:
        sys.exit("kernel_times: no whole step recorded")

    rows = []
    for i, (kernel, layers) in enumerate(groups):
        seconds = samples[i] / args.frequency / whole
        gflop = sum(flops.get(layer, 0) for layer in layers) / 1e9
        rows.append((i, kernel, ",".join(dict.fromkeys(layers)), seconds,
                     gflop))
    total_s = sum(r[3] for r in rows)
    total_gf = sum(r[4] for r in rows)

    def show(r):
        i, kernel, layers, seconds, gflop = r
        rate = gflop / seconds if seconds else 0.0
        print(f"{i:4d} {kernel:>16} {seconds:8.4f} s {gflop:7.2f} GF "
              f"{rate:6.1f} GF/s  {layers[:60]}")

    print(f"{whole} whole steps, {len(groups)} contraction calls (or runs of "
          "one kernel's calls) a step")
    print(f"--- the {args.top} calls that lose the most against "
          f"{args.par:.0f} GFLOP/s")
    for r in sorted(rows, key=lambda r: r[4] / args.par - r[3])[:args.top]:
        show(r)
    print(f"contraction kernels: {total_s:.3f} s a step, {total_gf:.1f} "
          f"GFLOP, {total_gf / total_s:.1f} GFLOP/s")


if __name__ == "__main__":
    main()
