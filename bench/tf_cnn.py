"""nnc against its tf_cnn_benchmarks peers: training images/sec of
ResNet-50, VGG16, Inception-v3 and AlexNet on the CPU.

    python3 bench/tf_cnn.py [--models=resnet50,...] [--frameworks=tf,...]
        [--batch=32] [--steps=10] [--warmup=2] [--threads=2] [--cores=0-1]
        [--build=BUILD] [--nn=MODEL=FILE ...] [--peak-memory] [--out=DIR]

For every model it compiles nnc's program (`nnc FILE --batch=B -o PROG`,
timed) and runs it (`PROG --mode=tf-cnn`, reading its `total images/sec:`
line), then runs each peer of bench/tf_cnn_peers.py; every program runs in
a process of its own, pinned to the same cores with the same thread count.
A model whose .nn file does not exist is measured for its peers only.
Prints a Markdown table (nnc's images/sec and compile time, every peer's
images/sec, the best peer and nnc's images/sec over the best peer's, above
1 when nnc is faster) and writes DIR/results.json and DIR/results.md; each
run's output is kept in DIR/logs. --peak-memory adds a table of each
process's peak resident set (for ResNet-50 at batch 64: --models=resnet50
--batch=64 --steps=1 --warmup=1 --peak-memory).

Needs only the standard library; the peers run with --python (default:
this interpreter; bench/tf_cnn.sh passes bench/.venv's).
"""

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEERS = os.path.join(ROOT, "bench", "tf_cnn_peers.py")
MODELS = ("resnet50", "vgg16", "inception3", "alexnet")
FRAMEWORKS = ("tf", "tf-xla", "torch", "torch-cl", "torch-compile")
# models/*.nn files tried for each model, first existing wins (models/
# alexnet.nn is another AlexNet: 224x224, LRN, no dense layers).
NN_FILES = {
    "resnet50": ("resnet50.nn",),
    "vgg16": ("vgg16.nn",),
    "inception3": ("inception3.nn", "inception_v3.nn"),
    "alexnet": ("alexnet_tf_cnn.nn", "tf_cnn_alexnet.nn"),
}
IMAGES_PER_SEC = re.compile(r"total images/sec:\s*([0-9.eE+-]+)")


def environment(threads):
    """OpenMP programs (nnc's, PyTorch) run one pinned thread per core;
    TensorFlow's start-up chatter is kept out of the logs."""
    return dict(os.environ, OMP_NUM_THREADS=str(threads),
                OMP_PROC_BIND="spread", OMP_PLACES="cores",
                TF_CPP_MIN_LOG_LEVEL="2")


def pinned(args, cmd):
    if args.cores and shutil.which("taskset"):
        return ["taskset", "-c", args.cores] + cmd
    return cmd


def measured(cmd, log, env):
    """Runs `cmd` with its output in `log`.out/.err; returns (exit status,
    wall seconds, peak resident bytes, stdout)."""
    with open(log + ".out", "w") as out, open(log + ".err", "w") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    with open(log + ".out") as f:
        return proc.returncode, seconds, usage.ru_maxrss * 1024, f.read()


def failure(log, status):
    """The last line of a failed run's stderr, for the table's notes."""
    with open(log + ".err") as f:
        lines = [line.strip() for line in f if line.strip()]
    return "exit %d: %s" % (status, lines[-1] if lines else "no message")


def nn_file(args, model):
    if model in args.nn:
        return args.nn[model]
    for name in NN_FILES[model]:
        path = os.path.join(ROOT, "models", name)
        if os.path.exists(path):
            return path
    return None


def run_nnc(args, model, env):
    """nnc's row entries: images/sec, compile seconds, peak bytes, or a
    note saying why there are none."""
    source = nn_file(args, model)
    if source is None or not os.path.exists(source):
        return {"note": "no .nn file (%s)" % ", ".join(NN_FILES[model])}
    exe = os.path.join(args.out, "bin", "%s-b%d" % (model, args.batch))
    log = os.path.join(args.out, "logs", "%s-nnc" % model)
    status, seconds, _, _ = measured(
        [args.nnc, source, "--batch=%d" % args.batch, "-o", exe],
        log + "-compile", env)
    if status != 0:
        return {"source": source, "note": "nnc: " +
                failure(log + "-compile", status)}
    result = {"source": source, "compile_seconds": seconds}
    status, _, peak, out = measured(pinned(args, [
        exe, "--mode=tf-cnn", "--steps=%d" % args.steps,
        "--warmup=%d" % args.warmup, "--threads=%d" % args.threads]),
        log, env)
    found = IMAGES_PER_SEC.findall(out)
    if status != 0 or not found:
        result["note"] = "program: " + (failure(log, status) if status
                                        else "no 'total images/sec:' line")
        return result
    result.update(images_per_sec=float(found[-1]), peak_rss_bytes=peak)
    return result


def run_peer(args, model, framework, env):
    log = os.path.join(args.out, "logs", "%s-%s" % (model, framework))
    cmd = [args.python, PEERS, "--model=" + model,
           "--framework=" + framework, "--batch=%d" % args.batch,
           "--steps=%d" % args.steps, "--warmup=%d" % args.warmup,
           "--threads=%d" % args.threads]
    if args.peak_memory:
        cmd.append("--peak-memory")
    status, _, peak, out = measured(pinned(args, cmd), log, env)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if status != 0 or not lines:
        return {"note": failure(log, status)}
    result = json.loads(lines[-1])
    result.setdefault("peak_rss_bytes", peak)
    return result


def cell(value, fmt="%.2f"):
    return fmt % value if value is not None else "-"


def speed_table(args, rows):
    head = ["model", "nnc img/s", "nnc compile s"] + list(args.frameworks) + [
        "best peer", "nnc / best"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in rows:
        nnc = row["nnc"].get("images_per_sec")
        peers = {f: row["peers"][f].get("images_per_sec")
                 for f in args.frameworks}
        measured_peers = {f: v for f, v in peers.items() if v}
        best = max(measured_peers, key=measured_peers.get) \
            if measured_peers else None
        ratio = nnc / peers[best] if nnc and best else None
        lines.append("| " + " | ".join(
            [row["model"], cell(nnc),
             cell(row["nnc"].get("compile_seconds"), "%.1f")] +
            [cell(peers[f]) for f in args.frameworks] +
            [best or "-", cell(ratio, "%.2fx")]) + " |")
    return lines


def memory_table(args, rows):
    head = ["model", "nnc MiB"] + ["%s MiB" % f for f in args.frameworks]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for row in rows:
        entries = [row["nnc"]] + [row["peers"][f] for f in args.frameworks]
        lines.append("| " + " | ".join([row["model"]] + [
            cell(e["peak_rss_bytes"] / 2 ** 20, "%.0f")
            if "peak_rss_bytes" in e and "note" not in e else "-"
            for e in entries]) + " |")
    return lines


def notes(args, rows):
    lines = []
    for row in rows:
        for name, entry in [("nnc", row["nnc"])] + sorted(
                row["peers"].items()):
            if "note" in entry:
                lines.append("- %s %s: %s" % (row["model"], name,
                                              entry["note"]))
    return lines


def markdown(args, results):
    rows = results["rows"]
    lines = speed_table(args, rows)
    if args.peak_memory:
        lines += [""] + memory_table(args, rows)
    lines += [""] + notes(args, rows)
    m = results["machine"]
    lines.append("")
    lines.append("Training images/sec, batch %d, fp32, %d threads on cores "
                 "%s, %d timed steps after %d (median step); %s; %s." % (
                     args.batch, args.threads, args.cores or "any",
                     args.steps, args.warmup, m["cpu"], m["date"]))
    return "\n".join(lines) + "\n"


def cpu_name():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--frameworks", default=",".join(FRAMEWORKS))
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cores", help="taskset's CPU list (default: the "
                        "first THREADS cores; '' for no pinning)")
    parser.add_argument("--build", default=os.environ.get(
        "NNC_BUILD_DIR", os.path.join(ROOT, "build")))
    parser.add_argument("--nn", action="append", default=[],
                        metavar="MODEL=FILE", help="the .nn file of a model")
    parser.add_argument("--python", default=sys.executable,
                        help="the peers' interpreter")
    parser.add_argument("--peak-memory", action="store_true")
    parser.add_argument("--out", default=os.path.join(
        ROOT, "bench", "results", "tf_cnn"))
    args = parser.parse_args(argv)
    args.models = [m for m in args.models.split(",") if m]
    args.frameworks = [f for f in args.frameworks.split(",") if f]
    for m in args.models:
        if m not in MODELS:
            parser.error("unknown model %r (%s)" % (m, ", ".join(MODELS)))
    for f in args.frameworks:
        if f not in FRAMEWORKS:
            parser.error("unknown framework %r (%s)" %
                         (f, ", ".join(FRAMEWORKS)))
    nn = {}
    for item in args.nn:
        model, sep, path = item.partition("=")
        if not sep or model not in MODELS:
            parser.error("--nn wants MODEL=FILE, got %r" % item)
        nn[model] = os.path.abspath(path)
    args.nn = nn
    if args.cores is None:
        args.cores = "0-%d" % (args.threads - 1)
    args.nnc = os.path.join(args.build, "bin", "nnc")
    return args


def main(argv):
    args = parse_args(argv)
    for sub in ("bin", "logs"):
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    env = environment(args.threads)
    results = {"machine": {
        "cpu": cpu_name(), "threads": args.threads, "cores": args.cores,
        "date": datetime.datetime.now().isoformat(timespec="seconds")},
        "batch": args.batch, "steps": args.steps, "warmup": args.warmup,
        "rows": []}
    if not os.path.exists(args.nnc):
        print("tf_cnn.py: no %s; peers only" % args.nnc, file=sys.stderr)
    for model in args.models:
        row = {"model": model, "peers": {}}
        row["nnc"] = run_nnc(args, model, env) if os.path.exists(
            args.nnc) else {"note": "no nnc at " + args.nnc}
        for framework in args.frameworks:
            row["peers"][framework] = run_peer(args, model, framework, env)
        results["rows"].append(row)
        print(speed_table(args, [row])[-1], flush=True)
    text = markdown(args, results)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=2)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
