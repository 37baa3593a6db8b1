#!/usr/bin/env bash
# Builds the runtime and the bench program's main (libnnrt, libnnrt_main,
# nnrt-tests) with AddressSanitizer and UndefinedBehaviorSanitizer in their
# own build directory, then runs the runtime's unit tests and a few short
# bench runs linked with them: forward, training with --save then --load,
# and one epoch over CIFAR-10-format files. The models are compiled by the
# normal build's nnc (scripts/setup.sh first); any sanitizer report fails.
#
#   scripts/sanitize.sh    (NNC_BUILD_DIR: the normal build, default build/;
#                           NNC_ASAN_BUILD_DIR: default build-asan/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NNC_BUILD_DIR:-$root/build}
asan=${NNC_ASAN_BUILD_DIR:-$root/build-asan}
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

[ -x "$build/bin/nnc" ] || "$root/scripts/setup.sh"
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
if [ ! -f "$asan/build.ninja" ]; then
  mkdir -p "$asan"
  CC=$cc CXX=$cxx cmake -G Ninja -S "$root" -B "$asan" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLLVM_ENABLE_ASSERTIONS=ON \
    -DNNC_ENABLE_CUDA=OFF -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" > "$asan/configure.log" 2>&1 ||
    { cat "$asan/configure.log" >&2; exit 1; }
fi
cmake --build "$asan" -j "$(nproc)" --target nnrt nnrt_main nnrt-tests

export ASAN_OPTIONS=abort_on_error=0:halt_on_error=1:exitcode=99
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "sanitize: nnrt-tests"
"$asan/bin/nnrt-tests" > "$work/unit.log" 2>&1 ||
  { cat "$work/unit.log" >&2; echo "sanitize: nnrt-tests failed" >&2; exit 1; }

# nnc links the bench with the sanitized runtime, through a linker that
# adds the sanitizers' own libraries.
printf '#!/bin/sh\nexec %s %s "$@"\n' "$cxx" "$flags" > "$work/cxx"
chmod +x "$work/cxx"
export NNC_CXX=$work/cxx NNC_RUNTIME_DIR=$asan/lib
"$build/bin/nnc" "$root/test/Runtime/Inputs/lr.nn" -o "$work/bench"
python3 "$root/test/Runtime/Inputs/cifar10_files.py" "$work" 64 16

step() {
  echo "sanitize: bench $*"
  if ! "$work/bench" "$@" > "$work/run.log" 2>&1; then
    cat "$work/run.log" >&2
    echo "sanitize: bench $* failed" >&2
    exit 1
  fi
}
step --steps=2 --warmup=1
step --mode=train --steps=3 --warmup=0 --save="$work/p.npz" --json="$work/r.json"
step --mode=train --steps=2 --warmup=0 --load="$work/p.npz" --save="$work/p.npz"
step --data=cifar10:"$work" --epochs=1 --load="$work/p.npz" --dump="$work/d.npz"
step --mode=eval --data=cifar10:"$work" --load="$work/p.npz"
echo "sanitize: passed"
