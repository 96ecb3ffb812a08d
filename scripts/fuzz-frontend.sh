#!/usr/bin/env bash
# Fuzzes the whole of tfuse in process with libFuzzer, built with
# AddressSanitizer (LeakSanitizer included) and UndefinedBehaviorSanitizer:
#   1. installs what is missing (scripts/setup.sh --deps-only --sanitizers),
#   2. configures build-fuzz/ (clang 22, TFUSE_FUZZ=ON) and builds
#      build-fuzz/bin/tfuse-fuzz (test/fuzz/libfuzzer/tfuse_fuzz.c),
#   3. seeds build-fuzz/fuzz/seeds/ with every .cu of test/lit and samples/,
#      as they are,
#   4. runs the fuzzer on build-fuzz/fuzz/corpus/ (kept between runs) and
#      the seeds, with test/fuzz/libfuzzer/cuda.dict, and prints the
#      duration, executions, corpus size and result at the end.
# Crashes, leaks, UB reports and hangs (over 30 s) land in
# build-fuzz/fuzz/findings/ as crash-*, leak-*, timeout-*, oom-*; reproduce
# one with: build-fuzz/bin/tfuse-fuzz FILE (the environment below matters:
# source scripts/fuzz-frontend.sh --env, or see docs/testing.md).
#
# usage: bash scripts/fuzz-frontend.sh [-t SECONDS] [-j JOBS] [-- LIBFUZZER_ARGS...]
#        bash scripts/fuzz-frontend.sh --env    (prints the environment to export)
#   -t SECONDS  how long to fuzz (default 300)
#   -j JOBS     parallel fuzzing processes (default 1)
# Exits 0 when nothing was found, 1 when the fuzzer found something or the
# build failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-fuzz"
work="$build/fuzz"
llvm=/usr/lib/llvm-22
seconds=300
jobs=1
extra=()

say() { printf '==> fuzz: %s\n' "$*"; }
die() { printf 'fuzz: error: %s\n' "$*" >&2; exit 1; }

# The sanitizers' settings, for this script and for reproducing a finding
# by hand.  Leak detection stays on; test/fuzz/ubsan.supp lists the known
# findings that wait for a fix (one check in one function each).
fuzz_env() {
  local symbolizer="$llvm/bin/llvm-symbolizer"
  [ -x "$symbolizer" ] || symbolizer=$(readlink -f "$(command -v llvm-symbolizer || echo /nonexistent)")
  local sym=""
  [ -x "$symbolizer" ] && sym=":external_symbolizer_path=$symbolizer"
  echo "export ASAN_OPTIONS='detect_leaks=1:abort_on_error=0$sym'"
  echo "export UBSAN_OPTIONS='print_stacktrace=1:suppressions=$root/test/fuzz/ubsan.supp$sym'"
  echo "export TFUSE_CACHE_DIR='$work/pch-cache'"
}

while [ $# -gt 0 ]; do
  case "$1" in
    -t) seconds=${2:?-t needs SECONDS}; shift 2 ;;
    -j) jobs=${2:?-j needs JOBS}; shift 2 ;;
    --env) fuzz_env; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown option '$1' (try --help)" ;;
  esac
done
case "$seconds$jobs" in *[!0-9]*) die "-t and -j take whole numbers" ;; esac

# --- 1, 2: dependencies and build ------------------------------------------
bash "$root/scripts/setup.sh" --deps-only --sanitizers
if [ ! -f "$build/CMakeCache.txt" ]; then
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  say "configuring $build (clang 22, TFUSE_FUZZ=ON)"
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" -DTFUSE_FUZZ=ON
fi
say "building tfuse-fuzz"
cmake --build "$build" --target tfuse-fuzz --parallel "$jobs" || die "the build failed (errors above)"

# --- 3: seeds ------------------------------------------------------------------
mkdir -p "$work/corpus" "$work/findings" "$work/pch-cache" "$work/tmp"
rm -rf "$work/seeds"
mkdir -p "$work/seeds"
(cd "$root" && find test/lit samples -name '*.cu' -type f) | while read -r f; do
  cp "$root/$f" "$work/seeds/${f//\//_}"
done
say "seeds: $(ls "$work/seeds" | wc -l) files from test/lit and samples/;" \
  "corpus: $(ls "$work/corpus" | wc -l) files from earlier runs"

# --- 4: fuzz -------------------------------------------------------------------
eval "$(fuzz_env)"
export TMPDIR="$work/tmp"
log="$work/fuzz.log"
args=(-dict="$root/test/fuzz/libfuzzer/cuda.dict" -max_len=16384 -timeout=30 -rss_limit_mb=4096
  -max_total_time="$seconds" -artifact_prefix="$work/findings/" -close_fd_mask=3
  -print_final_stats=1)
if [ "$jobs" -gt 1 ]; then
  # -fork keeps going after a finding and merges into corpus/; the
  # children's output is in fuzz.log too.
  args+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
before=$(ls "$work/findings" | wc -l)
say "running: tfuse-fuzz ${args[*]} ${extra[*]} corpus seeds (log: ${log#"$root"/})"
start=$(date +%s)
status=0
(cd "$work" && "$build/bin/tfuse-fuzz" "${args[@]}" "${extra[@]}" corpus seeds) >"$log" 2>&1 || status=$?
end=$(date +%s)

# --- summary ---------------------------------------------------------------------
tail -n 30 "$log"
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{ s += $1 } END { print s + 0 }')
if [ "$execs" -eq 0 ]; then  # -fork prints no final stats; take the last status line
  execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
fi
duration=$((end - start))
new=$(($(ls "$work/findings" | wc -l) - before))
say "duration: ${duration} s; executions: ${execs:-0}; exec/s: $(( ${execs:-0} / (duration > 0 ? duration : 1) ));" \
  "corpus: $(ls "$work/corpus" | wc -l) files"
if [ "$status" -eq 0 ] && [ "$new" -eq 0 ]; then
  say "result: nothing found (libFuzzer exit status 0)"
  exit 0
fi
say "result: FOUND something (libFuzzer exit status $status, $new new file(s) in ${work#"$root"/}/findings/):"
ls -t "$work/findings" | head -n "$((new > 0 ? new : 1))" | sed 's/^/    /'
say "reproduce: eval \"\$(bash scripts/fuzz-frontend.sh --env)\"; build-fuzz/bin/tfuse-fuzz build-fuzz/fuzz/findings/FILE"
exit 1
