#!/usr/bin/env bash
# Real learning: trains models/mnist_mlp.nn with the compiled training step
# on the first 8,000 images of the MNIST test set (../shared/data/mnist, or
# the directory given) and reports the accuracy on the last 2,000.
#
#   scripts/mnist.sh [MNIST_DIR] [EPOCHS]      (defaults: ../shared/data/mnist, 10)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data="${1:-$root/../shared/data/mnist}"
epochs="${2:-10}"
build="${NNC_BUILD_DIR:-$root/build}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in t10k-images-idx3-ubyte t10k-labels-idx1-ubyte; do
  if [[ -f "$data/$f" ]]; then
    cp "$data/$f" "$work/$f"
  elif [[ -f "$data/$f.gz" ]]; then
    gunzip -c "$data/$f.gz" > "$work/$f"
  else
    echo "mnist.sh: no $f(.gz) in $data" >&2
    exit 1
  fi
done
# Batch 50 divides both parts, so all 2,000 test images are measured.
"$build/bin/nnc" "$root/models/mnist_mlp.nn" --batch=50 -o "$work/mnist"
"$work/mnist" --mode=train --data="mnist:$work" --holdout=2000 \
  --epochs="$epochs" --json="$work/run.json"
python3 - "$work/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
acc = r["test_accuracy"]
print("test accuracy on the last %d images: %.4f" % (r["test_images"], acc))
sys.exit(0 if acc >= 0.95 else 1)
PY
