#!/usr/bin/env bash
# GPU test of the multi-file projects of test/lit/project (and the
# dynamic-parallelism file of test/lit/refuse), coarsened by tfuse in
# block K = 2 and 4 and thread K = 2 and 4 with their own compile flags,
# built with nvcc (and g++ for the host-compiler file) as their lit tests
# build them, and run by a driver here that checks every result on the
# host and prints `project: OK`:
#   multifile    a static kernel of the same name in two files, an extern
#                __device__ counter, a kernel-pointer table (-rdc=true), and
#                a file tfuse cannot parse beside them (left as it is)
#   launchmacro  launches through the project's macros in a common header
#   hostcpp      a header with a kernel, included by a .cpp built with g++
#   outroot      a kernel declared in a header outside the sources' folder
#   dynpar       a parent kernel launching a child from the device
# Blocks of 1 and 33 threads exercise the fallback to the kept original.
#
# usage: bash test/gpu/projects/run.sh             (tfuse and a GPU here)
#        bash test/gpu/projects/run.sh prepare DIR (tfuse here: writes DIR)
#        bash test/gpu/projects/run.sh run DIR     (a GPU here: builds DIR)
# env:   TFUSE=path/to/tfuse (default build/bin/tfuse), NVCC=path/to/nvcc.
# Prints a line per project and variant, then `projects: PASS` or
# `projects: FAIL (N)` last; exit 0 or 1.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
inputs=$root/test/lit/project/Inputs
projects="multifile launchmacro hostcpp outroot dynpar"
variants="block2 block4 thread2 thread4"

# coarsen PROJECT MODE K OUT: tfuse on the project's files, run in its
# copy (the current folder), the written files under OUT.
coarsen() {
  local p=$1 mode=$2 k=$3 out=$4 tfuse=${TFUSE:-$root/build/bin/tfuse}
  local common=(-factor "$k" -mode "$mode" -root "$PWD" -out-dir "$out")
  case $p in
  multifile) "$tfuse" "${common[@]}" -all-kernels -keep-going a.cu b.cu counter.cu hits.cu registry.cu broken.cu \
    -- -rdc=true ;;
  launchmacro) "$tfuse" "${common[@]}" a.cu b.cu -- -rdc=true ;;
  hostcpp) "$tfuse" "${common[@]}" scale.cu ;;
  outroot) "$tfuse" "${common[@]}" src/k.cu -- -Iinc ;;
  dynpar) "$tfuse" "${common[@]}" -all-kernels -keep-going dp.cu -- -rdc=true ;;
  esac
}

prepare() {
  local dir=$1
  mkdir -p "$dir"
  cp "$here"/*_main.* "$dir/"
  for p in $projects; do
    mkdir -p "$dir/$p"
    if [ "$p" = dynpar ]; then
      mkdir -p "$dir/$p/original" && cp "$root/test/lit/refuse/dynamic-parallelism.cu" "$dir/$p/original/dp.cu"
    else
      cp -r "$inputs/$p" "$dir/$p/original"
    fi
    for v in $variants; do
      local mode=${v%[0-9]} k=${v##*[a-z]}
      (cd "$dir/$p/original" && coarsen "$p" "$mode" "$k" "$dir/$p/$v.out") >"$dir/$p/$v.tfuse.log" 2>&1 ||
        { cat "$dir/$p/$v.tfuse.log" >&2; echo "projects: FAIL (tfuse failed for $p $v)"; exit 1; }
      cp -r "$dir/$p/original" "$dir/$p/$v"
      [ -d "$dir/$p/$v.out" ] && cp -r "$dir/$p/$v.out/." "$dir/$p/$v/"
    done
  done
}

# build PROJECT FOLDER DRIVERS NVCC: the program FOLDER/prog.
build() {
  local p=$1 d=$2 drv=$3 nvcc=$4 arch=(-arch=sm_90)
  case $p in
  multifile) "$nvcc" "${arch[@]}" -rdc=true "$d"/{a,b,counter,hits,registry}.cu "$drv/multifile_main.cu" -o "$d/prog" ;;
  launchmacro) "$nvcc" "${arch[@]}" -rdc=true "$d"/{a,b}.cu "$drv/launchmacro_main.cu" -o "$d/prog" ;;
  hostcpp)
    local cuda
    cuda=$(dirname "$(dirname "$(readlink -f "$nvcc")")")
    g++ -std=c++17 -I "$cuda/include" -I "$d" -c "$drv/hostcpp_main.cpp" -o "$d/main.o" &&
      "$nvcc" "${arch[@]}" -std=c++17 -c "$d/scale.cu" -o "$d/scale.o" &&
      "$nvcc" "${arch[@]}" "$d/main.o" "$d/scale.o" -o "$d/prog" ;;
  outroot) "$nvcc" "${arch[@]}" -I "$d/inc" -DINIT=1.0f -DEXPECT=2.0f "$d/src/k.cu" "$drv/one_main.cu" -o "$d/prog" ;;
  dynpar) "$nvcc" "${arch[@]}" -rdc=true -DINIT=0.0f -DEXPECT=1.0f "$d/dp.cu" "$drv/one_main.cu" -o "$d/prog" ;;
  esac
}

run() {
  local dir=$1 nvcc=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)} failed=0
  for p in $projects; do
    for v in original $variants; do
      local d=$dir/$p/$v verdict
      if ! build "$p" "$d" "$dir" "$nvcc" >"$d.build.log" 2>&1; then
        verdict="does not build: $(grep -m1 -i error "$d.build.log")"
      elif ! "$d/prog" >"$d.run.out" 2>&1; then
        verdict="failed: $(head -c 300 "$d.run.out")"
      elif ! grep -qx "project: OK" "$d.run.out"; then
        verdict="no 'project: OK'"
      elif ! TFUSE_REPORT=1 "$d/prog" >"$d.report.out" 2>&1 || ! grep -qx "project: OK" "$d.report.out"; then
        verdict="failed with TFUSE_REPORT=1"
      else
        verdict=OK
      fi
      [ "$verdict" = OK ] || failed=$((failed + 1))
      printf '%-12s %-8s %s\n' "$p" "$v" "$verdict"
      grep "^tfuse:" "$d.report.out" 2>/dev/null | sed 's/^/               /'
    done
  done
  if [ "$failed" -gt 0 ]; then
    echo "projects: FAIL ($failed)"
    exit 1
  fi
}

case "${1:-}" in
prepare)
  prepare "$(mkdir -p "${2:?usage: run.sh prepare DIR}" && cd "$2" && pwd)"
  echo "projects: prepared $2"
  exit 0
  ;;
run) run "$(cd "${2:?usage: run.sh run DIR}" && pwd)" ;;
"")
  work=$(mktemp -d "${TMPDIR:-/tmp}/tfuse-projects.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  prepare "$work"
  run "$work"
  ;;
*)
  echo "projects: FAIL (usage: run.sh [prepare DIR | run DIR])"
  exit 1
  ;;
esac
echo "projects: PASS"
