# -*- Python -*-
# lit configuration of the nnc test suite.

import os
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "nnc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".nn", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nnc_obj_root, "test")

config.substitutions.append(("%models", os.path.join(config.nnc_src_root, "models")))
config.substitutions.append(("%nnc_src", config.nnc_src_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["nnc", "nnc-opt", "nnrt-tests"],
                                   [config.nnc_tools_dir])
config.substitutions.append(
    ("%nnrt_lib", os.path.join(config.nnc_obj_root, "lib", "libnnrt.a")))
if config.nnc_have_fuzzer:
    llvm_config.add_tool_substitutions(
        ["nnc-parser-fuzzer", "nnrt-npz-fuzzer", "nnrt-model-fuzzer",
         "nnrt-cifar-fuzzer", "nnrt-mnist-fuzzer"],
        [config.nnc_tools_dir])
    config.available_features.add("fuzzer")
config.substitutions.append(("%nnc_tools", config.nnc_tools_dir))
if config.nnc_have_mimalloc:
    config.available_features.add("mimalloc")
# Data-parallel runs: mpirun with as many ranks as asked, allowed to run as
# root (CI does) and to put more ranks than cores on this machine. Shared
# memory without the single-copy mechanism, which containers that forbid
# ptrace refuse.
if config.nnc_have_mpi and config.nnc_mpiexec:
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", config.nnc_mpiexec +
                                 " --oversubscribe --allow-run-as-root"
                                 " --mca btl_vader_single_copy_mechanism none"))
config.substitutions.append(("%llvm_root", os.path.dirname(config.llvm_tools_dir)))

# The numeric oracle is PyTorch on the CPU, from Debian's python3-torch, which
# installs for Debian's own Python (not for another python3 earlier on PATH).
oracle_python = "/usr/bin/python3"
if subprocess.run([oracle_python, "-c", "import torch, numpy"],
                  capture_output=True).returncode == 0:
    config.available_features.add("torch")
    config.substitutions.append(("%oracle_python", oracle_python))
else:
    lit_config.note("PyTorch not importable by %s: oracle tests are "
                    "unsupported (install python3-torch)" % oracle_python)

# The host runs x86-64-v3 code (AVX2 and FMA): programs tuned for an AVX2
# machine (`--cpu=x86-64-v3`) run here too, whatever the host's own tuning.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                      if line.startswith("flags")), [])
except OSError:
    flags = []
if {"avx2", "fma", "bmi2", "movbe"} <= set(flags):
    config.available_features.add("x86-64-v3")

# A C++ compiler with OpenMP (clang's libomp) links compiled models into test
# programs.
import shutil
for cxx in ("clang++-22", "clang++"):
    if shutil.which(cxx):
        config.available_features.add("clangxx")
        config.substitutions.append(("%clangxx", shutil.which(cxx)))
        # lld beside clang: nnc links the bench programs with it.
        clang_dir = os.path.dirname(os.path.realpath(shutil.which(cxx)))
        if os.access(os.path.join(clang_dir, "ld.lld"), os.X_OK):
            config.available_features.add("lld")
        break

# The CUDA target: `cuda` when it was built (its runtime's host checks and
# the bench program's no-GPU path run everywhere), `cuda-gpu` when a device
# is really usable here (nnrt-cuda-probe finds one; NNC_CUDA_GPU=0 hides it).
if config.nnc_have_cuda:
    config.available_features.add("cuda")
    lib = os.path.join(config.nnc_obj_root, "lib")
    llvm_config.add_tool_substitutions(["nnrt-cuda-tests"], [config.nnc_tools_dir])
    config.substitutions.append(("%nnrt_cuda_link", " ".join([
        "-Wl,--undefined=nnrt_cuda_device",
        os.path.join(lib, "libnnrt_main.a"),
        os.path.join(lib, "libnnrt_cuda.a"),
        os.path.join(lib, "libnnrt.a"),
        config.nnrt_cuda_ldflags, "-lm"])))
    config.substitutions.append(("%nnrt_cpu_link", " ".join([
        os.path.join(lib, "libnnrt_main.a"), os.path.join(lib, "libnnrt.a"),
        "-lm"])))
    probe = os.path.join(config.nnc_tools_dir, "nnrt-cuda-probe")
    found = None
    if os.environ.get("NNC_CUDA_GPU") == "0":
        found = "NNC_CUDA_GPU=0"
    elif not os.path.exists(probe):
        found = "nnrt-cuda-probe is not built"
    else:
        try:
            run = subprocess.run([probe], capture_output=True, text=True,
                                 timeout=60)
            if run.returncode == 0:
                config.available_features.add("cuda-gpu")
            else:
                found = run.stdout.strip() or "the probe failed"
        except (OSError, subprocess.TimeoutExpired) as e:
            found = str(e)
    if found:
        lit_config.note("no usable CUDA device (%s): GPU tests are "
                        "unsupported" % found)

# The MNIST test set, for the real-learning check: NNC_MNIST_DIR, or the
# shared data directory beside the source tree.
mnist = os.environ.get("NNC_MNIST_DIR",
                       os.path.join(config.nnc_src_root, "..", "shared", "data", "mnist"))
if os.path.exists(os.path.join(mnist, "t10k-images-idx3-ubyte.gz")) or \
        os.path.exists(os.path.join(mnist, "t10k-images-idx3-ubyte")):
    config.available_features.add("mnist")
    config.substitutions.append(("%mnist_dir", os.path.abspath(mnist)))
else:
    lit_config.note("no MNIST data at %s: the MNIST training test is "
                    "unsupported (set NNC_MNIST_DIR)" % mnist)
