#!/usr/bin/env bash
# Checks the installable CMake package end to end:
#
#   1. installs the tfuse build tree into a temporary prefix
#      (cmake --install BUILD --prefix TMP/prefix): tfuse, tfuse-tune and
#      tfuse-report run from it;
#   2. configures and builds a copy of samples/cmake-project against it with
#      Ninja (find_package(tfuse CONFIG REQUIRED), tfuse_coarsen(... FACTOR 4));
#   3. checks that saxpy.tfuse.k4.cu was generated and is coarsened
#      (contains __tf_grid_x), that saxpy and saxpy_k4 were linked, that
#      saxpy.tfuse.kauto.cu (FACTOR auto) has its variants and saxpy_auto
#      linked with tfuse::tune, that all/saxpy.tfuse.k2.cu (ALL_KERNELS
#      KEEP_GOING) is coarsened and saxpy_all linked, and that a second
#      build has nothing to do;
#   4. touches the input saxpy.cu and rebuilds: the tfuse rule must run again
#      and the file be regenerated; then the same after touching the
#      installed bin/tfuse.
#
# Prints one line, `cmake-package: PASS` or `cmake-package: FAIL (reason)`,
# and exits 0 or 1 (on failure the tail of the log goes to stderr first).
# Only compiles: no GPU needed.  Works on a copy of the sample in a temporary
# directory, so the checkout is not touched.
#
# usage: scripts/check-cmake-package.sh [BUILD_DIR]   (default: build/)
# env:   NVCC=/path/to/nvcc (default: $CUDACXX, nvcc on PATH,
#        /usr/local/cuda/bin/nvcc); KEEP=1 keeps the temporary directory.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tfuse-cmake-package.XXXXXX")
log=$tmp/log.txt
: >"$log"
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [ "${KEEP:-0}" = 1 ]; then
    echo "check-cmake-package: kept $tmp" >&2
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

fail() {
  if [ -s "$log" ]; then
    echo "---- last lines of the log ----" >&2
    tail -n 40 "$log" >&2
    echo "-------------------------------" >&2
  fi
  echo "cmake-package: FAIL ($*)"
  exit 1
}

# run DESCRIPTION CMD...: runs CMD with its output in the log.
run() {
  local what=$1
  shift
  echo "+ $*" >>"$log"
  "$@" >>"$log" 2>&1 || fail "$what"
}

# ---- prerequisites ---------------------------------------------------------
command -v cmake >/dev/null 2>&1 || fail "cmake not found"
command -v ninja >/dev/null 2>&1 || fail "ninja not found"
[ -f "$build/CMakeCache.txt" ] ||
  fail "$build is not a configured tfuse build tree (run scripts/setup.sh)"
build=$(cd "$build" && pwd)

nvcc=${NVCC:-${CUDACXX:-}}
if [ -z "$nvcc" ]; then
  nvcc=$(command -v nvcc 2>/dev/null || true)
fi
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  fail "nvcc not found (set NVCC=...)"
fi

# ---- 1. install ------------------------------------------------------------
# Brings the build tree up to date first (a no-op after setup.sh; it also
# re-runs the configure step if CMakeLists.txt changed since).
run "building tfuse in $build failed" cmake --build "$build"
prefix=$tmp/prefix
run "cmake --install failed" cmake --install "$build" --prefix "$prefix"
for f in bin/tfuse bin/tfuse-tune bin/tfuse-report include/tfuse/prelude.h lib/cmake/tfuse/tfuseConfig.cmake \
         lib/cmake/tfuse/tfuseConfigVersion.cmake lib/cmake/tfuse/tfuseTargets.cmake \
         lib/cmake/tfuse/tfuseCoarsen.cmake; do
  [ -e "$prefix/$f" ] || fail "install did not write $f"
done
run "installed tfuse does not run" "$prefix/bin/tfuse" -version
run "installed tfuse-report does not run" "$prefix/bin/tfuse-report" --help

# ---- 2. configure and build the sample -------------------------------------
src=$tmp/src
bin=$tmp/sample
cp -R "$root/samples/cmake-project" "$src" || fail "cannot copy samples/cmake-project"
rm -rf "$src/build" "$src"/build-*
run "configuring samples/cmake-project failed" \
  cmake -S "$src" -B "$bin" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_BUILD_TYPE=Release

found=$(sed -n 's/^tfuse_DIR:[A-Z]*=//p' "$bin/CMakeCache.txt")
[ "$found" = "$prefix/lib/cmake/tfuse" ] ||
  fail "find_package(tfuse) found '$found', not the installed package"

run "building samples/cmake-project failed" cmake --build "$bin"

gen=$bin/saxpy.tfuse.k4.cu
[ -f "$gen" ] || fail "saxpy.tfuse.k4.cu was not generated"
grep -q '__tf_grid_x' "$gen" || fail "saxpy.tfuse.k4.cu is not coarsened (no __tf_grid_x)"
[ -f "$bin/saxpy.tfuse.kauto.cu" ] || fail "saxpy.tfuse.kauto.cu (FACTOR auto) was not generated"
grep -q 'saxpy__tf_k1' "$bin/saxpy.tfuse.kauto.cu" || fail "saxpy.tfuse.kauto.cu has no variants (no saxpy__tf_k1)"
[ -x "$bin/saxpy_auto" ] || fail "saxpy_auto (linked with tfuse::tune) was not built"
[ -x "$bin/saxpy" ] || fail "saxpy was not built"
[ -x "$bin/saxpy_k4" ] || fail "saxpy_k4 was not built"
grep -q '__tf_grid_x' "$bin/all/saxpy.tfuse.k2.cu" || fail "all/saxpy.tfuse.k2.cu (ALL_KERNELS KEEP_GOING) is not coarsened"
[ -x "$bin/saxpy_all" ] || fail "saxpy_all was not built"

# Nothing to do the second time (no rule that always re-runs).
echo "+ cmake --build $bin -- -n -d explain" >>"$log"
again=$(cmake --build "$bin" -- -n -d explain 2>&1)
echo "$again" >>"$log"
grep -q 'no work to do' <<<"$again" || fail "a second build is not a no-op"

# ---- 3. regeneration -------------------------------------------------------
# rebuild_after_touch FILE WHAT: touch FILE, rebuild, and require that the
# tfuse rule ran, the generated file is newer than FILE, and saxpy_k4 was
# linked again.
rebuild_after_touch() {
  local file=$1 what=$2 out
  sleep 1 # distinct mtimes also on coarse-grained file systems
  touch "$file"
  echo "+ touch $file; cmake --build $bin -- -d explain" >>"$log"
  out=$(cmake --build "$bin" -- -d explain 2>&1) || {
    echo "$out" >>"$log"
    fail "rebuild after touching $what failed"
  }
  echo "$out" >>"$log"
  grep -q 'tfuse: coarsening' <<<"$out" ||
    fail "touching $what did not re-run tfuse"
  [ "$gen" -nt "$file" ] ||
    fail "saxpy.tfuse.k4.cu is not newer than $what after the rebuild"
  [ "$bin/saxpy_k4" -nt "$file" ] ||
    fail "saxpy_k4 was not rebuilt after touching $what"
  grep -q '__tf_grid_x' "$gen" || fail "regenerated saxpy.tfuse.k4.cu is not coarsened"
}
rebuild_after_touch "$src/saxpy.cu" "saxpy.cu"
rebuild_after_touch "$prefix/bin/tfuse" "bin/tfuse"

echo "cmake-package: PASS"
exit 0
