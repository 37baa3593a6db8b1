#!/usr/bin/env bash
# Sets up and builds nnc when needed, then runs the whole test suite (lit).
# Prints lit's summary and a closing "N passed, N failed" line; fails on any
# failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NNC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || exit 1
export PATH="$HOME/.local/bin:$PATH"
# The lit that CMake chose (Debian's llvm-22 one, else PyPI's).
lit_bin=$(sed -n 's/^NNC_LIT:FILEPATH=//p' "$build/CMakeCache.txt")
log=$(mktemp)
"${lit_bin:-lit}" -sv "$build/test" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
count() { sed -nE "s/^ *$1 *: *([0-9]+).*/\1/p" "$log" | head -n 1; }
passed=$(( $(count Passed || true) + 0 ))
failed=$(( $(count Failed || true) + 0 + $(count Unresolved || true) + 0 + $(count 'Timed Out' || true) + 0 ))
skipped=$(( $(count Unsupported || true) + 0 ))
rm -f "$log"
echo "tests: $passed passed, $failed failed, $skipped skipped"
if [ "$passed" -eq 0 ] && [ "$status" -eq 0 ]; then
  echo "test.sh: lit ran no test" >&2
  exit 1
fi
exit "$status"
