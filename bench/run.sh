#!/usr/bin/env bash
# nnc against its strongest CPU peers on this machine (bench/compare.py,
# which documents the rows, peers and flags). For each row (matrix products
# of 256 to 4096, the cifar_mlp and cifar10_cnn training steps, AlexNet's
# forward and forward-backward at batch 128, the tf_cnn_benchmarks nets'
# training steps at batch 32) it prints nnc's seconds per step, the best
# peer's name and time, best peer / nnc (above 1, nnc is faster), nnc's
# GFLOP/s and share of the measured peak and the time nnc took to compile
# the row's program, then every peer's time; it writes
# bench/results/ (results.json, results.md, PNG plots).
#
#   bench/run.sh                          # everything (the tf_cnn nets: long)
#   bench/run.sh --quick                  # products up to 1024, cifar_mlp
#   bench/run.sh --skip=tf_cnn --peers=numpy,torch,tf,tf-xla --threads=2
#   bench/run.sh --system --quick         # Debian's Python and PyTorch
#
# The peers run in bench/.venv (bench/venv.sh creates it: TensorFlow,
# PyTorch 2, NumPy with OpenBLAS, matplotlib). With --system first, they
# run in Debian's python3 instead (python3-torch, python3-matplotlib,
# libopenblas0-pthread, installed when missing), which has no TensorFlow
# nor torch.compile: those peers are reported as failed. nnc is built
# first (scripts/setup.sh) unless --build=DIR names a build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
system=no
case ${1:-} in
  --system) system=yes; shift ;;
  --venv) shift ;;  # the default
esac
given_build=no
for arg in "$@"; do
  case $arg in --build=*|--build) given_build=yes ;; esac
done
[ $given_build = yes ] || "$root/scripts/setup.sh"
build=("--build=${NNC_BUILD_DIR:-$root/build}")
if [ $system = no ]; then
  python=$("$root/bench/venv.sh")
  exec "$python" "$root/bench/compare.py" "${build[@]}" "$@"
fi
missing=()
for pkg in python3-torch python3-matplotlib libopenblas0-pthread; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
fi
# Debian's python3-torch belongs to Debian's own Python.
exec /usr/bin/python3 "$root/bench/compare.py" "${build[@]}" "$@"
