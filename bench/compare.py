"""nnc against its strongest CPU peers, side by side on this machine, in
one run.

    python bench/compare.py [--build BUILD] [--threads N] [--quick]
        [--only ROWS] [--skip ROWS] [--peers PEERS] [--steps N]
        [--rounds N] [--batch N] [--peak GFLOPS] [--out DIR]
        [--gpu FILE] [--replot]

Rows (--only/--skip, comma-separated): matmul (n = 256 ... 4096), the
training steps of cifar_mlp and cifar10_cnn, AlexNet (models/alexnet.nn)
forward and forward-backward at batch 128, and the tf_cnn_benchmarks
nets' training steps (resnet50, vgg16, inception3, tf_cnn_alexnet, or
tf_cnn for all four; bench/tf_cnn.py runs them, batch 32). --quick: the
products up to 1024 and cifar_mlp only.

Peers (--peers): numpy (NumPy's BLAS, products only), torch (PyTorch
eager, NCHW), torch-cl (channels_last, not for products), torch-compile
(torch.compile, not for products), tf (a tf.function) and tf-xla (the same
with jit_compile=True). bench/peers.py and bench/tf_peers.py run them,
each in a process of its own with the same thread count, the OpenMP ones
(PyTorch) pinned as nnc is; a peer that fails is reported as failed and
the best of the others is used.

For every row it compiles nnc's bench program (the main table's last
column: the wall time of `nnc MODEL.nn -o prog`) and runs it and every
peer, alternating them over a few rounds on the short workloads, and writes
DIR/results.json (every peer's step times), DIR/results.md (the tables it
prints) and, with matplotlib, DIR/time.png, DIR/gflops.png and
DIR/matmul.png. --gpu FILE merges bench/gpu_run.py's results.json (its
fp32 rows, by workload title) into the charts; --replot redraws DIR's
charts from DIR/results.json, running nothing.
"""

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import subprocess
import sys
import time

import compare_report as report
import programs
import tf_cnn

# OpenMP programs (nnc's and PyTorch) run one thread per core, pinned:
# unpinned, two busy threads can share a core for a whole run.
PINNED = dict(os.environ, OMP_PROC_BIND="spread", OMP_PLACES="cores")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")

# (model, mode, batch, nnc steps, peer steps, rounds)
# AlexNet's rows alternate too: on a machine shared with other work, a
# single round of two steps once read 0.91 s for a forward pass whose
# runs on their own averaged 0.67 to 0.73 s in four of five.
MODELS = [
    ("cifar_mlp", "train", 32, 20, 20, 3),
    ("cifar10_cnn", "train", 128, 5, 5, 3),
    ("alexnet", "forward", 128, 3, 5, 2),
    ("alexnet", "forward-backward", 128, 2, 3, 2),
]
SIZES = [256, 512, 1024, 2048, 4096]
# Short workloads alternate nnc and its peers a few times, so that a burst
# of activity elsewhere on the machine does not land on one side only; the
# table reports the median step of all rounds.
MATMUL_ROUNDS = 5
# A product row's steps per round: about MATMUL_FLOPS of work, at least 3.
# At most 100 steps, the product of 256 was timed over 12 ms a round, and
# its ratio moved from 0.9x to 1.1x between runs of the same build.
MATMUL_FLOPS, MATMUL_MAX_STEPS = 1.5e11, 2000
# The tf_cnn_benchmarks rows: row name, bench/tf_cnn.py's model.
TF_CNN = {"resnet50": "resnet50", "vgg16": "vgg16",
          "inception3": "inception3", "tf_cnn_alexnet": "alexnet"}
TF_CNN_BATCH, TF_CNN_STEPS, TF_CNN_WARMUP = 32, 5, 1
ROWS = ("matmul", "cifar_mlp", "cifar10_cnn", "alexnet") + tuple(TF_CNN)
MATMUL_PEERS = ("numpy", "torch", "tf", "tf-xla")
MODEL_PEERS = ("torch", "torch-cl", "torch-compile", "tf", "tf-xla")
# A peer process that runs longer than this is stopped and reported failed.
PEER_TIMEOUT = 3600


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
                    "-fopenmp", os.path.join(BENCH, "peak.c"), "-o",
                    exe], check=True)
    result = subprocess.run([exe, str(threads)], check=True, env=PINNED,
                            stdout=subprocess.PIPE, text=True)
    return float(result.stdout.split()[-1])


def versions():
    """The peers' libraries, as installed for this interpreter."""
    found = {}
    for label, dists in (("TensorFlow", ("tensorflow-cpu", "tensorflow")),
                         ("PyTorch", ("torch",)), ("NumPy", ("numpy",))):
        found[label] = "missing"
        for dist in dists:
            try:
                found[label] = importlib.metadata.version(dist)
                break
            except importlib.metadata.PackageNotFoundError:
                pass
    return found


def peer_env(args, peer):
    """Every peer gets the thread count; all but NumPy's BLAS (its own
    threads) are pinned as nnc is."""
    counts = {v: str(args.threads) for v in (
        "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    base = os.environ if peer == "numpy" else PINNED
    return dict(base, TF_CPP_MIN_LOG_LEVEL="2", **counts)


def peer_command(args, peer, workload):
    """bench/peers.py's or bench/tf_peers.py's arguments for `workload`
    (("matmul", n, steps) or ("model", name, mode, batch, steps))."""
    if peer.startswith("tf"):
        return [os.path.join(BENCH, "tf_peers.py")] + list(workload) + [
            args.threads] + (["--xla"] if peer == "tf-xla" else [])
    script = os.path.join(BENCH, "peers.py")
    if workload[0] == "matmul":
        return [script] + list(workload) + [
            "numpy" if peer == "numpy" else "torch", args.threads]
    return [script] + list(workload) + [args.threads] + {
        "torch": [], "torch-cl": ["--channels-last"],
        "torch-compile": ["--compile"]}[peer]


def run_peer(args, peer, workload):
    return programs.peer_json(peer_command(args, peer, workload),
                              peer_env(args, peer), PEER_TIMEOUT)


def build_nnc(args, model, mode, batch, sets=()):
    """Compiles a workload's bench program; returns its path."""
    tag = "%s-%s-%d%s" % (model, mode, batch, "".join("-" + s for s in sets))
    return programs.compile_model(args.build,
                                  os.path.join(args.out, "bin", tag), model,
                                  batch, sets)


def run_nnc(args, exe, mode, steps):
    """The record of `steps` timed steps of a bench program."""
    record = os.path.join(args.out, "runs", os.path.basename(exe) + ".json")
    return programs.nnc_record(exe, mode, steps, 1, record,
                               ["--threads=%d" % args.threads], PINNED)


def measure(args, title, build, mode, nnc_steps, workload, peers, rounds):
    """A row: nnc (`build()` compiles its program) and every peer (running
    `workload`), alternating over `rounds` rounds. A step's FLOPs are the
    forward pass's as the peers count them, 3x that when it trains or
    takes gradients; nnc's own count when no peer ran."""
    nnc, times, forward, flops = [], {p: [] for p in peers}, None, None
    compiled = None
    try:
        start = time.monotonic()
        exe = build()
        compiled = time.monotonic() - start
    except subprocess.CalledProcessError as e:
        nnc = {"error": "nnc failed: exit %d" % e.returncode}
    for _ in range(rounds):
        if isinstance(nnc, list):
            try:
                record = run_nnc(args, exe, mode, nnc_steps)
                nnc += record["seconds_per_step"]
                flops = record.get("flops_per_step")
            except subprocess.CalledProcessError as e:
                nnc = {"error": "bench program: exit %d" % e.returncode}
        for p in peers:
            if isinstance(times[p], dict):
                continue
            result = run_peer(args, p, workload)
            if "error" in result:
                times[p] = result
            else:
                times[p] += result["seconds"]
                forward = result["flops"]
    if forward:
        flops = forward if mode == "forward" else 3 * forward
    return report.row(title, flops, nnc, times, args.peak,
                      {"nnc_compile_seconds": compiled})


def tf_cnn_row(args, key):
    """A tf_cnn_benchmarks net's training step through bench/tf_cnn.py:
    seconds per step = batch / images per second."""
    model, batch = TF_CNN[key], args.batch or TF_CNN_BATCH
    ns = argparse.Namespace(
        out=os.path.join(args.out, "tf_cnn"), batch=batch,
        steps=args.steps or TF_CNN_STEPS, warmup=TF_CNN_WARMUP,
        threads=args.threads, cores="0-%d" % (args.threads - 1),
        nnc=os.path.join(args.build, "bin", "nnc"), nn={},
        python=sys.executable, peak_memory=False)
    for sub in ("bin", "logs"):
        os.makedirs(os.path.join(ns.out, sub), exist_ok=True)
    env = tf_cnn.environment(args.threads)

    def seconds(entry):
        """A peer's timed steps; nnc's whole timed loop as one step."""
        if entry.get("images_per_sec"):
            return entry.get("step_seconds", [batch / entry["images_per_sec"]])
        return {"error": entry.get("note", "no images/sec")}

    nnc = tf_cnn.run_nnc(ns, model, env)
    peers = {p: tf_cnn.run_peer(ns, model, p, env) for p in args.peers
             if p in tf_cnn.FRAMEWORKS}
    forward = programs.peer_json([os.path.join(BENCH, "peers.py"),
                                  "tf_cnn_flops", model, batch])
    extra = {"images_per_second": dict(
        [("nnc", nnc.get("images_per_sec"))] +
        [(p, e.get("images_per_sec")) for p, e in peers.items()]),
        "nnc_compile_seconds": nnc.get("compile_seconds")}
    return report.row("%s train b%d (tf_cnn)" % (key, batch),
                      3 * forward["flops"] if "flops" in forward else None,
                      seconds(nnc), {p: seconds(e) for p, e in peers.items()},
                      args.peak, extra)


def rows(args):
    """Each row as it is measured."""
    if "matmul" in args.rows:
        for n in [s for s in SIZES if not args.quick or s <= 1024]:
            steps = args.steps or max(
                3, min(MATMUL_MAX_STEPS, int(MATMUL_FLOPS / (2 * n ** 3))))
            yield measure(
                args, "matmul %d" % n,
                lambda: build_nnc(args, "matmul", "forward", 0,
                                  ["n=%d" % n]),
                "forward", steps, ("matmul", n, steps),
                [p for p in MATMUL_PEERS if p in args.peers],
                args.rounds or MATMUL_ROUNDS)
    for model, mode, batch, nnc_steps, peer_steps, rounds in MODELS:
        if model not in args.rows:
            continue
        batch = args.batch or batch
        yield measure(
            args, "%s %s b%d" % (model, mode, batch),
            lambda: build_nnc(args, model, mode, batch), mode,
            args.steps or nnc_steps,
            ("model", model, mode, batch, args.steps or peer_steps),
            [p for p in MODEL_PEERS if p in args.peers],
            args.rounds or rounds)
    for key in TF_CNN:
        if key in args.rows:
            yield tf_cnn_row(args, key)


def names(value, known, aliases=None):
    """A comma-separated list of `known` names (aliases expanded)."""
    out = []
    for name in [v for v in value.split(",") if v]:
        expanded = (aliases or {}).get(name, [name])
        for n in expanded:
            if n not in known:
                raise argparse.ArgumentTypeError(
                    "unknown %r (%s)" % (name, ", ".join(known)))
        out += expanded
    return out


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--quick", action="store_true",
                        help="matrix sizes up to 1024 and the MLP only")
    parser.add_argument("--only", default=",".join(ROWS),
                        help="rows to run: " + ",".join(ROWS) + ", tf_cnn")
    parser.add_argument("--skip", default="", help="rows not to run")
    parser.add_argument("--peers", default=",".join(report.ORDER),
                        help="peers to run: " + ",".join(report.ORDER))
    parser.add_argument("--steps", type=int,
                        help="timed steps of every workload")
    parser.add_argument("--rounds", type=int,
                        help="rounds of every workload")
    parser.add_argument("--batch", type=int,
                        help="batch of every model (default: 32 for "
                        "cifar_mlp and the tf_cnn nets, else 128)")
    parser.add_argument("--peak", type=float,
                        help="the peak in GFLOP/s instead of measuring it")
    parser.add_argument("--out", default=os.path.join(BENCH, "results"))
    parser.add_argument("--gpu", help="bench/gpu_run.py's results.json")
    parser.add_argument("--replot", action="store_true",
                        help="redraw DIR/results.json, running nothing")
    args = parser.parse_args()
    aliases = {"tf_cnn": list(TF_CNN)}
    try:
        skip = names(args.skip, ROWS, aliases)
        args.rows = [r for r in names(args.only, ROWS, aliases)
                     if r not in skip and (not args.quick or r in (
                         "matmul", "cifar_mlp"))]
        args.peers = names(args.peers, report.ORDER)
    except argparse.ArgumentTypeError as e:
        parser.error(str(e))
    return args


def main():
    args = parse_args()
    gpu = report.gpu_rows(args.gpu) if args.gpu else None
    if args.replot:
        with open(os.path.join(args.out, "results.json")) as f:
            report.plots(json.load(f), args.out, gpu)
        return
    for sub in ("bin", "runs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    name, mhz = cpu_info()
    source = "given by --peak" if args.peak else "measured by bench/peak.c"
    args.peak = (args.peak or measured_peak(args.out, args.threads)) * 1e9
    results = {"machine": {
        "cpu": name, "mhz": mhz, "threads": args.threads,
        "peak_gflops": args.peak / 1e9, "peak_source": source,
        "versions": versions(),
        "python": platform.python_version(),
        "date": datetime.datetime.now().isoformat(timespec="seconds")},
        "rows": []}
    for r in rows(args):
        results["rows"].append(r)
        print(report.best_line(r), flush=True)
    text = report.markdown(results)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(text)
    report.plots(results, args.out, gpu)
    print(text)


if __name__ == "__main__":
    main()
