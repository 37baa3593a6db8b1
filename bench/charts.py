"""Charts of benchmark results, drawn with matplotlib when it is installed
(compare.py, gpu_run.py)."""

import numpy as np


def pyplot():
    """matplotlib.pyplot on the file-only Agg backend; None without
    matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def bars(path, names, series, ylabel, log=False):
    """Grouped bars, a group per name and a bar per (label, values) of
    `series`, written to `path`. False without matplotlib."""
    plt = pyplot()
    if plt is None:
        return False
    x = np.arange(len(names))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(10, 4.5))
    for i, (label, values) in enumerate(series):
        ax.bar(x + (i - (len(series) - 1) / 2) * width, values, width,
               label=label)
    if log:
        ax.set_yscale("log")
    ax.set_xticks(x, names, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.legend()
    save(plt, fig, path)
    return True
