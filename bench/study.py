"""The CPU-vs-GPU study in one short run: every seed workload on the CPU
(and on the GPU when one is visible), each against its best peer.

    python3 bench/study.py [--build BUILD] [--out DIR] [--threads N]
                           [--rounds R] [--full] [--gpu FILE]
    python3 bench/study.py --replot [--out DIR] [--gpu FILE]

Workloads: the matrix-product sweep (models/matmul.nn), cifar_mlp and
cifar10_cnn training steps, and AlexNet forward and forward-backward. The
peers are PyTorch eager and, for the matrix product, NumPy's BLAS too; a
workload's "best peer" is the fastest of them. Each workload runs --rounds
times, nnc and its peers alternating; the table gives each side's median
step and the error bars the spread of the rounds' medians. The default run
takes minutes (small matrix sizes, AlexNet at batch 16, few steps);
--full runs the study's sizes (matrices up to 4096, AlexNet at batch 128),
whose titles match bench/gpu_run.py's.

The GPU columns come from a visible GPU (the nnc build with CUDA, the
models compiled with --target=cuda, PyTorch on cuda), or from --gpu FILE:
the results.json bench/gpu_run.py writes on a GPU machine, merged by
workload title (its fp32 rows; the best of PyTorch eager and
torch.compile). --replot redraws DIR's table and charts from DIR/study.json
with --gpu's rows merged, running nothing.

Writes DIR/study.json, DIR/study.md (the table) and, with matplotlib,
DIR/matmul.png (the sweep: time and GFLOP/s against size, log axes, the
CPU's measured peak) and DIR/models.png (seconds per step, CPU and GPU,
nnc beside each side's best peer, with the ratios). Programs go to
DIR/bin, their records to DIR/runs.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys

import numpy as np

import charts
import programs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PINNED = dict(os.environ, OMP_PROC_BIND="spread", OMP_PLACES="cores")

# (model, mode, batch, batch with --full, steps, steps with --full)
MODELS = [
    ("cifar_mlp", "train", 32, 32, 5, 20),
    ("cifar10_cnn", "train", 32, 128, 2, 5),
    ("alexnet", "forward", 16, 128, 2, 5),
    ("alexnet", "forward-backward", 16, 128, 2, 3),
]
SIZES, FULL_SIZES = [128, 256, 512], [256, 512, 1024, 2048, 4096]
PEER_NAMES = {"numpy": "NumPy BLAS", "torch": "PyTorch eager"}


def lscpu_model():
    """The CPU's model name as lscpu says it (else /proc/cpuinfo's)."""
    try:
        out = subprocess.run(["lscpu"], check=True, stdout=subprocess.PIPE,
                             text=True).stdout
        for line in out.splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "Model name":
                return value.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    return "unknown"


def measured_peak(out, threads):
    """The f32 FMA peak of `threads` cores in GFLOP/s (bench/peak.c), or
    None when it cannot be compiled here."""
    exe = os.path.join(out, "bin", "peak")
    cc = os.environ.get("CC", "clang-22")
    try:
        subprocess.run([cc, "-O2", "-march=native", "-fopenmp",
                        os.path.join(ROOT, "bench", "peak.c"), "-o", exe],
                       check=True)
        out = subprocess.run([exe, str(threads)], check=True, env=PINNED,
                             stdout=subprocess.PIPE, text=True).stdout
        return float(out.split()[-1])
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None


def gpu_visible(build):
    """Whether a CUDA device and an nnc build with CUDA are both here."""
    if not os.path.exists(os.path.join(build, "lib", "libnnrt_cuda.a")):
        return False
    try:
        return subprocess.run(
            [sys.executable, "-c",
             "import torch, sys; sys.exit(not torch.cuda.is_available())"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode \
            == 0
    except OSError:
        return False


def compile_nnc(args, target, model, batch, sets=()):
    tag = "%s-b%d-%s%s" % (model, batch, target,
                           "".join("-" + s.replace("=", "") for s in sets))
    return programs.compile_model(args.build,
                                  os.path.join(args.out, "bin", tag), model,
                                  batch, sets, ["--target=" + target])


def nnc_round(args, exe, mode, steps, gpu):
    """(median seconds of one round, FLOPs per step from the record)."""
    record = os.path.join(args.out, "runs", os.path.basename(exe) + ".json")
    flags = [] if gpu else ["--threads=%d" % args.threads]
    data = programs.nnc_record(exe, mode, steps, 1, record, flags,
                               None if gpu else PINNED)
    return float(np.median(data["seconds_per_step"])), \
        data.get("flops_per_step")


def peer_round(args, workload, gpu):
    """PyTorch runs pinned on the CPU as nnc does; NumPy's BLAS keeps its
    own threading (as in compare.py)."""
    options = ["--device=cuda"] if gpu else []
    pinned = not gpu and workload[-1] != "numpy"
    seconds, flops = programs.peer(
        list(workload) + [args.threads] + options, PINNED if pinned else None)
    return float(np.median(seconds)), flops


def side(rounds):
    """{"seconds": median of the rounds' medians, "spread": their half
    range, "rounds": [...]}."""
    return {"seconds": float(np.median(rounds)),
            "spread": float((max(rounds) - min(rounds)) / 2),
            "rounds": rounds}


def measure(args, title, compile_args, mode, steps, peers, gpu):
    """One workload on one device: nnc and its peers, --rounds rounds
    alternating. Returns the device's entry of the row."""
    exe = compile_nnc(args, "cuda" if gpu else "cpu", *compile_args)
    nnc, peer_rounds, flops = [], {name: [] for name, _ in peers}, None
    for _ in range(args.rounds):
        seconds, flops = nnc_round(args, exe, mode, steps, gpu)
        nnc.append(seconds)
        for name, workload in peers:
            seconds, peer_flops = peer_round(args, workload, gpu)
            peer_rounds[name].append(seconds)
            flops = flops or peer_flops
    peer_sides = {PEER_NAMES[n]: side(r) for n, r in peer_rounds.items()}
    best = min(peer_sides, key=lambda n: peer_sides[n]["seconds"])
    print("%s on the %s: nnc %.3g ms, %s %.3g ms" % (
        title, "GPU" if gpu else "CPU", side(nnc)["seconds"] * 1e3, best,
        peer_sides[best]["seconds"] * 1e3), flush=True)
    return {"nnc": side(nnc), "peers": peer_sides, "best_peer": best,
            "flops": flops}


def workloads(args):
    """(title, kind, nnc compile args, mode, steps, peers by name)."""
    out = []
    for n in FULL_SIZES if args.full else SIZES:
        steps = max(3, min(50, int(2e9 / (2 * n ** 3))))
        peers = [(lib, ["matmul", n, steps, lib]) for lib in ("numpy", "torch")]
        out.append(("matmul %d" % n, "matmul", ("matmul", 0, ["n=%d" % n]),
                    "forward", steps, peers))
    for model, mode, batch, full_batch, steps, full_steps in MODELS:
        b, s = (full_batch, full_steps) if args.full else (batch, steps)
        out.append(("%s %s b%d" % (model, mode, b), "model", (model, b),
                    mode, s, [("torch", ["model", model, mode, b, s])]))
    return out


def merge_gpu(study, path):
    """Fills the GPU side of each row from bench/gpu_run.py's results.json
    (fp32 rows; the best of PyTorch eager and torch.compile)."""
    with open(path) as f:
        gpu = json.load(f)
    by_title = {r["workload"]: r for r in gpu["rows"]
                if r.get("precision", "fp32") == "fp32"}
    for row in study["rows"]:
        r = by_title.get(row["workload"])
        if not r:
            continue
        peers = {"PyTorch eager": r["eager_seconds"]}
        if r.get("compile_seconds"):
            peers["torch.compile"] = r["compile_seconds"]
        best = min(peers, key=peers.get)
        row["gpu"] = {"nnc": {"seconds": r["nnc_seconds"], "spread": 0},
                      "peers": {n: {"seconds": s, "spread": 0}
                                for n, s in peers.items()},
                      "best_peer": best, "flops": r.get("flops"),
                      "from": os.path.basename(path)}
    device = gpu.get("device") or {}
    study["machine"]["gpu"] = device.get("name", "GPU of " + path)


def speed(row, key, who):
    """Seconds of `who` ("nnc" or the best peer) on side `key`, or None."""
    s = row.get(key)
    if not s:
        return None
    return (s["nnc"] if who == "nnc" else s["peers"][s["best_peer"]])[
        "seconds"]


def markdown(study):
    m = study["machine"]
    lines = [
        "| workload | CPU nnc ms | CPU best peer ms | peer/nnc | GPU nnc ms "
        "| GPU best peer ms | peer/nnc | speed-up nnc | speed-up best peer |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in study["rows"]:
        cells = [r["workload"]]
        for key in ("cpu", "gpu"):
            nnc, peer = speed(r, key, "nnc"), speed(r, key, "peer")
            if nnc is None:
                cells += ["not measured" if m.get("gpu") else "needs a GPU",
                          "-", "-"]
                continue
            cells += ["%.3g" % (nnc * 1e3),
                      "%.3g (%s)" % (peer * 1e3, r[key]["best_peer"]),
                      "%.2fx" % (peer / nnc)]
        for who in ("nnc", "peer"):
            cpu, gpu = speed(r, "cpu", who), speed(r, "gpu", who)
            cells.append("%.1fx" % (cpu / gpu) if gpu else "-")
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    peak = ("CPU f32 FMA peak %.0f GFLOP/s (bench/peak.c)" % m["peak_gflops"]
            if m.get("peak_gflops") else "CPU peak not measured")
    lines.append("%s, %d threads; GPU: %s; %s; PyTorch %s; %s. Times are "
                 "medians of %d rounds, milliseconds per step; speed-up is CPU "
                 "time / GPU time." % (
                     m["cpu"], m["threads"], m.get("gpu") or "none visible "
                     "(the GPU columns need a GPU, or --gpu FILE from "
                     "bench/gpu_run.py)", peak, m["torch"], m["date"],
                     m["rounds"]))
    return "\n".join(lines) + "\n"


def subtitle(study):
    m = study["machine"]
    return "%s, %d threads%s, %s" % (
        m["cpu"], m["threads"], "; " + m["gpu"] if m.get("gpu") else "",
        m["date"][:10])


def plot_matmul(plt, study, path):
    rows = [r for r in study["rows"] if r["workload"].startswith("matmul")]
    if not rows:
        return
    sizes = [int(r["workload"].split()[1]) for r in rows]
    fig, (ax_t, ax_g) = plt.subplots(1, 2, figsize=(12, 4.8))
    styles = {"cpu": ("o-", "s--"), "gpu": ("^-", "v--")}
    for key, device in (("cpu", "CPU"), ("gpu", "GPU")):
        have = [r for r in rows if r.get(key)]
        if not have:
            continue
        n = [int(r["workload"].split()[1]) for r in have]
        peers = sorted({p for r in have for p in r[key]["peers"]})
        series = [("nnc " + device, [r[key]["nnc"] for r in have],
                   styles[key][0])]
        for p in peers:
            series.append(("%s %s" % (p, device),
                           [r[key]["peers"][p] for r in have], styles[key][1]))
        for label, sides, style in series:
            t = [s["seconds"] for s in sides]
            e = [s["spread"] for s in sides]
            ax_t.errorbar(n, t, yerr=e, fmt=style, capsize=3, label=label)
            g = [2 * k ** 3 / s / 1e9 for k, s in zip(n, t)]
            ax_g.plot(n, g, style, label=label)
    peak = study["machine"].get("peak_gflops")
    if peak:
        ax_g.axhline(peak, color="k", linestyle=":",
                     label="CPU f32 FMA peak measured by peak.c: %.0f GFLOP/s"
                     % peak)
    for ax in (ax_t, ax_g):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.set_xlabel("n (n x n times n x n, f32)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    ax_t.set_ylabel("seconds per product (median of rounds)")
    ax_t.set_title("Matrix product: time")
    ax_g.set_ylabel("GFLOP/s (2n^3 / time)")
    ax_g.set_title("Matrix product: throughput")
    fig.suptitle("nnc vs its best peers, " + subtitle(study), fontsize=10)
    charts.save(plt, fig, path)


def plot_models(plt, study, path):
    rows = [r for r in study["rows"] if not r["workload"].startswith("matmul")]
    if not rows:
        return
    gpu = any(r.get("gpu") for r in rows)
    keys = [("cpu", "CPU")] + ([("gpu", "GPU")] if gpu else [])
    width = 0.8 / (2 * len(keys))
    x = np.arange(len(rows))
    fig, ax = plt.subplots(figsize=(11, 5))
    colors = {("cpu", "nnc"): "tab:blue", ("cpu", "peer"): "tab:orange",
              ("gpu", "nnc"): "tab:green", ("gpu", "peer"): "tab:red"}
    i = 0
    for key, device in keys:
        peers = sorted({r[key]["best_peer"] for r in rows if r.get(key)})
        for who in ("nnc", "peer"):
            sides = [(r[key]["nnc"] if who == "nnc"
                      else r[key]["peers"][r[key]["best_peer"]])
                     if r.get(key) else None for r in rows]
            t = [s["seconds"] if s else 0 for s in sides]
            e = [s["spread"] if s else 0 for s in sides]
            label = ("nnc " + device if who == "nnc" else
                     "best peer %s (%s)" % (device, ", ".join(peers)))
            pos = x + (i - (2 * len(keys) - 1) / 2) * width
            bars = ax.bar(pos, t, width, yerr=e, capsize=3, label=label,
                          color=colors[(key, who)])
            if who == "nnc":
                for b, r in zip(bars, rows):
                    nnc, peer = speed(r, key, "nnc"), speed(r, key, "peer")
                    if nnc:
                        ax.annotate("%.2fx" % (peer / nnc),
                                    (b.get_x() + b.get_width() / 2,
                                     b.get_height()),
                                    ha="center", va="bottom", fontsize=7,
                                    xytext=(0, 2),
                                    textcoords="offset points")
            i += 1
    ax.set_yscale("log")
    ax.set_xticks(x, [r["workload"] for r in rows], rotation=15, ha="right",
                  fontsize=8)
    ax.set_ylabel("seconds per step (median of rounds, log)")
    ax.set_title("Models: nnc and each side's best peer; labels: peer time / "
                 "nnc time (above 1, nnc is faster)\n" + subtitle(study) +
                 ("" if gpu else "; no GPU: the GPU bars need a GPU (or "
                  "--gpu FILE from bench/gpu_run.py)"), fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    charts.save(plt, fig, path)


def write(study, out):
    with open(os.path.join(out, "study.json"), "w") as f:
        json.dump(study, f, indent=2)
    table = markdown(study)
    with open(os.path.join(out, "study.md"), "w") as f:
        f.write(table)
    plt = charts.pyplot()
    if plt is None:
        print("study.py: matplotlib is missing; no plots", file=sys.stderr)
    else:
        plot_matmul(plt, study, os.path.join(out, "matmul.png"))
        plot_models(plt, study, os.path.join(out, "models.png"))
    print(table)


def torch_version():
    out = subprocess.run([sys.executable, "-c",
                          "import torch; print(torch.__version__)"],
                         stdout=subprocess.PIPE, text=True)
    return out.stdout.strip() or "missing"


def run(args):
    for sub in ("bin", "runs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    gpu = gpu_visible(args.build)
    study = {"machine": {
        "cpu": lscpu_model(), "threads": args.threads,
        "peak_gflops": measured_peak(args.out, args.threads),
        "torch": torch_version(), "numpy": np.__version__,
        "gpu": None, "rounds": args.rounds, "full": args.full,
        "date": datetime.datetime.now().isoformat(timespec="seconds")},
        "rows": []}
    if gpu:
        study["machine"]["gpu"] = subprocess.run(
            [sys.executable, "-c", "import torch; "
             "print(torch.cuda.get_device_name())"],
            stdout=subprocess.PIPE, text=True).stdout.strip()
    else:
        print("study.py: no GPU visible; the GPU columns need a GPU (or "
              "--gpu FILE from bench/gpu_run.py)", flush=True)
    for title, _, compile_args, mode, steps, peers in workloads(args):
        row = {"workload": title, "mode": mode, "steps": steps}
        row["cpu"] = measure(args, title, compile_args, mode, steps, peers,
                             False)
        if gpu:
            row["gpu"] = measure(args, title, compile_args, mode, steps,
                                 [p for p in peers if p[0] == "torch"], True)
        study["rows"].append(row)
    return study


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--out", default=os.path.join(ROOT, "results"))
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--full", action="store_true",
                        help="the study's sizes (long)")
    parser.add_argument("--gpu", help="bench/gpu_run.py's results.json")
    parser.add_argument("--replot", action="store_true",
                        help="redraw DIR/study.json, running nothing")
    args = parser.parse_args()
    if args.replot:
        if not os.path.exists(os.path.join(args.out, "study.json")):
            parser.error("--replot: no study.json in %s (run the study "
                         "first)" % args.out)
        with open(os.path.join(args.out, "study.json")) as f:
            study = json.load(f)
    else:
        study = run(args)
    if args.gpu:
        merge_gpu(study, args.gpu)
    write(study, args.out)


if __name__ == "__main__":
    main()
