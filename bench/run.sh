#!/usr/bin/env bash
# Regenerates bench/results/ (JSON, Markdown table, PNG plots): nnc against
# PyTorch and NumPy's BLAS on this machine. Installs the peers when missing
# (Debian: python3-torch, python3-matplotlib, libopenblas0-pthread, which
# becomes NumPy's BLAS). Flags go to compare.py (--quick, --threads=N).
# With --venv first, compare.py and its peers run in bench/.venv instead
# (bench/venv.sh: PyTorch 2 and NumPy from PyPI).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
if [ "${1:-}" = --venv ]; then
  shift
  python=$("$root/bench/venv.sh")
  exec "$python" "$root/bench/compare.py" \
    --build "${NNC_BUILD_DIR:-$root/build}" "$@"
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
exec /usr/bin/python3 "$root/bench/compare.py" --build "${NNC_BUILD_DIR:-$root/build}" "$@"
