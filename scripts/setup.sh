#!/usr/bin/env bash
# Sets tfuse up from a fresh clone on Debian bookworm:
#   1. installs what is missing (libclang 22, FileCheck/not/lit, cmake, ninja),
#   2. configures build/ with CMake (Ninja if available, Release),
#   3. builds build/bin/tfuse,
#   4. coarsens samples/vecadd/vecadd.cu by 4 and shows the start of the diff.
# Safe to re-run: it installs only what is missing (no apt, no network, when
# nothing is) and rebuilds only what changed.
#
# usage: bash scripts/setup.sh [--deps-only | --configure-only | --no-demo] [--sanitizers]
#   --deps-only       step 1 only (what .ci/run uses)
#   --configure-only  steps 1 and 2 (what scripts/test.sh uses)
#   --no-demo         steps 1 to 3
#   --sanitizers      step 1 also installs what the optional sanitized and
#                     fuzzing builds need (compiler-rt's sanitizer and
#                     libFuzzer runtimes, llvm-symbolizer); what
#                     scripts/fuzz-frontend.sh and scripts/test.sh --sanitize
#                     use with --deps-only
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build"
llvm=/usr/lib/llvm-22
last_step=4
sanitizers=0
for arg in "$@"; do
  case "$arg" in
    --deps-only) last_step=1 ;;
    --configure-only) last_step=2 ;;
    --no-demo) last_step=3 ;;
    --sanitizers) sanitizers=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "setup: unknown option '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

say() { printf '==> setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root (or sudo) to run: $*"
  fi
}

# --- 1. dependencies -------------------------------------------------------
# Each package is checked through the files tfuse needs from it, so a re-run
# on a set-up machine never touches apt.
missing=()
need_pkg() {  # need_pkg PACKAGE FILE...: PACKAGE is missing if a FILE is
  local pkg=$1 f
  shift
  for f in "$@"; do
    if [ ! -e "$f" ]; then
      missing+=("$pkg")
      return
    fi
  done
}
need_pkg clang-22 "$llvm/bin/clang"
need_pkg libclang-22-dev "$llvm/lib/libclang.so" "$llvm/include/clang-c/Index.h"
need_pkg llvm-22-tools "$llvm/bin/FileCheck" "$llvm/bin/not" "$llvm/bin/count" "$llvm/bin/lit"
if [ "$sanitizers" -eq 1 ]; then
  rt="$llvm/lib/clang/22/lib/linux"
  need_pkg libclang-rt-22-dev "$rt/libclang_rt.asan-x86_64.a" "$rt/libclang_rt.ubsan_standalone-x86_64.a" \
    "$rt/libclang_rt.fuzzer-x86_64.a"
  need_pkg llvm-22 "$llvm/bin/llvm-symbolizer"
fi
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)

if [ ${#missing[@]} -eq 0 ]; then
  say "dependencies: all present (libclang 22, FileCheck/not/lit, cmake, ninja, cc$(
    [ "$sanitizers" -eq 0 ] || echo ", sanitizer runtimes, llvm-symbolizer"))"
else
  command -v apt-get >/dev/null 2>&1 ||
    die "missing ${missing[*]}, and there is no apt-get to install them with"
  say "installing: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update </dev/null ||
    die "apt-get update failed (is the network reachable?)"
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends "${missing[@]}" </dev/null ||
    die "apt-get install ${missing[*]} failed"
fi

nvcc=$(command -v nvcc 2>/dev/null || true)
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [ -n "$nvcc" ]; then
  say "nvcc: $nvcc (tests compile every emitted file with it)"
else
  say "nvcc: not found; tests that compile emitted files will be UNSUPPORTED." \
    "tfuse itself needs the CUDA headers (default /usr/local/cuda, or --cuda-path)"
fi
[ "$last_step" -ge 2 ] || exit 0

# --- 2. configure -----------------------------------------------------------
if [ -f "$build/CMakeCache.txt" ]; then
  say "configuring $build (already configured: refreshing)"
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
else
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  say "configuring $build (${generator[1]:-default generator}, Release)"
  cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release
fi
[ "$last_step" -ge 3 ] || exit 0

# --- 3. build ----------------------------------------------------------------
say "building tfuse"
cmake --build "$build" --parallel || die "the build failed (errors above)"
say "built $build/bin/tfuse"
[ "$last_step" -ge 4 ] || exit 0

# --- 4. demonstration ---------------------------------------------------------
input="$root/samples/vecadd/vecadd.cu"
output="$build/vecadd.k4.cu"
if [ ! -f "$input" ]; then
  say "no $input: skipping the demonstration"
  exit 0
fi
say "coarsening: build/bin/tfuse -factor 4 samples/vecadd/vecadd.cu -o build/vecadd.k4.cu"
(cd "$root" && build/bin/tfuse -factor 4 samples/vecadd/vecadd.cu -o build/vecadd.k4.cu) ||
  die "tfuse failed on samples/vecadd/vecadd.cu (messages above)"
say "first lines of: diff -u samples/vecadd/vecadd.cu build/vecadd.k4.cu"
(cd "$root" && { diff -u samples/vecadd/vecadd.cu build/vecadd.k4.cu || true; } | head -60)
lines=$(cd "$root" && { diff -u samples/vecadd/vecadd.cu build/vecadd.k4.cu || true; } | wc -l)
if [ "$lines" -gt 60 ]; then
  say "(60 of $lines lines; the kernel's changes follow the prelude:" \
    "diff -u samples/vecadd/vecadd.cu build/vecadd.k4.cu)"
fi
say "done. The coarsened file is $output"
say "next: bash scripts/test.sh (runs the test suite)"
