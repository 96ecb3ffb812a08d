#!/usr/bin/env bash
# Times Volkov's hand-written Gauss-Jordan kernels (bench/volkov_hand.cu)
# beside tfuse's coarsened gaussjordan_ws, on the GPU machine, after
# `bash gpu-work/run.sh` has built gpu-work/bin/gaussjordan_ws.*:
#
#   bash bench/volkov-hand.sh [ROUNDS]      (default 3 rounds of 20 launches)
#
# Each round times every kernel once (median of 20 launches, CUDA events),
# hand and tfuse interleaved; prints `time ROUND NAME MS`. The hand kernels
# are checked (|out - I| <= 1e-4, all of the odd size 1003) and their odd
# size output compared byte for byte with the original's -fmad=false build.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
rounds=${1:-3}
work=$root/gpu-work/hand
mkdir -p "$work"
configs="1:0 8:0 16:0 8:1 16:1"
for c in $configs; do
  k=${c%:*} p=${c#*:}
  "$NVCC" -O3 -arch=sm_90 -DK=$k -DPROMOTE=$p -o "$work/hand.k$k.p$p" "$root/bench/volkov_hand.cu" &
  "$NVCC" -O3 -arch=sm_90 -fmad=false -DK=$k -DPROMOTE=$p -o "$work/hand.k$k.p$p.exact" "$root/bench/volkov_hand.cu" &
done
wait
for c in $configs; do
  k=${c%:*} p=${c#*:}
  r=$("$work/hand.k$k.p$p.exact" 1003 --check --dump "$work/hand.k$k.p$p.bin" | tail -n 1)
  same=-; [ -f "$work/hand.k1.p0.bin" ] && { cmp -s "$work/hand.k$k.p$p.bin" "$work/hand.k1.p0.bin" && same=IDENTICAL || same=DIFFERENT; }
  echo "check hand K=$k promote=$p: $r; odd-size output vs the original: $same"
done
med() { grep -o 'median_ms=[0-9.]*' | cut -d= -f2; }
tf="gaussjordan_ws.orig gaussjordan_ws.thread.y.k8 gaussjordan_ws.thread.y.k16 gaussjordan_ws.thread.y.no-promote.k8 gaussjordan_ws.thread.y.no-promote.k16"
for round in $(seq 1 "$rounds"); do
  for c in $configs; do
    k=${c%:*} p=${c#*:}
    echo "time $round hand.k$k$([ "$p" = 1 ] && echo .promoted) $("$work/hand.k$k.p$p" --time 20 | med)"
  done
  for id in $tf; do
    b=$root/gpu-work/bin/$id.fast
    [ -x "$b" ] && echo "time $round tfuse.$id $("$b" --time 20 | med)"
  done
done
