#!/usr/bin/env bash
# The main job: set up and build nnc when needed, then reproduce the study
# in one short run (bench/study.py): every seed workload (the matrix-product
# sweep, cifar_mlp and cifar10_cnn training, AlexNet forward and
# forward-backward) on the CPU, and on the GPU when one is visible, each
# against its best peer; one comparison table, a JSON record and plots.
#
#   scripts/main.sh                      # the study, minutes; into results/
#   scripts/main.sh --full               # the study's sizes (long)
#   scripts/main.sh --gpu=FILE           # GPU columns from bench/gpu_run.py
#   scripts/main.sh alexnet --steps=10   # one model's bench program; its
#                                        # flags follow
#
# Environment: NNC_RESULTS (default results/), NNC_BUILD_DIR (build/).
# Programs and records go to the results directory, never into the build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$HOME/.local/bin:$PATH" # where setup.sh puts lit
"$root/scripts/setup.sh"
build="${NNC_BUILD_DIR:-$root/build}"
results="${NNC_RESULTS:-$root/results}"

if [[ $# -gt 0 && "$1" != --* ]]; then
  model="$1"
  shift
  if [[ ! -f "$root/models/$model.nn" ]]; then
    echo "main.sh: no model '$model' in models/ ($(cd "$root/models" && ls *.nn | sed 's/\.nn$//' | tr '\n' ' '))" >&2
    exit 2
  fi
  mkdir -p "$results/bin"
  "$build/bin/nnc" "$root/models/$model.nn" -o "$results/bin/$model"
  echo "$results/bin/$model $*"
  exec "$results/bin/$model" "$@"
fi

# The peers and the plots: PyTorch 2, NumPy (with its OpenBLAS) and
# matplotlib from PyPI in bench/.venv (bench/venv.sh creates it once), the
# strongest versions; Debian's python3-torch 1.13 and its reference BLAS are
# the test oracle, not the yardstick.
python=$("$root/bench/venv.sh")
args=()
for arg in "$@"; do
  case "$arg" in
    --gpu=*) args+=(--gpu "${arg#--gpu=}") ;;
    *) args+=("$arg") ;;
  esac
done
exec "$python" "$root/bench/study.py" --build "$build" \
  --out "$results" "${args[@]}"
