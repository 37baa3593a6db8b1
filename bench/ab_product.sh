#!/bin/bash
# Compares two nnc builds on the matrix product in one process (see
# bench/ab_product.cpp): each build's object for `--set n=N`, its symbols
# prefixed with A_ or B_, linked into one program with libnnrt.
#
#   bench/ab_product.sh NNC_A NNC_B N ROUNDS [THREADS]
#
# NNC_A and NNC_B are nnc commands ("build/bin/nnc", "build/bin/nnc
# --cpu=znver3", "env VAR=1 build/bin/nnc"); THREADS sets OMP_NUM_THREADS
# (default 2). The runtime library is $NNRT_LIB, else build/lib/libnnrt.a.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
nnc_a=$1 nnc_b=$2 n=$3 rounds=$4 threads=${5:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in A B; do
  cmd=$nnc_a
  [ "$side" = B ] && cmd=$nnc_b
  $cmd "$root/models/matmul.nn" --set "n=$n" --emit=obj -o "$work/$side.o"
  nm --defined-only "$work/$side.o" | awk -v p="$side" 'NF == 3 {print $3, p "_" $3}' \
    > "$work/$side.syms"
  objcopy --redefine-syms="$work/$side.syms" "$work/$side.o"
done
runtime=${NNRT_LIB:-$root/build/lib/libnnrt.a}
"${CXX:-clang++}" -O2 -I"$root/runtime/include" "$root/bench/ab_product.cpp" \
  "$work/A.o" "$work/B.o" \
  "$runtime" -fopenmp -o "$work/ab"
OMP_NUM_THREADS=$threads "$work/ab" "$n" "$rounds"
