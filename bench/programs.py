"""Runs the benchmarked programs, each in a process of its own, and reads
what they report: nnc's bench programs (their --json record) and the
PyTorch and NumPy peers of bench/peers.py (compare.py, gpu_run.py)."""

import json
import os
import subprocess
import sys

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
