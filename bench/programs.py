"""Runs the benchmarked programs, each in a process of its own, and reads
what they report: nnc's bench programs (their --json record) and the
PyTorch, NumPy and TensorFlow peers of bench/peers.py and bench/tf_peers.py
(compare.py, gpu_run.py, study.py)."""

import json
import os
import subprocess
import sys
import time

PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers.py")
MODELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))), "models")


def compile_model(build, exe, model, batch, sets=(), flags=()):
    """Compiles models/MODEL.nn into the bench program `exe` with the nnc
    of `build` (--batch when `batch`, --set for each of `sets`); returns
    `exe`."""
    cmd = [os.path.join(build, "bin", "nnc"),
           os.path.join(MODELS, model + ".nn"), "-o", exe] + list(flags)
    if batch:
        cmd.append("--batch=%d" % batch)
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True)
    return exe


def nnc_record(exe, mode, steps, warmup, record, flags=(), env=None):
    """The JSON record of `steps` steps of `mode` after `warmup`, written
    to `record`."""
    subprocess.run([exe, "--mode=" + mode, "--steps=%d" % steps,
                    "--warmup=%d" % warmup, "--json=" + record] + list(flags),
                   check=True, stdout=subprocess.DEVNULL, env=env)
    with open(record) as f:
        return json.load(f)


def peer(workload, env=None):
    """(seconds of every timed step, forward FLOPs) of a peers.py workload
    (its command-line arguments)."""
    out = subprocess.run([sys.executable, PEERS] + [str(w) for w in workload],
                         check=True, stdout=subprocess.PIPE, env=env)
    result = json.loads(out.stdout)
    return result["seconds"], result["flops"]


def peer_json(cmd, env=None, timeout=None):
    """The JSON object a peer program prints last on stdout, or {"error":
    why} when it fails, prints none or outlives `timeout` seconds."""
    try:
        out = subprocess.run([sys.executable] + [str(c) for c in cmd],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env, timeout=timeout, text=True)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % timeout}
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        err = [line.strip() for line in out.stderr.splitlines()
               if line.strip()]
        return {"error": "exit %d: %s" % (out.returncode,
                                          err[-1] if err else "no output")}
    return json.loads(lines[-1])


def timed(fn, steps, warmup, sync=lambda: None):
    """Seconds of each of `steps` calls of `fn` after `warmup` calls, in a
    peer's own process; `sync` ends each step (a GPU's synchronisation, as
    nnc's bench program's steps end)."""
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - start)
    return times
