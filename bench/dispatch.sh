#!/usr/bin/env bash
# The cost of the launch dispatch: bench/dispatch.cu as written and
# coarsened (thread K=2: block 256 runs the coarsened kernel, 33 the
# original through the dispatch; block K=4: both run the coarsened kernel
# after serves_threads), each run ROUNDS times alternately; prints the
# per-launch host times.  A measurement, not a test: nothing is asserted.
#
# usage: bash bench/dispatch.sh prepare DIR   (tfuse here)
#        bash bench/dispatch.sh run DIR [ROUNDS] (a GPU here)
set -eu
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
case "${1:-}" in
prepare)
  dir=${2:?usage: dispatch.sh prepare DIR}
  tfuse=${TFUSE:-$root/build/bin/tfuse}
  mkdir -p "$dir"
  cp "$here/dispatch.cu" "$dir/original.cu"
  "$tfuse" -all-kernels -mode thread -factor 2 "$here/dispatch.cu" -o "$dir/thread2.cu"
  "$tfuse" -all-kernels -mode block -factor 4 "$here/dispatch.cu" -o "$dir/block4.cu"
  ;;
run)
  dir=${2:?usage: dispatch.sh run DIR [ROUNDS]}
  rounds=${3:-3}
  nvcc=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
  for v in original thread2 block4; do
    "$nvcc" -O3 -arch=sm_90 "$dir/$v.cu" -o "$dir/$v"
  done
  nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | sed 's/^/gpu: /'
  for r in $(seq "$rounds"); do
    for v in original thread2 block4; do
      "$dir/$v" | sed "s/^/round $r $v /"
    done
  done
  ;;
*)
  echo "usage: dispatch.sh prepare DIR | run DIR [ROUNDS]" >&2
  exit 2
  ;;
esac
