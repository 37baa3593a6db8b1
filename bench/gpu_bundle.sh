#!/usr/bin/env bash
# Builds the bundle the GPU checks and benchmarks run from (bench/gpu_run.py)
# on a machine with an NVIDIA GPU and no LLVM/MLIR: nnc compiles here,
# the GPU machine only runs programs.
#
#   bench/gpu_bundle.sh [DIR]      (default: .gpu, ignored by git)
#
# DIR/check: each model's CPU and CUDA bench programs at a small batch (fp32,
# tf32, bf16), for the numeric comparison; DIR/bench: the benchmark
# workloads' CUDA programs at their real sizes; DIR/lib: libomp for the CPU
# programs; the runtime's GPU self-test; the scripts. Then, there:
#
#   python3 DIR/gpu_run.py --out RESULTS
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/.gpu}
build=${NNC_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" > /dev/null
nnc=$build/bin/nnc
rm -rf "$out"
mkdir -p "$out/check" "$out/bench" "$out/lib"

compile() { # model.nn output flags...
  local model=$1 exe=$2
  shift 2
  "$nnc" "$model" -o "$exe" "$@"
  strip "$exe"
}

# Numeric checks: CPU against CUDA, same seeds.
for spec in alexnet:2 cifar10_cnn:4 cifar_mlp:8 mnist_mlp:8; do
  m=${spec%%:*} b=${spec##*:}
  compile "$root/models/$m.nn" "$out/check/$m-cpu" --batch="$b"
  for p in fp32 tf32 bf16; do
    compile "$root/models/$m.nn" "$out/check/$m-cuda-$p" --batch="$b" \
      --target=cuda --precision="$p"
  done
done
for g in grad_cnn grad_mlp grad_misc; do
  compile "$root/test/Oracle/Inputs/$g.nn" "$out/check/$g-cpu"
  compile "$root/test/Oracle/Inputs/$g.nn" "$out/check/$g-cuda-fp32" \
    --target=cuda
done

# Benchmarks: the reference workloads at their sizes, per precision.
for p in fp32 tf32 bf16; do
  compile "$root/models/alexnet.nn" "$out/bench/alexnet-$p" --target=cuda \
    --precision="$p"
  compile "$root/models/cifar_mlp.nn" "$out/bench/cifar_mlp-$p" \
    --target=cuda --precision="$p"
  compile "$root/models/cifar10_cnn.nn" "$out/bench/cifar10_cnn-$p" \
    --target=cuda --precision="$p"
  for n in 1024 2048 4096 8192; do
    compile "$root/models/matmul.nn" "$out/bench/matmul-$n-$p" \
      --target=cuda --precision="$p" --set n="$n"
  done
done

cp -L "$(ldconfig -p | awk '/libomp.so.5 /{print $NF; exit}')" "$out/lib/" \
  2> /dev/null || cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$out/lib/"
cp "$build/bin/nnrt-cuda-tests" "$out/" && strip "$out/nnrt-cuda-tests"
# The scripts and the modules they import, side by side.
cp "$root/bench/gpu_run.py" "$root/bench/peers.py" "$root/bench/charts.py" \
  "$root/bench/programs.py" "$out/"
cp "$root/test/Oracle/oracle.py" "$root/test/Oracle/tf_models.py" \
  "$root/python/tf_semantics.py" "$out/"
du -sh "$out"
echo "gpu_bundle.sh: run 'python3 $(basename "$out")/gpu_run.py --out RESULTS' on the GPU machine"
