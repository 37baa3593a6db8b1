#!/usr/bin/env bash
# Installs what nnc needs on Debian 12 when it is missing, then configures
# and builds nnc in build/. Safe to run again: it only does what is missing.
#
#   scripts/setup.sh            (used by scripts/main.sh and scripts/test.sh)
#
# Environment: NNC_BUILD_DIR (default build), NNC_BUILD_TYPE (default Release),
# NNC_ENABLE_CUDA (AUTO, ON or OFF).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NNC_BUILD_DIR:-$root/build}

packages=(cmake ninja-build ccache python3 python3-pip python3-torch python3-numpy
          llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libomp-22-dev
          clang-22 libclang-rt-22-dev lld-22 zlib1g-dev libopenmpi-dev openmpi-bin
          libmimalloc-dev)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo > /dev/null; then sudo "$@"
  else echo "setup.sh: need root (or sudo) to run: $*" >&2; exit 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup.sh: installing ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# lit: from PyPI when no working lit is on PATH or in ~/.local/bin (where
# an earlier run put it).
export PATH="$PATH:$HOME/.local/bin"
if ! lit --version > /dev/null 2>&1; then
  echo "setup.sh: installing lit from PyPI"
  python3 -m pip install -q --user lit 2> /dev/null \
    || python3 -m pip install -q --user --break-system-packages lit
  export PATH="$HOME/.local/bin:$PATH"
fi

if [ ! -f "$build/build.ninja" ]; then
  cc=clang-22; cxx=clang++-22
  command -v "$cxx" > /dev/null || { cc=cc; cxx=c++; }
  CC=$cc CXX=$cxx cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE="${NNC_BUILD_TYPE:-Release}" \
    -DLLVM_ENABLE_ASSERTIONS=ON \
    -DNNC_ENABLE_CUDA="${NNC_ENABLE_CUDA:-AUTO}"
fi
cmake --build "$build" -j "$(nproc)"
