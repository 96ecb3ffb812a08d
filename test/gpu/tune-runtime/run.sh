#!/usr/bin/env bash
# GPU test of the `tfuse -factor auto` runtime (runtime/include/tfuse/tune.h,
# runtime/src/tune.cpp).  Needs a GPU, nvcc and bash; nothing else.
# Builds tune-runtime.cu (see its top: a planted candidate that is the
# fastest but one ulp off) with the library source and checks:
#   - fresh wisdom, TFUSE_TUNE_REPORT=1: one table for the key (the second
#     launch goes straight to the winner); the planted candidate is
#     disqualified, the thread-mode one skipped, the winner is neither; the
#     results are the original's; the wisdom file has the decision; no
#     timed run outlasted the gate (each candidate's untimed check run
#     loads its kernel first);
#   - the same wisdom again: the decision comes from the file, no tuning;
#   - TFUSE_CHECK_ULP=1 (fresh wisdom): the planted candidate qualifies,
#     wins, and runs for real (its one-ulp difference shows in the results);
#   - a damaged wisdom file: one warning, results right, file rewritten;
#   - TFUSE_TUNE=0: no table and no wisdom file, only the launch counts at
#     exit (TFUSE_TUNE_REPORT), results right;
#   - pageable host memory argument, and a launch under CUDA graph capture:
#     not tuned, said once, results right;
#   - a launch with an empty grid: not tuned (no table, no wisdom file),
#     its launch error the original's;
#   - 4 processes tuning at once into one wisdom file: each right, the file
#     whole;
#   - one site in a host template with __PRETTY_FUNCTION__ (a launch whose
#     kernel depends on the template's parameters), for float and int: one
#     key each, tuned once each, two wisdom lines; again: both from the file.
# Prints `tune-runtime: PASS` or `tune-runtime: FAIL (reason)` last.
# usage: bash test/gpu/tune-runtime/run.sh   env: NVCC, KEEP=1, EXE=prebuilt binary
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tfuse-tune-runtime.XXXXXX")
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$work"' EXIT
last=""
fail() {
  [ -n "$last" ] && { echo "---- $last ----" >&2; cat "$work/$last.out" >&2; echo "----" >&2; }
  echo "tune-runtime: FAIL ($*)"
  exit 1
}
exe=${EXE:-$work/tune-runtime}
if [ -z "${EXE:-}" ]; then
  nvcc=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
  "$nvcc" -O3 -arch=sm_90 -std=c++17 -I "$root/runtime/include" "$here/tune-runtime.cu" \
    "$root/runtime/src/tune.cpp" -lcuda -o "$exe" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "build"; }
fi
# run NAME [ENV...] -- ARGS: runs the program, output (both streams) in $work/NAME.out
run() {
  local name=$1; shift
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  last=$name
  env "${envs[@]}" "$exe" "$@" >"$work/$name.out" 2>&1
  echo $? >"$work/$name.rc"
  [ "$(cat "$work/$name.rc")" = 0 ] || fail "$name: exit status $(cat "$work/$name.rc")"
}
has() { grep -Eq -- "$2" "$work/$1.out" || fail "$1: no line matching: $2"; }
hasnt() { ! grep -Eq -- "$2" "$work/$1.out" || fail "$1: a line matches: $2"; }
count() { [ "$(grep -Ec -- "$2" "$work/$1.out")" = "$3" ] || fail "$1: not $3 lines matching: $2"; }

W=$work/wisdom
run tune TFUSE_WISDOM="$W" TFUSE_TUNE_REPORT=1 -- basic
has tune '^results OK$'
count tune '^tfuse-tune: kernel .sc. at tune-runtime.cu:58, grid \(16384,1,1\) block \(256,1,1\) smem 0, .+ \([0-9]+ SMs\):$' 1
has tune "^tfuse-tune: +block.x:8 +- +- +disqualified: 1 element of argument 'out' differ from the original's \(first at byte offset 4000\)$"
has tune '^tfuse-tune: +thread.x:3 +- +- +skipped: blockDim.x = 256 is not a multiple of 3$'
has tune '^tfuse-tune: +original +[0-9.]+ +1.00x +(ok|winner)$'
has tune '^tfuse-tune:   chose (original|block.x:2|block.x:4); tuning took [0-9.]+ ms and 19 launches \(a check run and up to 5 timed runs each, fewer where they passed 1000 ms\)$'
hasnt tune 'outlasted the gate'
[ "$(head -n 1 "$W")" = "tfuse-wisdom 1" ] || fail "wisdom file header"
grep -Eq $'^sc\t0000000000000001\t16384,1,1\t256,1,1\t0\t.+\t[0-9]+\t(original|block.x:2|block.x:4)\t' "$W" || fail "wisdom entry"
cat "$work/tune.out"

run again TFUSE_WISDOM="$W" TFUSE_TUNE_REPORT=1 -- basic
has again '^results OK$'
has again "^tfuse-tune: kernel 'sc' at tune-runtime.cu:58, .*: (original|block.x:2|block.x:4), from the wisdom file"
hasnt again 'chose'

run ulp TFUSE_WISDOM="$work/w.ulp" TFUSE_TUNE_REPORT=1 TFUSE_CHECK_ULP=1 -- basic
has ulp '^tfuse-tune:   chose block.x:8;'
has ulp '^results differ at 1 element\(s\)$'

printf 'tfuse-wisdom 1\nsc\tgarbage\n' >"$work/w.bad"
run bad TFUSE_WISDOM="$work/w.bad" -- basic
count bad "^tfuse-tune: warning: ignoring the wisdom file '.*w.bad': it is not a tfuse wisdom file \(or is damaged\); it will be rewritten$" 1
has bad '^results OK$'
[ "$(head -n 1 "$work/w.bad")" = "tfuse-wisdom 1" ] && [ "$(wc -l <"$work/w.bad")" = 2 ] || fail "damaged wisdom not rewritten"

run off TFUSE_WISDOM="$work/w.off" TFUSE_TUNE=0 TFUSE_TUNE_REPORT=1 -- basic
has off '^results OK$'
hasnt off '^tfuse-tune: kernel'
hasnt off 'wisdom'
has off "^tfuse-tune: launches: kernel 'sc' at tune-runtime.cu:58, grid \(16384,1,1\) block \(256,1,1\) smem 0, .*: 2 ran original$"
[ ! -e "$work/w.off" ] || fail "TFUSE_TUNE=0 wrote a wisdom file"

run host TFUSE_WISDOM="$work/w.host" -- host
count host "^tfuse-tune: kernel 'hk': argument 'out' is not in a CUDA device allocation, so it cannot be snapshot: not tuned; it runs its wisdom entry or the original$" 1

run graph TFUSE_WISDOM="$work/w.graph" -- graph
count graph "^tfuse-tune: kernel 'sc' launched at tune-runtime.cu:58 during CUDA graph capture: not tuned; it runs its wisdom entry or the original$" 1
has graph '^results OK$'

run empty TFUSE_WISDOM="$work/w.empty" TFUSE_TUNE_REPORT=1 -- empty
has empty '^empty OK$'
hasnt empty 'tfuse-tune'
[ ! -e "$work/w.empty" ] || fail "empty: a wisdom file was written"

for i in 1 2 3 4; do
  (TFUSE_WISDOM="$work/w.conc" "$exe" basic >"$work/conc$i.out" 2>&1; echo $? >"$work/conc$i.rc") &
done
wait
for i in 1 2 3 4; do
  last=conc$i
  [ "$(cat "$work/conc$i.rc")" = 0 ] || fail "conc$i: exit status"
  has conc$i '^results OK$'
done
[ "$(head -n 1 "$work/w.conc")" = "tfuse-wisdom 1" ] && [ "$(wc -l <"$work/w.conc")" = 2 ] || fail "concurrent wisdom file"
W=$work/w.inst
run inst TFUSE_WISDOM="$W" TFUSE_TUNE_REPORT=1 -- instances
has inst '^instances OK$'
count inst "^tfuse-tune: kernel 'ik in [^']*T = float[^']*' at tune-runtime.cu:117, grid \(16384,1,1\) block \(256,1,1\)" 1
count inst "^tfuse-tune: kernel 'ik in [^']*T = int[^']*' at tune-runtime.cu:117, grid \(16384,1,1\) block \(256,1,1\)" 1
count inst '^tfuse-tune:   chose ' 2
[ "$(wc -l <"$W")" = 3 ] || fail "instances: not 2 wisdom lines"
run inst2 TFUSE_WISDOM="$W" TFUSE_TUNE_REPORT=1 -- instances
has inst2 '^instances OK$'
count inst2 "^tfuse-tune: kernel 'ik in .*, from the wisdom file" 2
hasnt inst2 'chose'
echo "tune-runtime: PASS"
