#!/usr/bin/env bash
# The main job: set up and build nnc when needed, then compile the Keras
# CIFAR-10 MLP and print it in the nn dialect.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"${NNC_BUILD_DIR:-$root/build}/bin/nnc" "$root/models/cifar_mlp.nn" --emit=nn
