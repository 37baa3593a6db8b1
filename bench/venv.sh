#!/usr/bin/env bash
# Creates bench/.venv, the virtual environment of nnc's CPU peers
# (bench/run.sh, bench/tf_cnn.sh): TensorFlow (tensorflow-cpu), PyTorch 2,
# NumPy and matplotlib (for compare.py's plots). Idempotent: an environment
# in which all four import is left as it is. Prints the path of its python
# on stdout (everything else goes to stderr).
#
#   bench/venv.sh            # create or check
#   NNC_BENCH_VENV=DIR ...   # another location
#
# The interpreter is python3.11 from PATH, else Debian's python3. PyTorch
# comes from its CPU-only wheel index when that is reachable (a far smaller
# download), else from the default index.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${NNC_BENCH_VENV:-$root/bench/.venv}
py=$venv/bin/python
torch_cpu_index=https://download.pytorch.org/whl/cpu

imports() {
  "$py" -c 'import matplotlib, numpy, tensorflow, torch' >/dev/null 2>&1
}

if [ -x "$py" ] && imports; then
  echo "$py"
  exit 0
fi

base=$(command -v python3.11 || true)
[ -n "$base" ] || base=/usr/bin/python3
if [ ! -x "$py" ]; then
  if ! "$base" -m venv "$venv" >&2; then
    # Debian's python3 has no venv module without python3-venv.
    sudo_cmd=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
    $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      python3-venv >&2
    rm -rf "$venv"
    "$base" -m venv "$venv" >&2
  fi
fi
pip=("$py" -m pip install -q)
"${pip[@]}" --upgrade pip >&2
if ! "$py" -c 'import torch' >/dev/null 2>&1; then
  "${pip[@]}" --retries 0 --timeout 15 --index-url "$torch_cpu_index" \
    torch >&2 2>/dev/null || "${pip[@]}" torch >&2
fi
"${pip[@]}" numpy matplotlib tensorflow-cpu >&2
if ! imports; then
  echo "venv.sh: matplotlib, numpy, tensorflow or torch does not import" \
    "in $venv" >&2
  exit 1
fi
echo "$py"
