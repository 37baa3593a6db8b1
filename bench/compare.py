"""nnc against its peers, side by side on this machine, in one run.

    python3 bench/compare.py [--build BUILD] [--threads N] [--quick] [--out DIR]
                             [--gpu FILE] [--replot]

For every workload it compiles the nnc bench program, runs it, runs the
peer (PyTorch eager on the CPU; NumPy's BLAS for the matrix product) with
the same thread count in this process, and writes DIR/results.json,
DIR/results.md (the table) and, with matplotlib, DIR/time.png,
DIR/gflops.png and DIR/matmul.png. Ratios are peer time / nnc time: above
1, nnc is faster. --gpu FILE merges bench/gpu_run.py's results.json (its
fp32 rows, by workload title) into the charts: nnc on the GPU and the
faster of PyTorch eager and torch.compile there. --replot redraws DIR's
charts from DIR/results.json, running nothing.
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys

import numpy as np

import charts
import programs

# OpenMP programs (nnc's and PyTorch) run one thread per core, pinned:
# unpinned, two busy threads can share a core for a whole run. NumPy's BLAS
# keeps its own threading.
PINNED = dict(os.environ, OMP_PROC_BIND="spread", OMP_PLACES="cores")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (model, mode, batch, nnc steps, peer steps, rounds)
MODELS = [
    ("cifar_mlp", "train", 32, 20, 20, 3),
    ("cifar10_cnn", "train", 128, 5, 5, 3),
    ("alexnet", "forward", 128, 2, 5, 1),
    ("alexnet", "forward-backward", 128, 2, 3, 1),
]
SIZES = [256, 512, 1024, 2048, 4096]
# Short workloads alternate nnc and its peer a few times, so that a burst
# of activity elsewhere on the machine does not land on one side only; the
# table reports the median step of all rounds.
MATMUL_ROUNDS = 3


def cpu_info():
    name, mhz = "unknown", 0.0
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key == "model name":
                name = value
            elif key == "cpu MHz":
                mhz = float(value)
    return name, mhz


def measured_peak(out, threads):
    """The f32 FMA peak of `threads` cores in GFLOP/s, measured by
    bench/peak.c (compiled for this CPU) rather than taken from a nominal
    clock, which turbo and power limits make meaningless."""
    exe = os.path.join(out, "bin", "peak")
    subprocess.run([os.environ.get("CC", "clang-22"), "-O2", "-march=native",
                    "-fopenmp", os.path.join(ROOT, "bench", "peak.c"), "-o",
                    exe], check=True)
    result = subprocess.run([exe, str(threads)], check=True, env=PINNED,
                            stdout=subprocess.PIPE, text=True)
    return float(result.stdout.split()[-1])


def run_peer(args, pinned, *workload):
    """Seconds per step and FLOPs of a peers.py workload, in its own
    process."""
    return programs.peer(workload + (args.threads,),
                         PINNED if pinned else None)


def torch_version():
    out = subprocess.run([sys.executable, "-c",
                          "import torch; print(torch.__version__)"],
                         check=True, stdout=subprocess.PIPE, text=True)
    return out.stdout.strip()


def build_nnc(args, model, mode, batch, sets=()):
    """Compiles a workload's bench program; returns its path."""
    tag = "%s-%s-%d%s" % (model, mode, batch, "".join("-" + s for s in sets))
    return programs.compile_model(args.build,
                                  os.path.join(args.out, "bin", tag), model,
                                  batch, sets)


def run_nnc(args, exe, mode, steps):
    """Seconds of every timed step of a bench program."""
    record = os.path.join(args.out, "runs", os.path.basename(exe) + ".json")
    return programs.nnc_record(exe, mode, steps, 1, record,
                               ["--threads=%d" % args.threads],
                               PINNED)["seconds_per_step"]


def row(name, flops, nnc, peer, peer_name, peak):
    nnc_s, peer_s = float(np.median(nnc)), float(np.median(peer))
    return {
        "workload": name, "flops_per_step": flops, "peer": peer_name,
        "nnc_seconds": nnc_s, "peer_seconds": peer_s,
        "ratio": peer_s / nnc_s,
        "nnc_gflops": flops / nnc_s / 1e9, "peer_gflops": flops / peer_s / 1e9,
        "nnc_fraction_of_peak": flops / nnc_s / peak if peak else None,
    }


def peak_cell(fraction):
    """nnc's share of the measured peak, or why it is not shown: a figure
    above the peak means the peak (or the step) was measured wrong."""
    if not fraction:
        return "-"
    if fraction > 1.0:
        return "measurement error (%.0f%% of peak)" % (100 * fraction)
    return "%.1f%%" % (100 * fraction)


def markdown(results):
    lines = [
        "| workload | nnc s/step | peer | peer s/step | peer/nnc | nnc GFLOP/s "
        "| peer GFLOP/s | nnc % of peak |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in results["rows"]:
        lines.append("| %s | %.4f | %s | %.4f | %.2fx | %.1f | %.1f | %s |" % (
            r["workload"], r["nnc_seconds"], r["peer"], r["peer_seconds"],
            r["ratio"], r["nnc_gflops"], r["peer_gflops"],
            peak_cell(r["nnc_fraction_of_peak"])))
    m = results["machine"]
    lines.append("")
    lines.append("%s, %d threads, f32 FMA peak %.0f GFLOP/s (measured by "
                 "bench/peak.c); PyTorch %s; %s." % (
                     m["cpu"], m["threads"], m["peak_gflops"], m["torch"],
                     m["date"]))
    return "\n".join(lines) + "\n"


def gpu_rows(path):
    """bench/gpu_run.py's fp32 rows by workload title: (nnc seconds, best
    peer seconds, FLOPs)."""
    with open(path) as f:
        rows = json.load(f)["rows"]
    out = {}
    for r in rows:
        if r.get("precision", "fp32") == "fp32":
            peer = min(s for s in (r["eager_seconds"], r.get("compile_seconds"))
                       if s)
            out[r["workload"]] = (r["nnc_seconds"], peer, r.get("flops"))
    return out


def plots(results, out, gpu=None):
    rows = results["rows"]
    names = [r["workload"] for r in rows]
    peer_names = " / ".join(sorted({r["peer"] for r in rows}))
    gpu = gpu or {}
    for key, label, fname, log in (
            ("seconds", "seconds per step (log)", "time.png", True),
            ("gflops", "GFLOP/s", "gflops.png", False)):
        series = [("nnc CPU", [r["nnc_" + key] for r in rows]),
                  ("CPU peer: " + peer_names,
                   [r["peer_" + key] for r in rows])]
        if gpu:
            for i, who in ((0, "nnc GPU"),
                           (1, "GPU peer: PyTorch eager / torch.compile")):
                values = []
                for r in rows:
                    g = gpu.get(r["workload"])
                    seconds = g[i] if g else float("nan")
                    values.append(seconds if key == "seconds" else
                                  r["flops_per_step"] / seconds / 1e9)
                series.append((who, values))
        if not charts.bars(os.path.join(out, fname), names, series, label,
                           log):
            print("compare.py: matplotlib is missing; no plots",
                  file=sys.stderr)
            return
    mm = [r for r in rows if r["workload"].startswith("matmul")]
    if mm:
        plt = charts.pyplot()
        sizes = [int(r["workload"].split()[1]) for r in mm]
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(sizes, [r["nnc_seconds"] for r in mm], "o-", label="nnc")
        ax.plot(sizes, [r["peer_seconds"] for r in mm], "s-",
                label=mm[0]["peer"])
        on_gpu = [(n, gpu[r["workload"]]) for n, r in zip(sizes, mm)
                  if r["workload"] in gpu]
        if on_gpu:
            ax.plot([n for n, _ in on_gpu], [g[0] for _, g in on_gpu], "^-",
                    label="nnc GPU")
            ax.plot([n for n, _ in on_gpu], [g[1] for _, g in on_gpu], "v--",
                    label="PyTorch GPU")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("n (n x n x n, f32)")
        ax.set_ylabel("time per product (s)")
        ax.legend()
        charts.save(plt, fig, os.path.join(out, "matmul.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--quick", action="store_true",
                        help="matrix sizes up to 1024 and the MLP only")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    parser.add_argument("--gpu", help="bench/gpu_run.py's results.json")
    parser.add_argument("--replot", action="store_true",
                        help="redraw DIR/results.json, running nothing")
    args = parser.parse_args()
    gpu = gpu_rows(args.gpu) if args.gpu else None
    if args.replot:
        with open(os.path.join(args.out, "results.json")) as f:
            plots(json.load(f), args.out, gpu)
        return
    for sub in ("bin", "runs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    name, mhz = cpu_info()
    peak = measured_peak(args.out, args.threads) * 1e9
    results = {"machine": {
        "cpu": name, "mhz": mhz, "threads": args.threads,
        "peak_gflops": peak / 1e9,
        "torch": torch_version(), "numpy": np.__version__,
        "python": platform.python_version(),
        "date": datetime.datetime.now().isoformat(timespec="seconds")},
        "rows": []}

    sizes = [s for s in SIZES if not args.quick or s <= 1024]
    for n in sizes:
        steps = max(3, min(100, int(5e10 / (2 * n ** 3))))
        exe = build_nnc(args, "matmul", "forward", 0, ["n=%d" % n])
        nnc, peer = [], []
        for _ in range(MATMUL_ROUNDS):
            nnc += run_nnc(args, exe, "forward", steps)
            peer += run_peer(args, False, "matmul", n, steps, "numpy")[0]
        results["rows"].append(row("matmul %d" % n, 2 * n ** 3, nnc, peer,
                                   "NumPy BLAS", peak))
        print(markdown(results).splitlines()[-3], flush=True)

    for model, mode, batch, nnc_steps, peer_steps, rounds in MODELS:
        if args.quick and model != "cifar_mlp":
            continue
        exe = build_nnc(args, model, mode, batch)
        nnc, peer = [], []
        for _ in range(rounds):
            nnc += run_nnc(args, exe, mode, nnc_steps)
            seconds, fwd = run_peer(args, True, "model", model, mode, batch,
                                    peer_steps)
            peer += seconds
        flops = fwd if mode == "forward" else 3 * fwd
        results["rows"].append(row("%s %s b%d" % (model, mode, batch), flops,
                                   nnc, peer, "PyTorch", peak))
        print(markdown(results).splitlines()[-3], flush=True)

    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(markdown(results))
    plots(results, args.out, gpu)
    print(markdown(results))


if __name__ == "__main__":
    main()
