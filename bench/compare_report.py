"""compare.py's rows, Markdown tables and charts.

A row holds nnc's seconds per step, every peer's (median, every timed
step, or the error that stopped it) and the best peer's: the fastest of
those that ran. Ratios are best peer time / nnc time: above 1, nnc is
faster."""

import json
import math
import os
import sys

import numpy as np

import charts

# Peer names as the tables print them.
LABELS = {"numpy": "NumPy", "torch": "PyTorch", "torch-cl":
          "PyTorch channels_last", "torch-compile": "torch.compile",
          "tf": "TF", "tf-xla": "TF XLA"}
ORDER = tuple(LABELS)


def median(values):
    return float(np.median(values)) if values else None


def row(name, flops, nnc, peers, peak, extra=None):
    """nnc: its step times, or {"error": why}; peers: {peer: step times,
    or {"error": why}}."""
    nnc_s = median(nnc) if isinstance(nnc, list) else None
    entries, ran = {}, {}
    for peer, times in peers.items():
        if isinstance(times, dict):
            entries[peer] = times
        else:
            ran[peer] = median(times)
            entries[peer] = {"seconds": ran[peer], "step_seconds": times}
    best = min(ran, key=ran.get) if ran else None
    best_s = ran.get(best)
    r = {"workload": name, "flops_per_step": flops,
         "nnc_seconds": nnc_s, "peers": entries,
         "peer": LABELS[best] if best else None, "peer_id": best,
         "peer_seconds": best_s,
         "ratio": best_s / nnc_s if best_s and nnc_s else None,
         "nnc_gflops": flops / nnc_s / 1e9 if flops and nnc_s else None,
         "peer_gflops": flops / best_s / 1e9 if flops and best_s else None,
         "nnc_fraction_of_peak":
             flops / nnc_s / peak if flops and nnc_s and peak else None}
    if isinstance(nnc, list):
        r["nnc_step_seconds"] = nnc
    else:
        r["nnc_error"] = nnc["error"]
    r.update(extra or {})
    return r


def peak_cell(fraction):
    """nnc's share of the measured peak, or why it is not shown: a figure
    above the peak means the peak (or the step) was measured wrong."""
    if not fraction:
        return "-"
    if fraction > 1.0:
        return "measurement error (%.0f%% of peak)" % (100 * fraction)
    return "%.1f%%" % (100 * fraction)


def cell(value, fmt="%.4f"):
    return fmt % value if value is not None else "-"


def best_line(r):
    """A row of the main table."""
    return "| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        r["workload"], cell(r["nnc_seconds"]) if r["nnc_seconds"] else
        "failed", r["peer"] or "-", cell(r["peer_seconds"]),
        cell(r["ratio"], "%.2fx"), cell(r["nnc_gflops"], "%.1f"),
        peak_cell(r["nnc_fraction_of_peak"]),
        cell(r.get("nnc_compile_seconds"), "%.2f"))


def peers_line(r, peers):
    cells = []
    for p in peers:
        entry = r.get("peers", {}).get(p)
        cells.append("-" if entry is None else "failed" if "error" in entry
                     else cell(entry["seconds"]))
    return "| %s | %s | %s |" % (r["workload"], cell(r["nnc_seconds"]),
                                 " | ".join(cells))


def notes(rows):
    lines = []
    for r in rows:
        if "nnc_error" in r:
            lines.append("- %s, nnc: %s" % (r["workload"], r["nnc_error"]))
        for p, entry in r.get("peers", {}).items():
            if "error" in entry:
                lines.append("- %s, %s: %s" % (r["workload"], LABELS[p],
                                               entry["error"]))
    return lines


def markdown(results):
    rows = results["rows"]
    lines = ["| workload | nnc s/step | best peer | best peer s/step | "
             "best/nnc | nnc GFLOP/s | nnc % of peak | nnc compile s |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    lines += [best_line(r) for r in rows]
    peers = [p for p in ORDER if any(p in r.get("peers", {}) for r in rows)]
    if peers:
        lines += ["", "Every peer, seconds per step:", "",
                  "| workload | nnc | " + " | ".join(
                      LABELS[p] for p in peers) + " |",
                  "|" + " --- |" * (len(peers) + 2)]
        lines += [peers_line(r, peers) for r in rows]
    failed = notes(rows)
    if failed:
        lines += ["", "Failed:"] + failed
    m = results["machine"]
    versions = "; ".join("%s %s" % kv for kv in m.get("versions", {
        "PyTorch": m.get("torch")}).items())
    lines += ["", "%s, %d threads, f32 FMA peak %.0f GFLOP/s (%s); %s; "
              "%s." % (m["cpu"], m["threads"], m["peak_gflops"],
                       m.get("peak_source", "measured by bench/peak.c"),
                       versions, m["date"])]
    if any("images_per_second" in r for r in rows):
        lines.append("tf_cnn rows: training steps of bench/tf_cnn.py, "
                     "seconds per step = batch / images per second (nnc: "
                     "its total images/sec over the timed loop; peers: "
                     "over their median step); FLOPs 3x the forward "
                     "pass's.")
    return "\n".join(lines) + "\n"


def gpu_rows(path):
    """bench/gpu_run.py's fp32 rows by workload title: (nnc seconds, best
    peer seconds, FLOPs)."""
    with open(path) as f:
        rows = json.load(f)["rows"]
    out = {}
    for r in rows:
        if r.get("precision", "fp32") == "fp32":
            peer = min(s for s in (r["eager_seconds"],
                                   r.get("compile_seconds")) if s)
            out[r["workload"]] = (r["nnc_seconds"], peer, r.get("flops"))
    return out


def nan(value):
    return value if value else math.nan


def plots(results, out, gpu=None):
    rows = results["rows"]
    names = [r["workload"] for r in rows]
    peer_names = " / ".join(sorted({r["peer"] for r in rows if r["peer"]}))
    gpu = gpu or {}
    for key, label, fname, log in (
            ("seconds", "seconds per step (log)", "time.png", True),
            ("gflops", "GFLOP/s", "gflops.png", False)):
        series = [("nnc CPU", [nan(r["nnc_" + key]) for r in rows]),
                  ("best CPU peer: " + peer_names,
                   [nan(r["peer_" + key]) for r in rows])]
        if gpu:
            for i, who in ((0, "nnc GPU"),
                           (1, "GPU peer: PyTorch eager / torch.compile")):
                values = []
                for r in rows:
                    g = gpu.get(r["workload"])
                    seconds = g[i] if g else math.nan
                    values.append(seconds if key == "seconds" else
                                  nan(r["flops_per_step"]) / seconds / 1e9)
                series.append((who, values))
        if not charts.bars(os.path.join(out, fname), names, series, label,
                           log):
            print("compare.py: matplotlib is missing; no plots",
                  file=sys.stderr)
            return
    matmul_plot(rows, out, gpu)


def matmul_plot(rows, out, gpu):
    mm = [r for r in rows if r["workload"].startswith("matmul")]
    if not mm:
        return
    plt = charts.pyplot()
    sizes = [int(r["workload"].split()[1]) for r in mm]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(sizes, [nan(r["nnc_seconds"]) for r in mm], "o-", label="nnc")
    peers = [p for p in ORDER if any(p in r.get("peers", {}) for r in mm)]
    for p in peers:
        ax.plot(sizes, [nan(r["peers"].get(p, {}).get("seconds"))
                        for r in mm], "s--", label=LABELS[p])
    if not peers:  # an older results.json: the one peer of each row
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
