#!/usr/bin/env bash
# Times the hand-merged MRI-Q kernel (bench/mriq_hand.cu, K=8) beside
# tfuse's K=8 coarsening of samples/mriq and the original, on the GPU
# machine, after `bash bench/mriq-prepare.sh` on the build machine wrote
# gpu-work/mriq/ (carry it over):
#
#   bash bench/mriq-hand.sh [ROUNDS]      (default 3 rounds of 20 launches)
#
# Two forms of every kernel: accurate (cosf/sinf as written) and fast (the
# same files built with -use_fast_math: __cosf/__sinf, the seed's "Hardware
# Trigonometry" kernel, the shape of GPU.md's MRI-Q reference).
# 1. Builds each program with nvcc -O3 -arch=sm_90 (the timed builds) and
#    with -fmad=false added (the exact builds) into gpu-work/mriq/bin/.
# 2. Checks: every build `100003 512 --check` (391 blocks, not a multiple
#    of 8) must print PASS; the exact builds' --dump of that run is compared
#    byte for byte with the original's exact build of the same form.
# 3. Times, interleaved, ROUNDS rounds of: every timed build `--time 20`
#    (2097152 voxels, 1536 samples, median of 20 launches, CUDA events);
#    prints `time ROUND FORM NAME MS`.
# 4. Dumps the SASS of the K=8 kernels to gpu-work/mriq/sass/ and prints
#    scripts/sass-loop-profile.py for each (--per 8).
# tfuse.block.k8.alllive is tfuse's block-mode output with its dead-block
# tests replaced by `true` (bench/mriq-prepare.sh): how much of the gap to
# the hand kernel those tests are.
# 5. Prints a table: per form and kernel the median of the rounds' medians,
#    its speedup over the original and its time relative to hand K=8.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CUOBJDUMP=${CUOBJDUMP:-$(command -v cuobjdump || echo "$(dirname "$NVCC")/cuobjdump")}
rounds=${1:-3}
case $rounds in ''|*[!0-9]*|0) echo "usage: $0 [ROUNDS >= 1]" >&2; exit 2 ;; esac
work=$root/gpu-work/mriq
src=$work/src
[ -f "$src/mriq.block.x.k8.cu" ] || { echo "mriq-hand: run bash bench/mriq-prepare.sh on the build machine first" >&2; exit 1; }
bin=$work/bin
mkdir -p "$bin" "$work/out" "$work/sass"
forms="acc fast"
names="orig hand.k1 hand.k8 tfuse.block.k8 tfuse.thread.k8 tfuse.block.k8.alllive"
timed="orig hand.k8 tfuse.block.k8 tfuse.thread.k8 tfuse.block.k8.alllive"
flags() { [ "$1" = fast ] && echo -use_fast_math; }
source_of() {
  case $1 in
    orig) echo "$src/mriq.orig.cu" ;;
    hand.k*) echo "-DK=${1#hand.k} $root/bench/mriq_hand.cu" ;;
    tfuse.block.k8) echo "$src/mriq.block.x.k8.cu" ;;
    tfuse.thread.k8) echo "$src/mriq.thread.x.k8.cu" ;;
    tfuse.block.k8.alllive) echo "$src/mriq.block.x.k8.alllive.cu" ;;
  esac
}
jobs=0
for f in $forms; do
  for n in $names; do
    # shellcheck disable=SC2046
    "$NVCC" -O3 -arch=sm_90 $(flags "$f") -o "$bin/$n.$f" $(source_of "$n") &
    # shellcheck disable=SC2046
    "$NVCC" -O3 -arch=sm_90 $(flags "$f") -fmad=false -o "$bin/$n.$f.exact" $(source_of "$n") &
    jobs=$((jobs + 2))
    if [ $jobs -ge 8 ]; then wait; jobs=0; fi
  done
done
wait
for f in $forms; do
  for n in $names; do
    for b in "$n.$f" "$n.$f.exact"; do
      [ -x "$bin/$b" ] || { echo "check $b: BUILD FAILED"; continue; }
      dump=; [ "${b%.exact}" != "$b" ] && dump="--dump $work/out/$b.bin"
      # shellcheck disable=SC2086
      r=$("$bin/$b" 100003 512 --check $dump | tail -n 1)
      same=
      if [ -n "$dump" ] && [ "$n" != orig ]; then
        if [ -f "$work/out/orig.$f.exact.bin" ] && [ -f "$work/out/$b.bin" ]; then
          cmp -s "$work/out/$b.bin" "$work/out/orig.$f.exact.bin" && same=IDENTICAL || same=DIFFERENT
        else
          same=MISSING
        fi
        same="; -fmad=false output vs the original's: $same"
      fi
      echo "check $b: $r$same"
    done
  done
done
med() { grep -o 'median_ms=[0-9.]*' | cut -d= -f2; }
times=$work/times.txt
: > "$times"
for round in $(seq 1 "$rounds"); do
  for f in $forms; do
    for n in $timed; do
      [ -x "$bin/$n.$f" ] && echo "time $round $f $n $("$bin/$n.$f" --time 20 | med)" | tee -a "$times"
    done
  done
done
for f in $forms; do
  for n in hand.k8 tfuse.block.k8 tfuse.block.k8.alllive; do
    s=$work/sass/$n.$f.sass
    "$CUOBJDUMP" -sass "$bin/$n.$f" > "$s" 2>/dev/null || { echo "sass $n.$f: cuobjdump failed"; continue; }
    echo "sass $n.$f (per 8):"
    python3 "$root/scripts/sass-loop-profile.py" "$s" --per 8 --kernel cmpfhd | sed 's/^/  /'
  done
done
echo
echo "MRI-Q, 2097152 voxels x 1536 samples, median of $rounds rounds (each the median of 20 launches)"
awk -v forms="$forms" -v names="$timed" '
  $1 == "time" && $5 != "" { v[$3 " " $4] = v[$3 " " $4] " " $5 }
  function median(s,   a, n, i, j, t) {
    n = split(s, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n == 0 ? "" : (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2)
  }
  END {
    printf "%-6s %-16s %10s %9s %12s   %s\n", "form", "kernel", "ms", "speedup", "vs hand K=8", "rounds"
    nf = split(forms, F, " "); nn = split(names, N, " ")
    for (i = 1; i <= nf; i++) {
      o = median(v[F[i] " orig"]); h = median(v[F[i] " hand.k8"])
      for (j = 1; j <= nn; j++) {
        m = median(v[F[i] " " N[j]])
        if (m == "") { printf "%-6s %-16s %10s\n", F[i], N[j], "-"; continue }
        printf "%-6s %-16s %10.4f %8.2fx %+11.1f%%  %s\n", F[i], N[j], m, o ? o / m : 0, h ? 100 * (m / h - 1) : 0, v[F[i] " " N[j]]
      }
    }
  }' "$times"
