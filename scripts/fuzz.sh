#!/usr/bin/env bash
# Fuzzes the .nn parser (lexer, parser, shape checks, IR construction) with
# libFuzzer for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR]     default: 60 s, build/
#
# The corpus grows in .fuzz/corpus (seeded from models/ and the bad-input
# tests); crashes are written to .fuzz/ and make the script fail.
set -euo pipefail
seconds=${1:-60}
build=${2:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
fuzzer="$root/$build/bin/nnc-parser-fuzzer"
if [ ! -x "$fuzzer" ]; then
  echo "fuzz.sh: $fuzzer not found (it is built with clang: CXX=clang++-22)" >&2
  exit 1
fi
mkdir -p "$root/.fuzz/corpus" "$root/.fuzz/seeds"
cp "$root"/models/*.nn "$root/.fuzz/seeds/"
if compgen -G "$root/test/Parser/errors/*.nn" > /dev/null; then
  cp "$root"/test/Parser/errors/*.nn "$root/.fuzz/seeds/"
fi
"$fuzzer" "$root/.fuzz/corpus" "$root/.fuzz/seeds" \
  -dict="$root/compiler/tools/nnc-fuzz/nn.dict" \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
  -artifact_prefix="$root/.fuzz/" -print_final_stats=1
