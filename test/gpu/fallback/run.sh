#!/usr/bin/env bash
# GPU test of the fallback dispatch: a launch whose shape the coarsened
# kernel cannot serve runs the kept original, and the program behaves as
# before (runtime/include/tfuse/prelude.h, serves_block, serves_threads,
# serves_shared; docs/coarsening.md "When the original runs").
#
# fallback.cu launches four kernels with blocks of 1, 33, 96, 128 and 1024
# threads (and a warp-synchronous one with 64, 96 and 256), checks every
# result on the host and prints `fallback: OK`.  Each variant, coarsened by
# tfuse -all-kernels, must print the same; with TFUSE_REPORT=1 it also
# prints, at exit, one line per launch site that ran the original, with the
# count and the reason, and without it nothing:
#   thread K=2: blocks 1 and 33 of scale, heavy and reverse (K does not
#               divide them); warp_sum with 96 (48 threads: not whole warps)
#   thread K=4: blocks 1 and 33; warp_sum with 64 and 96
#   block K=8:  heavy with 1024 threads (its coarsened kernel's registers
#               allow fewer), reverse with 1024 (8 shares of 40 KB of shared
#               memory are more than a block can have)
# heavy and reverse are launched with <<<...>>>, cudaLaunchKernel and
# cudaLaunchKernelEx: each site runs the original for the same shapes.
#   block K=2:  none
#
# usage: bash test/gpu/fallback/run.sh            (tfuse and a GPU here)
#        bash test/gpu/fallback/run.sh prepare DIR (tfuse here: writes DIR)
#        bash test/gpu/fallback/run.sh run DIR     (a GPU here: builds DIR)
# env:   TFUSE=path/to/tfuse (default build/bin/tfuse), NVCC=path/to/nvcc.
# Prints `fallback: PASS` or `fallback: FAIL (reason)` last; exit 0 or 1.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
variants="thread2 thread4 block8 block2"

fail() {
  echo "fallback: FAIL ($*)"
  exit 1
}

prepare() {
  local dir=$1 tfuse=${TFUSE:-$root/build/bin/tfuse}
  mkdir -p "$dir"
  cp "$here/fallback.cu" "$dir/original.cu"
  for v in $variants; do
    local mode=${v%[0-9]} k=${v##*[a-z]}
    "$tfuse" -all-kernels -mode "$mode" -factor "$k" "$here/fallback.cu" -o "$dir/$v.cu" >"$dir/$v.tfuse.log" 2>&1 ||
      { cat "$dir/$v.tfuse.log" >&2; fail "tfuse failed for $v"; }
  done
}

# expect FILE COUNT KERNEL REASON: a report line for a site of KERNEL with
# COUNT launches and REASON.
expect() {
  grep -q "^tfuse: fallback.cu:[0-9]*: $2 launch[es]* of '$3' ran the original kernel: $4" "$1" ||
    { cat "$1" >&2; fail "$(basename "$1"): no report of $2 launch(es) of '$3' ($4)"; }
}

run() {
  local dir=$1 nvcc=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
  for v in original $variants; do
    "$nvcc" -O3 -arch=sm_90 "$dir/$v.cu" -o "$dir/$v" >"$dir/$v.build.log" 2>&1 ||
      { cat "$dir/$v.build.log" >&2; fail "$v does not build"; }
    env -u TFUSE_REPORT "$dir/$v" >"$dir/$v.out" 2>"$dir/$v.err" || { cat "$dir/$v.out" "$dir/$v.err" >&2; fail "$v failed"; }
    grep -qx "fallback: OK" "$dir/$v.out" || fail "$v: no 'fallback: OK'"
    ! grep -q "^tfuse:" "$dir/$v.err" || fail "$v printed a report without TFUSE_REPORT"
    TFUSE_REPORT=1 "$dir/$v" >"$dir/$v.rout" 2>"$dir/$v.rerr" || fail "$v failed with TFUSE_REPORT=1"
    grep -qx "fallback: OK" "$dir/$v.rout" || fail "$v: no 'fallback: OK' with TFUSE_REPORT=1"
    echo "== $v"
    cat "$dir/$v.rerr"
  done
  local not="is not a multiple of the coarsening factor"
  for kern in scale heavy reverse; do
    expect "$dir/thread2.rerr" 2 "$kern" "blockDim.x = 1 $not 2"
    expect "$dir/thread4.rerr" 2 "$kern" "blockDim.x = 1 $not 4"
  done
  expect "$dir/thread2.rerr" 1 warp_sum "blockDim.x = 96 over the factor 2 is not a whole number of warps"
  expect "$dir/thread4.rerr" 2 warp_sum "blockDim.x = 64 over the factor 4 is not a whole number of warps"
  expect "$dir/block8.rerr" 1 heavy "1024 threads per block; the coarsened kernel uses [0-9]* registers"
  expect "$dir/block8.rerr" 1 reverse "[0-9]* bytes of shared memory per block coarsened, over the [0-9]* this device"
  # Each kernel's launch sites report apart: heavy and reverse are also
  # launched through cudaLaunchKernel and cudaLaunchKernelEx.
  [ "$(grep -c "^tfuse:" "$dir/thread2.rerr")" = 8 ] || fail "thread2: not 8 report lines"
  [ "$(grep -c "^tfuse:" "$dir/block8.rerr")" = 6 ] || fail "block8: not 6 report lines"
  ! grep -q "^tfuse:" "$dir/block2.rerr" || fail "block2 reported a launch that ran the original"
  ! grep -q "^tfuse:" "$dir/original.rerr" || fail "the original printed a report"
}

case "${1:-}" in
prepare)
  prepare "${2:?usage: run.sh prepare DIR}"
  echo "fallback: prepared $2"
  exit 0
  ;;
run) run "${2:?usage: run.sh run DIR}" ;;
"")
  work=$(mktemp -d "${TMPDIR:-/tmp}/tfuse-fallback.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  prepare "$work"
  run "$work"
  ;;
*) fail "usage: run.sh [prepare DIR | run DIR]" ;;
esac
echo "fallback: PASS"
