# Checks what the CUDA stand-in model (cuda_model.cpp) left in its archives:
# the step counter saved from the device, and the dumped forward output.
import sys

import numpy as np

params = np.load(sys.argv[1])
print("counter %d" % params["counter"][0])
if len(sys.argv) > 2:
    d = np.load(sys.argv[2])
    want = np.maximum(d["images"] @ d["dense.weights"] + d["dense.biases"], 0)
    if np.allclose(d["output0"], want, rtol=1e-2, atol=1e-3):
        print("forward output matches relu(x W + b)")
    else:
        print("forward output differs:\n%s\n%s" % (d["output0"], want))
