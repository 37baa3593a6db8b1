"""NumPy's side of the bench program's .npz files: `npz.py ACTION ARGS`.

  check-saved SAVED DUMP   the saved parameters are the dumped ones, in
                           declaration order, readable by numpy.load
  same A B                 A and B hold the same arrays
  differ A B               A and B hold the same names but other values
  steps A B                the global steps (dtype and value) of two saved
                           training runs, and whether the momentum state was
                           saved
  resave SRC DST KIND      DST from SRC's parameters with numpy.savez:
                           KIND = plain, compressed, extra, reshaped, missing,
                           f32-step (global_step as float32), nan (the
                           first element of hidden.biases a NaN),
                           extra-types (extra float64, uint8 and bool
                           arrays)
"""

import sys
import zipfile

import numpy as np


def load(path):
    with np.load(path) as f:
        return {k: f[k] for k in f.files}


def main(action, *args):
    if action == "check-saved":
        saved, dump = load(args[0]), load(args[1])
        names = [n[:-4] for n in zipfile.ZipFile(args[0]).namelist()]
        print("parameters:", " ".join(names))
        for k, v in saved.items():
            want = np.int64 if k == "global_step" else np.float32
            assert v.dtype == want, (k, v.dtype)
            assert np.array_equal(v, dump[k]), k
        print("saved parameters equal the dumped ones")
    elif action == "same":
        a, b = load(args[0]), load(args[1])
        assert a.keys() == b.keys()
        assert all(np.array_equal(a[k], b[k]) for k in a)
        print("same arrays")
    elif action == "differ":
        a, b = load(args[0]), load(args[1])
        assert a.keys() == b.keys()
        print("differing:", " ".join(sorted(
            k for k in a if not np.array_equal(a[k], b[k]))))
    elif action == "steps":
        a, b = load(args[0]), load(args[1])
        print("global_step %s %d then %s %d" % (
            a["global_step"].dtype, a["global_step"],
            b["global_step"].dtype, b["global_step"]))
        if "hidden.weights.momentum" in b and b["hidden.weights.momentum"].any():
            print("momentum state saved")
    elif action == "resave":
        src, dst, kind = args
        params = load(src)
        if kind == "extra":
            params["notes"] = np.arange(3, dtype=np.int32)
        elif kind == "reshaped":
            params["probs.biases"] = np.zeros((5, 2), np.float32)
        elif kind == "missing":
            del params["probs.biases"]
        elif kind == "extra-types":
            params["mean"] = np.zeros(3, np.float64)
            params["pixels"] = np.arange(4, dtype=np.uint8)
            params["flags"] = np.array([True, False])
        elif kind == "nan":
            params["hidden.biases"][0] = np.nan
        elif kind == "f32-step":
            params["global_step"] = params["global_step"].astype(np.float32)
        else:
            params = {k: (v * 2).astype(v.dtype) for k, v in params.items()}
        save = np.savez_compressed if kind == "compressed" else np.savez
        save(dst, **params)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
