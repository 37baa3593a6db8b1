#!/usr/bin/env bash
# nnc against the tf_cnn_benchmarks nets in TensorFlow and PyTorch
# (bench/tf_cnn.py, which documents the flags): creates bench/.venv when
# needed (bench/venv.sh), builds nnc (scripts/setup.sh) when the default
# build has none and no --build=DIR is given, then runs the comparison with
# the peers in the virtual environment.
#
#   bench/tf_cnn.sh --steps=10 --threads=2
#   bench/tf_cnn.sh --models=resnet50 --batch=64 --steps=1 --peak-memory
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NNC_BUILD_DIR:-$root/build}
python=$("$root/bench/venv.sh")
given_build=no
for arg in "$@"; do
  case $arg in --build=*|--build) given_build=yes ;; esac
done
if [ $given_build = no ] && [ ! -x "$build/bin/nnc" ]; then
  "$root/scripts/setup.sh"
fi
exec "$python" "$root/bench/tf_cnn.py" --build="$build" --python="$python" "$@"
