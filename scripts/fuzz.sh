#!/usr/bin/env bash
# Fuzzes one of nnc's readers with libFuzzer for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR] [TARGET]   default: 60 s, build/, parser
#
# TARGET is parser (the .nn lexer, parser, shape checks and IR
# construction), npz (the runtime's .npz reader, as --load uses it), model
# (the runtime's reader of the model description), cifar or mnist (the
# runtime's readers of the data sets, as --data uses them, gzip and tar
# included). The corpus grows in
# .fuzz/TARGET/corpus, seeded from models/ and the bad-input tests (parser)
# or test/Fuzz/Inputs; crashes are written to .fuzz/TARGET/ and make the
# script fail.
set -euo pipefail
seconds=${1:-60}
build=${2:-build}
target=${3:-parser}
root=$(cd "$(dirname "$0")/.." && pwd)
case "$target" in
  parser) fuzzer=nnc-parser-fuzzer ;;
  npz | model | cifar | mnist) fuzzer=nnrt-$target-fuzzer ;;
  *) echo "fuzz.sh: unknown target '$target' (parser, npz, model, cifar or mnist)" >&2
     exit 1 ;;
esac
fuzzer="$root/$build/bin/$fuzzer"
if [ ! -x "$fuzzer" ]; then
  echo "fuzz.sh: $fuzzer not found (it is built with clang: CXX=clang++-22)" >&2
  exit 1
fi
work="$root/.fuzz/$target"
mkdir -p "$work/corpus" "$work/seeds"
extra=()
case "$target" in
  parser)
    cp "$root"/models/*.nn "$work/seeds/"
    if compgen -G "$root/test/Parser/errors/*.nn" > /dev/null; then
      cp "$root"/test/Parser/errors/*.nn "$work/seeds/"
    fi
    extra=(-dict="$root/compiler/tools/nnc-fuzz/nn.dict" -max_len=4096) ;;
  npz) cp "$root"/test/Fuzz/Inputs/*.npz "$work/seeds/"; extra=(-max_len=4096) ;;
  model) cp "$root"/test/Fuzz/Inputs/*.json "$work/seeds/"; extra=(-max_len=8192) ;;
  cifar | mnist)
    cp "$root"/test/Fuzz/Inputs/"$target"*.bin "$work/seeds/"; extra=(-max_len=8192) ;;
esac
"$fuzzer" "$work/corpus" "$work/seeds" "${extra[@]}" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$work/" -print_final_stats=1
