#!/usr/bin/env bash
# The main job: set up and build nnc when needed, then compile a model into
# its bench program and run it on the CPU (forward steps on synthetic data,
# TensorFlow's benchmark lines).
#
#   scripts/main.sh                      # models/cifar_mlp.nn, 10 + 100 steps
#   scripts/main.sh alexnet --steps=10   # another model; bench flags follow
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
build="${NNC_BUILD_DIR:-$root/build}"
model="cifar_mlp"
if [[ $# -gt 0 && "$1" != --* ]]; then
  model="$1"
  shift
fi
if [[ ! -f "$root/models/$model.nn" ]]; then
  echo "main.sh: no model '$model' in models/ ($(cd "$root/models" && ls *.nn | sed 's/\.nn$//' | tr '\n' ' '))" >&2
  exit 2
fi
mkdir -p "$build/bench"
"$build/bin/nnc" "$root/models/$model.nn" -o "$build/bench/$model"
echo "$build/bench/$model $*"
"$build/bench/$model" "$@"
