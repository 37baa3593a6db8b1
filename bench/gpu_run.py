"""nnc's CUDA target on a GPU: numeric checks and benchmarks, in one run.

    python3 gpu_run.py [--out DIR] [--skip-checks] [--skip-bench]
                       [--precision fp32,tf32,bf16]

Runs from the bundle bench/gpu_bundle.sh builds (the GPU machine needs
Python with PyTorch and the CUDA libraries, not LLVM):

1. the runtime's GPU self-test (nnrt-cuda-tests: every library call against
   a CPU reference, pool reuse, graph capture and replay);
2. every model's CUDA program against its CPU program from the same seeds:
   three forward steps (the output), three forward-backward steps (the loss
   and every gradient) and three training steps (every parameter after
   them; the second step of a CUDA program is captured into a graph, the
   third replays it), at 1e-4 relative error in fp32 and 1e-2 in tf32 and
   bf16;
3. the benchmarks: each workload's CUDA program against PyTorch eager and
   torch.compile on the same GPU, same precision, each in a process of its
   own; the ratios against the targets the project set.

Writes DIR/checks.txt, DIR/results.json, DIR/results.md and, with
matplotlib, DIR/time.png; prints the table last.
"""

import argparse
import glob
import json
import os
import subprocess
import sys

import numpy as np

import charts
import programs

HERE = os.path.dirname(os.path.abspath(__file__))
# The oracle's modules: beside this script in the bundle, in test/Oracle in
# the source tree. Of the checks, only the batch search needs PyTorch, and
# it takes seed 3 where PyTorch is missing.
sys.path.append(os.path.join(HERE, "..", "test", "Oracle"))
import oracle  # noqa: E402

# (title, program, mode, batch, peer model, goal against eager, against
# torch.compile)
WORKLOADS = [
    ("alexnet forward b128", "alexnet", "forward", 128, "alexnet", None, None),
    ("alexnet forward-backward b128", "alexnet", "forward-backward", 128,
     "alexnet", 1.3, 1.0),
    ("cifar_mlp train b32", "cifar_mlp", "train", 32, "cifar_mlp", 3.0, None),
    ("cifar10_cnn train b128", "cifar10_cnn", "train", 128, "cifar10_cnn",
     2.0, None),
]
MATMUL_SIZES = [1024, 2048, 4096, 8192]
# Bytes a cifar_mlp training step must move at least: its 12.3M weights
# read forward, read backward, and read and written by the update, with the
# gradient written and read (f32).
MLP_STEP_BYTES = 12_349_010 * 4 * 6


def cuda_library_path():
    """Directories holding cudart, cuDNN and cuBLASLt: the CUDA toolkit's,
    or PyTorch's NVIDIA wheels'."""
    dirs = [os.path.join(HERE, "lib")]
    patterns = ["/usr/local/cuda*/lib64", "/usr/local/cuda*/lib",
                "/usr/local/cuda*/targets/*/lib"]
    for path in sys.path:
        patterns.append(os.path.join(path, "nvidia", "*", "lib"))
    for pattern in patterns:
        for d in sorted(glob.glob(pattern)):
            if glob.glob(os.path.join(d, "libcu*.so*")) and d not in dirs:
                dirs.append(d)
    return dirs


def environment():
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = ":".join(
        cuda_library_path() + [env.get("LD_LIBRARY_PATH", "")])
    return env


ENV = environment()


def checks(args, log):
    work = os.path.join(args.out, "dumps")
    os.makedirs(work, exist_ok=True)
    failed = total = 0
    for cpu in sorted(glob.glob(os.path.join(HERE, "check", "*-cpu"))):
        name = os.path.basename(cpu)[:-4]
        seed = oracle.comparison_seed(
            name, cpu, os.path.join(work, name + "-seed.npz"), ENV)
        for precision in args.precision:
            gpu = os.path.join(HERE, "check", "%s-cuda-%s" % (name, precision))
            if not os.path.exists(gpu):
                continue
            base = os.path.join(work, "%s-%s" % (name, precision))
            for check, got, want in oracle.target_checks(cpu, gpu, seed, base,
                                                         ENV):
                ok, err = oracle.close(got, want, oracle.tolerance(precision))
                total += 1
                failed += not ok
                log("%s: %s %s %s (max relative error %.2e)" % (
                    "match" if ok else "MISMATCH", name, precision, check,
                    err))
    log("checks: %d passed, %d failed" % (total - failed, failed))
    return failed


def nnc_seconds(exe, mode, steps):
    data = programs.nnc_record(exe, mode, steps, 5, exe + ".json", env=ENV)
    return float(np.median(data["seconds_per_step"])), data.get("device")


def peer_seconds(workload, precision, compiled, steps):
    options = ["1", "--device=cuda", "--precision=" + precision]
    seconds, flops = programs.peer(
        workload + options + (["--compile"] if compiled else []), ENV)
    return float(np.median(seconds[-steps:])), flops


def bandwidth():
    """Device-to-device copy bandwidth, bytes read plus written per second."""
    import torch
    x = torch.empty(256 * 2 ** 20, dtype=torch.float32, device="cuda")
    y = torch.empty_like(x)
    for _ in range(3):
        y.copy_(x)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(True), torch.cuda.Event(True)
    start.record()
    for _ in range(20):
        y.copy_(x)
    end.record()
    end.synchronize()
    return 20 * 2 * x.numel() * 4 / (start.elapsed_time(end) / 1e3)


def benchmarks(args, log):
    rows, device = [], None
    for precision in args.precision:
        for title, prog, mode, batch, peer, goal_eager, goal_compiled in \
                WORKLOADS:
            exe = os.path.join(HERE, "bench", "%s-%s" % (prog, precision))
            nnc, device = nnc_seconds(exe, mode, 50)
            workload = ["model", peer, mode, str(batch), "50"]
            eager, flops = peer_seconds(workload, precision, False, 50)
            compiled, _ = peer_seconds(workload, precision, True, 50)
            if mode != "forward":
                flops *= 3
            rows.append({"workload": title, "precision": precision,
                         "nnc_seconds": nnc, "eager_seconds": eager,
                         "compile_seconds": compiled, "flops": flops,
                         "eager_ratio": eager / nnc,
                         "compile_ratio": compiled / nnc,
                         "goal_eager": goal_eager,
                         "goal_compile": goal_compiled})
            log("%s %s: nnc %.3f ms, eager %.3f ms (%.2fx), compile %.3f ms "
                "(%.2fx)" % (title, precision, nnc * 1e3, eager * 1e3,
                             eager / nnc, compiled * 1e3, compiled / nnc))
        for n in MATMUL_SIZES:
            exe = os.path.join(HERE, "bench", "matmul-%d-%s" % (n, precision))
            nnc, _ = nnc_seconds(exe, "forward", 50)
            torch_s, flops = peer_seconds(["matmul", str(n), "50", "torch"],
                                          precision, False, 50)
            rows.append({"workload": "matmul %d" % n, "precision": precision,
                         "nnc_seconds": nnc, "eager_seconds": torch_s,
                         "compile_seconds": None, "flops": flops,
                         "eager_ratio": torch_s / nnc, "compile_ratio": None,
                         "goal_eager": None, "goal_compile": None})
    bw = bandwidth()
    for r in rows:
        if r["workload"].startswith("cifar_mlp"):
            r["memory_floor_seconds"] = MLP_STEP_BYTES / bw
    return rows, device, bw


def markdown(rows, device, bw):
    lines = ["| workload | precision | nnc ms | PyTorch eager ms | eager/nnc "
             "| torch.compile ms | compile/nnc | nnc TFLOP/s | target |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        target = []
        if r["goal_eager"]:
            target.append("eager %.1fx %s" % (
                r["goal_eager"],
                "met" if r["eager_ratio"] >= r["goal_eager"] else "short"))
        if r["goal_compile"]:
            target.append("compile %.1fx %s" % (
                r["goal_compile"],
                "met" if r["compile_ratio"] >= r["goal_compile"] else "short"))
        if "memory_floor_seconds" in r:
            target.append("%.1fx the memory floor" % (
                r["nnc_seconds"] / r["memory_floor_seconds"]))
        compiled = r["compile_seconds"]
        lines.append("| %s | %s | %.3f | %.3f | %.2fx | %s | %s | %.1f | %s |"
                     % (r["workload"], r["precision"], r["nnc_seconds"] * 1e3,
                        r["eager_seconds"] * 1e3, r["eager_ratio"],
                        "%.3f" % (compiled * 1e3) if compiled else "-",
                        "%.2fx" % r["compile_ratio"] if compiled else "-",
                        r["flops"] / r["nnc_seconds"] / 1e12,
                        "; ".join(target) or "-"))
    name = (device or {}).get("name", "unknown GPU")
    lines.append("")
    lines.append("%s; device-to-device copy %.0f GB/s. Ratios are PyTorch "
                 "time / nnc time (above 1, nnc is faster)." % (name, bw / 1e9))
    return "\n".join(lines) + "\n"


def plot(rows, out):
    rows = [r for r in rows if r["compile_seconds"]]
    charts.bars(os.path.join(out, "time.png"),
                ["%s %s" % (r["workload"], r["precision"]) for r in rows],
                [(label, [r[key] * 1e3 for r in rows]) for key, label in (
                    ("nnc_seconds", "nnc"), ("eager_seconds", "PyTorch eager"),
                    ("compile_seconds", "torch.compile"))],
                "ms per step (log)", log=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(HERE, "results"))
    parser.add_argument("--skip-checks", action="store_true")
    parser.add_argument("--skip-bench", action="store_true")
    parser.add_argument("--precision", default="fp32,tf32,bf16",
                        type=lambda s: s.split(","))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    import torch
    if not torch.cuda.is_available():
        print("gpu_run.py: no CUDA device is visible; nothing to run",
              file=sys.stderr)
        return 1
    log_file = open(os.path.join(args.out, "checks.txt"), "w")

    def log(line):
        print(line, flush=True)
        log_file.write(line + "\n")

    status = 0
    if not args.skip_checks:
        test = subprocess.run([os.path.join(HERE, "nnrt-cuda-tests")], env=ENV,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
        log(test.stdout.rstrip())
        log("runtime self-test: %s" % ("passed" if test.returncode == 0
                                       else "FAILED"))
        status |= test.returncode != 0
        status |= checks(args, log) != 0
    if not args.skip_bench:
        rows, device, bw = benchmarks(args, log)
        with open(os.path.join(args.out, "results.json"), "w") as f:
            json.dump({"device": device, "bandwidth": bw, "rows": rows}, f,
                      indent=2)
        table = markdown(rows, device, bw)
        with open(os.path.join(args.out, "results.md"), "w") as f:
            f.write(table)
        plot(rows, args.out)
        print(table)
    return status


if __name__ == "__main__":
    sys.exit(main())
