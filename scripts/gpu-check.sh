#!/usr/bin/env bash
# GPU benchmark and check of the samples, in two halves (docs/testing.md,
# docs/BENCHMARK.md):
#
#   bash scripts/gpu-check.sh [-k "1 2 4 8 16"] [-t N] [-o gpu-work] [-c|-C] [-a|-A]
#       On the build machine: coarsens every variant of samples/samples.txt
#       for each K into gpu-work/src/, beside the originals, copies the
#       samples' shared header to gpu-work/common/, and writes gpu-work/run.sh.
#       K = 1 (tfuse -factor 1) leaves the file unchanged: its speedup column
#       measures the run-to-run noise.
#       -k  the factors (default "1 2 4 8 16")
#       -t  timed launches per measurement, at least 10 (default 10)
#       -o  the folder to write (default gpu-work/ in the repository)
#       -c  the -check section (the default): when `tfuse -check` works,
#           also writes each sample line at K = 4 with -check into
#           gpu-work/check/, the check runtime into gpu-work/runtime/, and a
#           planted variant (vecadd with a wrong __tf_orig) that must be
#           caught; when it does not work, the section is skipped with a note
#       -C  leave the -check section out
#       -a  the auto section (the default): each sample line also with
#           tfuse -factor auto into gpu-work/auto/ (the default space from the
#           line's mode, dim and flags), tuned by a first run and timed in a
#           second one with its wisdom file; the tuning runtime into
#           gpu-work/runtime/, and a planted vecadd whose block.x:16
#           candidate is wrong (it must be disqualified)
#       -A  leave the auto section out
#   bash gpu-work/run.sh [REGEX]
#       On the GPU machine (nvcc, no libclang); see the header of run.sh.
#       Then, back here, draw the plot:
#   python3 scripts/plot-speedup.py gpu-work/results.csv -o docs/speedup.png
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
factors="1 2 4 8 16"
times=10
work="$root/gpu-work"
checksec=1
autosec=1
usage() { echo "usage: $0 [-k \"1 2 4 8 16\"] [-t N (>= 10)] [-o DIR] [-c|-C] [-a|-A]" >&2; exit 2; }
while getopts "k:t:o:cCaA" o; do
  case $o in
    k) factors=$OPTARG ;;
    t) times=$OPTARG ;;
    o) work=$OPTARG ;;
    c) checksec=1 ;;
    C) checksec=0 ;;
    a) autosec=1 ;;
    A) autosec=0 ;;
    *) usage ;;
  esac
done
[ $OPTIND -gt $# ] || usage
case $times in
  ''|*[!0-9]*) echo "gpu-check: -t needs a number of runs, got '$times'" >&2; exit 2 ;;
esac
if [ "$times" -lt 10 ]; then
  echo "gpu-check: -t $times: the median needs at least 10 timed runs (-t 10 or more)" >&2
  exit 2
fi
for k in $factors; do
  case $k in
    ''|*[!0-9]*|0) echo "gpu-check: -k: bad factor '$k' (integers >= 1)" >&2; exit 2 ;;
  esac
done
[ -n "${factors// /}" ] || { echo "gpu-check: -k: no factors" >&2; exit 2; }
tfuse=${TFUSE:-$root/build/bin/tfuse}   # TFUSE=...: another tfuse binary (for testing this script)
[ -x "$tfuse" ] || { echo "gpu-check: build tfuse first (bash scripts/setup.sh)" >&2; exit 1; }
samples="$root/samples"

# flag_suffix "-mapping consecutive -no-promote" -> "mapping-consecutive.no-promote":
# each option with its value joined by '-', options joined by '.', leading
# dashes dropped, characters other than [A-Za-z0-9_-] replaced by '_'.
flag_suffix() {
  local out="" cur="" w
  for w in $1; do
    case $w in
      -*) [ -n "$cur" ] && out="$out${out:+.}$cur"; cur=${w#-}; cur=${cur#-} ;;
      *) cur="$cur${cur:+-}$w" ;;
    esac
  done
  [ -n "$cur" ] && out="$out${out:+.}$cur"
  printf '%s' "$out" | tr -c 'A-Za-z0-9_.-' '_'
}

# kernel_name FILE: the name of the kernel after the first `#pragma tfuse coarsen`.
kernel_name() {
  awk '/^[ \t]*#[ \t]*pragma[ \t]+tfuse[ \t]+coarsen/ { want = 1; next }
       want && /__global__/ {
         s = $0; gsub(/__launch_bounds__[ \t]*\([^)]*\)/, "", s)
         if (match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
           s = substr(s, RSTART, RLENGTH); sub(/[ \t]*\($/, "", s); print s; exit
         }
       }' "$1"
}

rm -rf "$work"
mkdir -p "$work/src"
if [ -d "$samples/common" ]; then
  cp -R "$samples/common" "$work/common"
fi
cp "$root/scripts/plot-speedup.py" "$work/plot-speedup.py"
jobs="$work/jobs.txt"
: >"$jobs"
# Each line of samples/samples.txt: <name> <mode> <dim> <args-default> | <args-odd> [| <tfuse flags>]
lines=()
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  lines+=("$line")
done <"$samples/samples.txt"

nrefused=0
for line in "${lines[@]}"; do
  IFS='|' read -r head oddargs flags <<<"$line"
  read -r name mode dim defargs <<<"$head"
  oddargs=$(echo "$oddargs" | xargs)
  flags=$(echo "${flags:-}" | xargs)
  src="$samples/$name/$name.cu"
  [ -f "$src" ] || { echo "gpu-check: samples.txt names $name, but $src is missing" >&2; exit 1; }
  kernel=$(kernel_name "$src")
  [ -n "$kernel" ] || { echo "gpu-check: no '#pragma tfuse coarsen' kernel found in $src" >&2; exit 1; }
  variant="$mode.$dim"
  suffix=$(flag_suffix "$flags")
  [ -n "$suffix" ] && variant="$variant.$suffix"
  [ -f "$work/src/$name.orig.cu" ] || cp "$src" "$work/src/$name.orig.cu"
  for k in $factors; do
    id="$name.$variant.k$k"
    # shellcheck disable=SC2086  # the flags are words
    if "$tfuse" -factor "$k" -mode "$mode" -dim "$dim" $flags "$src" \
        -o "$work/src/$id.cu" 2>"$work/src/$id.tfuse.log"; then
      status=OK
      [ -s "$work/src/$id.tfuse.log" ] || rm -f "$work/src/$id.tfuse.log"
    else
      echo "gpu-check: tfuse refused $id:" >&2
      sed 's/^/    /' "$work/src/$id.tfuse.log" >&2
      status=REFUSED
      nrefused=$((nrefused + 1))
    fi
    echo "$id|$name|$kernel|$variant|$k|$status|$oddargs|$defargs" >>"$jobs"
  done
done

# ---- factors along two dimensions (tfuse -factor KX,KY -dim x,y), and the
# cuBLAS reference: rows of the same table, K written KXxKY (variant
# block.xy); the sizes are those of the sample's first line in samples.txt.
# The cuBLAS row (matmul.cublas) is the matmul sample with its launch
# replaced by cublasSgemm (linked with -lcublas: src/ID.ldflags); its data
# makes every sum exact, so its output is bit-identical to the kernel's too.
# A row may end in "| tfuse flags" (its variant name then says them:
# block.xy.layout-interleaved).
multi_rows=(
  "matmul block x,y 2,2 2,4 4,2 4,4 4,8 8,4 8,8"
  "matmul block x,y 4,4 4,8 8,4 8,8 | -layout interleaved"
  "matmul thread x,y 2,2 2,4 4,2 4,4"
  "dcs block x,y 2,2 2,4 4,2 4,4"
)
for spec in "${multi_rows[@]}"; do
  IFS='|' read -r spec mflags <<<"$spec"
  mflags=$(echo "${mflags:-}" | xargs)
  read -r name mode dims mfactors <<<"$spec"
  line=$(printf '%s\n' "${lines[@]}" | awk -v n="$name" '$1 == n { print; exit }')
  [ -n "$line" ] || { echo "gpu-check: samples.txt has no line for $name; its 2-D rows are left out" >&2; continue; }
  IFS='|' read -r head oddargs _ <<<"$line"
  read -r _ _ _ defargs <<<"$head"
  oddargs=$(echo "$oddargs" | xargs)
  src="$samples/$name/$name.cu"
  kernel=$(kernel_name "$src")
  variant="$mode.${dims//,/}"
  suffix=$(flag_suffix "$mflags")
  [ -n "$suffix" ] && variant="$variant.$suffix"
  [ -f "$work/src/$name.orig.cu" ] || cp "$src" "$work/src/$name.orig.cu"
  for f in $mfactors; do
    k=${f//,/x}
    id="$name.$variant.k$k"
    # shellcheck disable=SC2086  # the flags are words
    if "$tfuse" -factor "$f" -mode "$mode" -dim "$dims" $mflags "$src" -o "$work/src/$id.cu" 2>"$work/src/$id.tfuse.log"; then
      status=OK
      [ -s "$work/src/$id.tfuse.log" ] || rm -f "$work/src/$id.tfuse.log"
    else
      echo "gpu-check: tfuse refused $id:" >&2
      sed 's/^/    /' "$work/src/$id.tfuse.log" >&2
      status=REFUSED
      nrefused=$((nrefused + 1))
    fi
    echo "$id|$name|$kernel|$variant|$k|$status|$oddargs|$defargs" >>"$jobs"
  done
done
mline=$(printf '%s\n' "${lines[@]}" | awk '$1 == "matmul" { print; exit }')
if [ -n "$mline" ] && [ -f "$samples/matmul/matmul.cu" ]; then
  IFS='|' read -r head oddargs _ <<<"$mline"
  read -r _ _ _ defargs <<<"$head"
  oddargs=$(echo "$oddargs" | xargs)
  id=matmul.cublas
  # C = A B row-major is C^T = B^T A^T column-major: cublasSgemm(n, m, k, B, A).
  if awk '
      /^#include <cuda_runtime.h>/ { print; print "#include <cublas_v2.h>"; next }
      /matmul<<<dimGrid, dimBlock>>>\(p->A, p->B, p->C, p->m, p->n, p->k\);/ {
        print "    static cublasHandle_t h; if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, \"cublasCreate failed\\n\"); exit(1); }"
        print "    const float one = 1.0f, zero = 0.0f; (void)dimGrid; (void)dimBlock;"
        print "    if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, p->n, p->m, p->k, &one, p->B, p->n, p->A, p->k, &zero, p->C, p->n) != CUBLAS_STATUS_SUCCESS) { fprintf(stderr, \"cublasSgemm failed\\n\"); exit(1); }"
        done = 1; next }
      { print }
      END { if (!done) exit 3 }' "$samples/matmul/matmul.cu" >"$work/src/$id.cu"; then
    echo "-lcublas" >"$work/src/$id.ldflags"
    status=OK
  else
    echo "gpu-check: cannot find matmul's launch in samples/matmul/matmul.cu; the cuBLAS row is left out" >&2
    status=REFUSED
    echo "cannot find matmul's launch line to replace with cublasSgemm" >"$work/src/$id.tfuse.log"
  fi
  echo "$id|matmul|matmul|cublas.sgemm|-|$status|$oddargs|$defargs" >>"$jobs"
fi

# ---- the -check section (tfuse -check: the original beside the coarsened
# kernel, every launch compared at run time) ----------------------------------
checknote=""
if [ "$checksec" = 1 ]; then
  probe="$work/check-probe.cu"
  if ! "$tfuse" -check -factor 4 "$samples/vecadd/vecadd.cu" -o "$probe" >"$probe.log" 2>&1; then
    checknote="tfuse -check does not work yet ($(head -n 1 "$probe.log")); -check section skipped"
  elif [ ! -f "$root/runtime/src/check.cpp" ] || [ ! -f "$root/runtime/include/tfuse/check.h" ]; then
    checknote="runtime/src/check.cpp or runtime/include/tfuse/check.h is missing; -check section skipped"
  fi
  rm -f "$probe" "$probe.log"
fi
if [ "$checksec" = 1 ] && [ -z "$checknote" ]; then
  mkdir -p "$work/check" "$work/runtime/src" "$work/runtime/include/tfuse"
  cp "$root/runtime/src/check.cpp" "$root/runtime/src/snapshot.h" "$root/runtime/src/compare_ptx.h" "$work/runtime/src/"
  cp "$root"/runtime/include/tfuse/*.h "$work/runtime/include/tfuse/"
  cjobs="$work/check/jobs.txt"
  : >"$cjobs"
  for line in "${lines[@]}"; do
    IFS='|' read -r head oddargs flags <<<"$line"
    read -r name mode dim defargs <<<"$head"
    oddargs=$(echo "$oddargs" | xargs)
    flags=$(echo "${flags:-}" | xargs)
    variant="$mode.$dim"
    suffix=$(flag_suffix "$flags")
    [ -n "$suffix" ] && variant="$variant.$suffix"
    id="$name.$variant.k4"
    # shellcheck disable=SC2086
    if "$tfuse" -check -factor 4 -mode "$mode" -dim "$dim" $flags "$samples/$name/$name.cu" \
        -o "$work/check/$id.cu" 2>"$work/check/$id.tfuse.log"; then
      echo "$id|$name|expect-pass|$oddargs" >>"$cjobs"
      [ -s "$work/check/$id.tfuse.log" ] || rm -f "$work/check/$id.tfuse.log"
    else
      echo "gpu-check: tfuse -check refused $id:" >&2
      sed 's/^/    /' "$work/check/$id.tfuse.log" >&2
      echo "$id|$name|REFUSED|$oddargs" >>"$cjobs"
    fi
  done
  # The planted variant: vecadd's store in the reference copy vecadd__tf_orig
  # is made wrong (+ 1.0f), so the run-time comparison must report mismatches.
  base="$work/check/vecadd.block.x.k4.cu"
  [ -f "$base" ] || { echo "gpu-check: $base was not written; cannot plant the wrong variant" >&2; exit 1; }
  awk '
    !done && !infn && /vecadd__tf_orig[ \t]*\(/ && !/<<</ && !/;[ \t]*$/ { infn = 1 }
    infn && !done && index($0, "c[i] = a[i] + b[i];") {
      sub(/c\[i\] = a\[i\] \+ b\[i\];/, "c[i] = a[i] + b[i] + 1.0f; /* planted by gpu-check.sh */")
      done = 1
    }
    infn && /^}/ { infn = 0 }
    { print }
    END { if (!done) exit 3 }
  ' "$base" >"$work/check/vecadd.planted.cu" || {
    echo "gpu-check: cannot plant the difference: no 'c[i] = a[i] + b[i];' inside vecadd__tf_orig in $base" >&2
    exit 1
  }
  oddv=$(awk -F'|' '$2 == "vecadd" { print $4; exit }' "$cjobs")
  echo "vecadd.planted|vecadd|expect-mismatch|$oddv" >>"$cjobs"
  # The check runtime's own GPU test, at the same place relative to runtime/
  # as in the repository (its run.sh finds runtime/ at ../../..).
  if [ -f "$root/test/gpu/check-runtime/run.sh" ]; then
    mkdir -p "$work/test/gpu"
    cp -R "$root/test/gpu/check-runtime" "$work/test/gpu/check-runtime"
  fi
fi
[ -n "$checknote" ] && echo "gpu-check: note: $checknote" >&2

# ---- the auto section (tfuse -factor auto: each line's kernel with every
# candidate, the choice made at run time by the tuning runtime) ---------------
autonote=""
if [ "$autosec" = 1 ]; then
  probe="$work/auto-probe.cu"
  if [ ! -f "$root/runtime/src/tune.cpp" ] || [ ! -f "$root/runtime/include/tfuse/tune.h" ]; then
    autonote="runtime/src/tune.cpp or runtime/include/tfuse/tune.h is missing; auto section skipped"
  elif ! "$tfuse" -factor auto "$samples/vecadd/vecadd.cu" -o "$probe" >"$probe.log" 2>&1; then
    autonote="tfuse -factor auto does not work ($(head -n 1 "$probe.log")); auto section skipped"
  fi
  rm -f "$probe" "$probe.log"
fi
if [ "$autosec" = 1 ] && [ -z "$autonote" ]; then
  mkdir -p "$work/auto" "$work/runtime/src" "$work/runtime/include/tfuse"
  cp "$root/runtime/src/tune.cpp" "$root/runtime/src/snapshot.h" "$root/runtime/src/wisdom.h" "$work/runtime/src/"
  cp "$root"/runtime/include/tfuse/*.h "$work/runtime/include/tfuse/"
  ajobs="$work/auto/jobs.txt"
  : >"$ajobs"
  for line in "${lines[@]}"; do
    IFS='|' read -r head oddargs flags <<<"$line"
    read -r name mode dim defargs <<<"$head"
    oddargs=$(echo "$oddargs" | xargs)
    flags=$(echo "${flags:-}" | xargs)
    variant="$mode.$dim"
    suffix=$(flag_suffix "$flags")
    [ -n "$suffix" ] && variant="$variant.$suffix"
    id="$name.$variant.auto"
    # The line's mode, dim and flags; the default candidates (K = 2, 4, 8, 16
    # there, the original as K = 1).
    # shellcheck disable=SC2086
    if "$tfuse" -factor auto -mode "$mode" -dim "$dim" $flags "$samples/$name/$name.cu" \
        -o "$work/auto/$id.cu" 2>"$work/auto/$id.tfuse.log"; then
      status=OK
      [ -s "$work/auto/$id.tfuse.log" ] || rm -f "$work/auto/$id.tfuse.log"
    else
      echo "gpu-check: tfuse -factor auto refused $id:" >&2
      sed 's/^/    /' "$work/auto/$id.tfuse.log" >&2
      status=REFUSED
    fi
    echo "$id|$name|$(kernel_name "$samples/$name/$name.cu")|$variant|$status|$oddargs|$defargs" >>"$ajobs"
  done
  # The planted candidate: in vecadd's block-mode auto file, the store of the
  # first logical block in vecadd__tf_bx16 (candidate block.x:16, the fastest
  # on the H200) gets + 1.0f: tuning must disqualify it and never run it.
  base="$work/auto/vecadd.block.x.auto.cu"
  [ -f "$base" ] || { echo "gpu-check: $base was not written; cannot plant the wrong candidate" >&2; exit 1; }
  awk '
    !done && !infn && /vecadd__tf_bx16[ \t]*\(/ && !/<<</ && !/;[ \t]*$/ { infn = 1 }
    infn && !done && match($0, /c\[i_[0-9]+\] = a\[i_[0-9]+\] \+ b\[i_[0-9]+\];/) {
      $0 = substr($0, 1, RSTART + RLENGTH - 2) " + 1.0f; /* planted by gpu-check.sh */" substr($0, RSTART + RLENGTH)
      done = 1
    }
    infn && /^}/ { infn = 0 }
    { print }
    END { if (!done) exit 3 }
  ' "$base" >"$work/auto/vecadd.auto.planted.cu" || {
    echo "gpu-check: cannot plant the difference: no 'c[i_N] = a[i_N] + b[i_N];' inside vecadd__tf_bx16 in $base" >&2
    exit 1
  }
  oddv=$(awk -F'|' '$1 == "vecadd.block.x.auto" { print $6; exit }' "$ajobs")
  echo "vecadd.auto.planted|vecadd|vecadd|block.x|PLANTED|$oddv|" >>"$ajobs"
  # The tuning runtime's own GPU test (its run.sh finds runtime/ at ../../..).
  if [ -f "$root/test/gpu/tune-runtime/run.sh" ]; then
    mkdir -p "$work/test/gpu"
    cp -R "$root/test/gpu/tune-runtime" "$work/test/gpu/tune-runtime"
  fi
fi
[ -n "$autonote" ] && echo "gpu-check: note: $autonote" >&2

# ---- run.sh -------------------------------------------------------------------
{
  echo '#!/usr/bin/env bash'
  echo '# shellcheck disable=SC2016,SC2059  # single-quoted bash -c bodies; table formats in variables'
  echo "# Generated by scripts/gpu-check.sh on $(date -u +%Y-%m-%dT%H:%MZ) from commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo "DEFAULT_TIMES=$times"
  echo "CHECK_NOTE='${checknote//\'/}'"
  echo "AUTO_NOTE='${autonote//\'/}'"
  echo "FACTORS='$factors'"
  cat <<'EOF'
#
# usage: bash run.sh [REGEX]
#   On the GPU machine. Compiles every file of src/ (and check/) with nvcc
#   -O3 -arch=sm_90: once with -fmad=false (bin/*.exact, for the bit-exact
#   comparison) and once with default flags and -Xptxas -v (bin/*.fast, for
#   the checks at the default size, the timings, and the registers/spills),
#   plus -ptx (ptx/*.ptx, to count ld.shared). Then for each variant whose id
#   matches REGEX (an extended regex; default all): runs the original and
#   the variant at the odd size with --check --dump and compares the dumps
#   byte for byte, runs the variant at the default size with --check --time N
#   (one warm-up launch, the median of N launches timed with CUDA events),
#   the original likewise once per sample in the same run, and writes one
#   row to out/rows/.  Rows with K written KXxKY coarsen along x and y at
#   once; matmul.cublas (K -) is cuBLAS SGEMM on the same data and sizes.
#   For TFLOP/s of a matmul row: 2*M*N*K / (ms * 1e9). Finally assembles results.csv and table.txt from all
#   rows present (a second call with another REGEX adds to them), runs the
#   -check section if check/ exists, and prints the tables last.
#   The auto section (auto/ exists): each tfuse -factor auto file, linked
#   with the tuning runtime, runs twice at the odd size in the -fmad=false
#   build (a fresh wisdom file: it tunes; then with that file), each dump
#   compared with the original's, and twice at the default size (--check to
#   tune, then --check --time N with the wisdom file, timed as the variants
#   are); auto.csv, auto-keys.csv and auto-table.md compare it with the best
#   fixed K of its line (the rows present), and on vecadd measure the
#   dispatch overhead against the fixed build of the chosen K (OVH_ROUNDS
#   alternating runs of each, default 3).
#   Compilation is skipped for outputs newer than their source, so a call
#   with COMPILE_ONLY=1 (compile, then stop) can go first, beside other work,
#   and the timed call that follows only runs.
# env: NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), TIMES
#   (timed launches, >= 10), ARCH (default sm_90), JOBS (parallel compiles),
#   OVH_ROUNDS (rounds of the vecadd dispatch-overhead measurement, default 3),
#   COMPILE_ONLY (1: stop after compiling).
set -u
cd "$(dirname "$0")" || exit 1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
TIMES=${TIMES:-$DEFAULT_TIMES}
ARCH=${ARCH:-sm_90}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
SEL=${1:-.}
case $TIMES in ''|*[!0-9]*) echo "run.sh: TIMES must be a number >= 10, got '$TIMES'" >&2; exit 2 ;; esac
[ "$TIMES" -ge 10 ] || { echo "run.sh: TIMES=$TIMES: the median needs at least 10 timed runs" >&2; exit 2; }
mkdir -p bin out/rows ptx
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>/dev/null || true
"$NVCC" --version 2>/dev/null | tail -n 2 | head -n 1

# ---- compile (parallel) --------------------------------------------------------
selected() { awk -F'|' -v re="$SEL" '$6 == "OK" && $1 ~ re { print $1 "\n" $2 ".orig" }' jobs.txt | sort -u; }
compile_one() {   # compile_one ID: src/ID.cu -> bin/ID.exact, bin/ID.fast, ptx/ID.ptx
  local id=$1 s=src/$1.cu ld
  ld=$(cat "src/$1.ldflags" 2>/dev/null)   # libraries to link (the cuBLAS row: -lcublas)
  if [ ! -e "bin/$id.exact.ok" ] || [ "$s" -nt "bin/$id.exact.ok" ]; then
    rm -f "bin/$id.exact" "bin/$id.exact.ok"
    # shellcheck disable=SC2086
    "$NVCC" -O3 -arch="$ARCH" -fmad=false -o "bin/$id.exact" "$s" $ld >"bin/$id.exact.log" 2>&1 &&
      touch "bin/$id.exact.ok"
  fi
  if [ ! -e "bin/$id.fast.ok" ] || [ "$s" -nt "bin/$id.fast.ok" ]; then
    rm -f "bin/$id.fast" "bin/$id.fast.ok"
    # shellcheck disable=SC2086
    "$NVCC" -O3 -arch="$ARCH" -Xptxas -v -o "bin/$id.fast" "$s" $ld >"bin/$id.fast.log" 2>&1 &&
      touch "bin/$id.fast.ok"
  fi
  if [ ! -e "ptx/$id.ptx" ] || [ "$s" -nt "ptx/$id.ptx" ]; then
    "$NVCC" -O3 -arch="$ARCH" -ptx -o "ptx/$id.ptx" "$s" >"ptx/$id.log" 2>&1 || rm -f "ptx/$id.ptx"
  fi
}
compile_check() { # compile_check ID: check/ID.cu + the check runtime -> bin/check.ID
  local id=$1 s=check/$1.cu
  if [ ! -e "bin/check.$id.ok" ] || [ "$s" -nt "bin/check.$id.ok" ]; then
    rm -f "bin/check.$id" "bin/check.$id.ok"
    "$NVCC" -O3 -arch="$ARCH" -Iruntime/include -o "bin/check.$id" "$s" runtime/src/check.cpp -lcuda \
      >"bin/check.$id.log" 2>&1 && touch "bin/check.$id.ok"
  fi
}
export -f compile_one compile_check
export NVCC ARCH
start=$(date +%s)
selected | xargs -r -P "$JOBS" -I{} bash -c 'compile_one "$1"' _ {}
if [ -f check/jobs.txt ]; then
  awk -F'|' '$3 != "REFUSED" { print $1 }' check/jobs.txt | xargs -r -P "$JOBS" -I{} bash -c 'compile_check "$1"' _ {}
fi
# The auto builds: auto/ID.cu linked with the tuning runtime (bin/tune.o,
# compiled once), -fmad=false (bin/auto.ID.exact) and default (bin/auto.ID.fast).
compile_auto() {
  local id=$1 s=auto/$1.cu b fl
  for b in exact fast; do
    fl=""; [ "$b" = exact ] && fl=-fmad=false
    if [ ! -e "bin/auto.$id.$b.ok" ] || [ "$s" -nt "bin/auto.$id.$b.ok" ] || [ bin/tune.o -nt "bin/auto.$id.$b.ok" ]; then
      rm -f "bin/auto.$id.$b" "bin/auto.$id.$b.ok"
      # shellcheck disable=SC2086
      "$NVCC" -O3 -arch="$ARCH" $fl -o "bin/auto.$id.$b" "$s" bin/tune.o -lcuda >"bin/auto.$id.$b.log" 2>&1 &&
        touch "bin/auto.$id.$b.ok"
    fi
  done
}
export -f compile_auto
if [ -f auto/jobs.txt ]; then
  if [ ! -e bin/tune.o ] || [ runtime/src/tune.cpp -nt bin/tune.o ] || [ runtime/src/snapshot.h -nt bin/tune.o ] ||
     [ runtime/src/wisdom.h -nt bin/tune.o ] || [ runtime/include/tfuse/tune.h -nt bin/tune.o ]; then
    rm -f bin/tune.o
    "$NVCC" -O3 -c -o bin/tune.o runtime/src/tune.cpp >bin/tune.log 2>&1 || echo "run.sh: the tuning runtime did not compile (bin/tune.log)" >&2
  fi
  [ -e bin/tune.o ] &&
    awk -F'|' -v re="$SEL" '($5 == "OK" || $5 == "PLANTED") && $1 ~ re { print $1 }' auto/jobs.txt |
    xargs -r -P "$JOBS" -I{} bash -c 'compile_auto "$1"' _ {}
fi
: >out/.run-start   # rows newer than this were measured in this call
echo "compiled in $(( $(date +%s) - start )) s"
[ "${COMPILE_ONLY:-0}" = 1 ] && exit 0

# ---- run -----------------------------------------------------------------------
median() { grep -o 'median_ms=[0-9.]*' | tail -n 1 | cut -d= -f2; }
# ptxas_info LOG KERNEL: "registers spill-bytes" of the entry whose mangled
# name is _Z<len><KERNEL>... (or exactly KERNEL for extern "C"), "- -" if absent.
ptxas_info() {
  awk -v k="$2" '
    function setcur(f) { cur = (f == k || index(f, want) == 1); if (cur) seen = 1 }
    BEGIN { want = "_Z" length(k) k; q = "\047" }
    /Compiling entry function/ { f = $0; sub("^[^" q "]*" q, "", f); sub(q ".*", "", f); setcur(f) }
    /Function properties for/ { setcur($NF) }
    cur && /spill stores/ { match($0, /[0-9]+ bytes spill stores/); st = substr($0, RSTART, RLENGTH) + 0
                            match($0, /[0-9]+ bytes spill loads/); ld = substr($0, RSTART, RLENGTH) + 0; sp = st + ld }
    cur && /Used [0-9]+ registers/ { match($0, /Used [0-9]+ registers/); r = substr($0, RSTART + 5, RLENGTH - 15) + 0 }
    END { if (seen && r != "") print r, (sp == "" ? 0 : sp); else print "-", "-" }' "$1" 2>/dev/null || echo "- -"
}
# ld_shared PTX KERNEL: ld.shared instructions in the .entry of KERNEL (the
# whole file when no entry matches), "-" without a PTX file.
ld_shared() {
  [ -f "$1" ] || { echo -; return; }
  awk -v k="$2" '
    BEGIN { want = "_Z" length(k) k }
    /\.entry[ \t]/ { f = $0; sub(/.*\.entry[ \t]+/, "", f); sub(/[ \t(].*/, "", f)
                     cur = (f == k || index(f, want) == 1); if (cur) seen = 1 }
    /ld\.shared/ { all++; if (cur) n++ }
    END { print (seen ? n + 0 : all + 0) }' "$1"
}

declare -A origodd origchk origms origbin
norig=0
orig_run() {   # orig_run NAME ODD DEF: once per sample and sizes in this run
  local name=$1 odd=$2 def=$3 key="$1|$2|$3" o=bin/$1.orig log
  [ -n "${origodd[$key]:-}" ] && return
  norig=$((norig + 1))
  log=out/$name.orig.$norig.log
  origbin[$key]=out/$name.orig.$norig.odd.bin
  origodd[$key]=FAIL; origchk[$key]=FAIL; origms[$key]=-
  if [ ! -x "$o.exact" ] || [ ! -x "$o.fast" ]; then
    origodd[$key]=COMPILE-FAIL; return
  fi
  # shellcheck disable=SC2086
  "$o.exact" $odd --check --dump "${origbin[$key]}" >"$log" 2>&1 </dev/null && origodd[$key]=PASS
  # shellcheck disable=SC2086
  "$o.fast" $def --check --time "$TIMES" >"$log.def" 2>&1 </dev/null && origchk[$key]=PASS
  origms[$key]=$(median <"$log.def"); origms[$key]=${origms[$key]:--}
  cat "$log.def" >>"$log"; rm -f "$log.def"
}

hdr="kernel,variant,k,id,check,odd_bitexact,odd_check,default_check,orig_ms,tfuse_ms,speedup,regs,spill_bytes,ld_shared,orig_check,note"
# csvtext FILE...: the first error line of the files, fit for one CSV field
first_error() { grep -h -i -m 1 'error' "$@" 2>/dev/null | head -n 1 | tr ',"' ';_' | cut -c 1-160; }
nrun=0
while IFS='|' read -r id name kernel variant k status odd def; do
  [[ $id =~ $SEL ]] || continue
  nrun=$((nrun + 1))
  row=out/rows/$id.csv
  if [ "$status" = REFUSED ]; then
    echo "$name,$variant,$k,$id,REFUSED,-,-,-,-,-,-,-,-,-,-,refused by tfuse: $(first_error "src/$id.tfuse.log")" >"$row"; continue
  fi
  key="$name|$odd|$def"
  orig_run "$name" "$odd" "$def"
  ochk=${origodd[$key]}/${origchk[$key]}
  if [ "${origodd[$key]}" = COMPILE-FAIL ]; then
    echo "$name,$variant,$k,$id,ORIG-COMPILE-FAIL,-,-,-,-,-,-,-,-,-,$ochk,original: $(first_error "bin/$name.orig.exact.log" "bin/$name.orig.fast.log")" >"$row"; continue
  fi
  c=bin/$id
  read -r regs spill < <(ptxas_info "$c.fast.log" "$kernel")
  lds=$(ld_shared "ptx/$id.ptx" "$kernel")
  if [ ! -x "$c.exact" ] || [ ! -x "$c.fast" ]; then
    echo "$name,$variant,$k,$id,COMPILE-FAIL,-,-,-,${origms[$key]},-,-,$regs,$spill,$lds,$ochk,$(first_error "$c.exact.log" "$c.fast.log")" >"$row"; continue
  fi
  log=out/$id.log
  cmpres=DIFF; oddchk=FAIL; defchk=FAIL
  # shellcheck disable=SC2086
  "$c.exact" $odd --check --dump "out/$id.odd.bin" >"$log" 2>&1 </dev/null && oddchk=PASS
  if [ -f "${origbin[$key]}" ] && [ -f "out/$id.odd.bin" ] && cmp -s "${origbin[$key]}" "out/$id.odd.bin"; then
    cmpres=IDENT
  fi
  rm -f "out/$id.odd.bin"
  # shellcheck disable=SC2086
  "$c.fast" $def --check --time "$TIMES" >"$log.def" 2>&1 </dev/null && defchk=PASS
  ct=$(median <"$log.def"); ct=${ct:--}
  cat "$log.def" >>"$log"; rm -f "$log.def"
  ot=${origms[$key]}
  sp=$(awk -v a="$ot" -v b="$ct" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
  chk=FAIL; note="odd-size output $cmpres; odd-size check $oddchk; default-size check $defchk (out/$id.log)"
  if [ "$cmpres" = IDENT ] && [ "$oddchk" = PASS ] && [ "$defchk" = PASS ]; then chk=PASS; note=""; fi
  echo "$name,$variant,$k,$id,$chk,$cmpres,$oddchk,$defchk,$ot,$ct,$sp,$regs,$spill,$lds,$ochk,$note" >"$row"
done <jobs.txt

# ---- the auto rows (tfuse -factor auto) -----------------------------------------
# tune_keys LOG: one line per key that LOG's run tuned (TFUSE_TUNE_REPORT=1):
# "kernel|grid|block|smem|chosen|ms|launches", grid and block as XxYxZ.
tune_keys() {
  awk '
    /^tfuse-tune: kernel .*SMs\):$/ {
      k = g = b = s = "?"
      if (match($0, /kernel \047[^\047]*\047 at/)) k = substr($0, RSTART + 8, RLENGTH - 12)
      if (match($0, /grid \([0-9,]+\)/)) g = substr($0, RSTART + 6, RLENGTH - 7)
      if (match($0, /block \([0-9,]+\)/)) b = substr($0, RSTART + 7, RLENGTH - 8)
      if (match($0, /smem [0-9]+/)) s = substr($0, RSTART + 5, RLENGTH - 5)
      gsub(/,/, "x", g); gsub(/,/, "x", b)
    }
    /^tfuse-tune:   chose [^ ]*; tuning took [0-9.]+ ms and [0-9]+ launches/ {
      split($0, w, " "); lab = w[3]; sub(/;$/, "", lab)
      print k "|" g "|" b "|" s "|" lab "|" w[6] "|" w[9]
    }' "$1" 2>/dev/null
}
# label_k LABEL: the factor of a candidate label ("block.x:8" -> 8, "original" -> 1)
label_k() { case $1 in original) echo 1 ;; *:*) echo "${1##*:}" ;; *) echo - ;; esac; }
med() {
  sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2); else print "-" }'
}
OVH_ROUNDS=${OVH_ROUNDS:-3}
# alternate BIN LOG: OVH_ROUNDS rounds of the fixed build BIN then the auto build of the line being
# measured ($a.fast with its wisdom file $wf), at the default size ($def), --time $TIMES each; the
# rounds' medians go to LOG.fixed and LOG.auto, and fm and am are set to the median of each.
alternate() {
  : >"$2.fixed"; : >"$2.auto"
  for ((r = 0; r < OVH_ROUNDS; r++)); do
    # shellcheck disable=SC2086
    "$1" $def --time "$TIMES" </dev/null 2>&1 | median >>"$2.fixed"
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$wf "$a.fast" $def --time "$TIMES" </dev/null 2>&1 | median >>"$2.auto"
  done
  fm=$(med <"$2.fixed"); am=$(med <"$2.auto")
}
ahdr="kernel,variant,id,check,odd_bitexact,odd_check,default_check,wisdom_used,orig_ms,auto_ms,best_k,best_k_ms,auto_over_best,chosen,keys,tune_ms,tune_launches,winner_k_ms,overhead_pct,overhead_paired_pct,paired_over_best,note"
mkdir -p out/auto out/auto-rows
nauto=0
if [ -f auto/jobs.txt ]; then
  while IFS='|' read -r id name kernel variant status odd def; do
    [[ $id =~ $SEL ]] || continue
    [ "$status" = PLANTED ] && continue
    nauto=$((nauto + 1))
    row=out/auto-rows/$id.csv
    rm -f "out/auto-rows/$id.keys"
    if [ "$status" = REFUSED ]; then
      echo "$name,$variant,$id,REFUSED,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,-,refused by tfuse: $(first_error "auto/$id.tfuse.log")" >"$row"; continue
    fi
    key="$name|$odd|$def"
    orig_run "$name" "$odd" "$def"
    ot=${origms[$key]}
    a=bin/auto.$id
    if [ "${origodd[$key]}" = COMPILE-FAIL ] || [ ! -x "$a.exact" ] || [ ! -x "$a.fast" ]; then
      echo "$name,$variant,$id,COMPILE-FAIL,-,-,-,-,$ot,-,-,-,-,-,-,-,-,-,-,-,-,$(first_error "$a.exact.log" "$a.fast.log" bin/tune.log "bin/$name.orig.exact.log")" >"$row"; continue
    fi
    log=out/auto/$id
    we=out/auto/$id.exact.wisdom wf=out/auto/$id.wisdom
    rm -f "$we" "$wf"
    # odd size, -fmad=false build: tune (fresh wisdom), then with the wisdom
    cmp1=DIFF cmp2=DIFF oc1=FAIL oc2=FAIL dc1=FAIL dc2=FAIL
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$we TFUSE_TUNE_REPORT=1 "$a.exact" $odd --check --dump "$log.odd1.bin" >"$log.odd1.log" 2>&1 </dev/null && oc1=PASS
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$we TFUSE_TUNE_REPORT=1 "$a.exact" $odd --check --dump "$log.odd2.bin" >"$log.odd2.log" 2>&1 </dev/null && oc2=PASS
    [ -f "${origbin[$key]}" ] && cmp -s "${origbin[$key]}" "$log.odd1.bin" && cmp1=IDENT
    [ -f "${origbin[$key]}" ] && cmp -s "${origbin[$key]}" "$log.odd2.bin" && cmp2=IDENT
    rm -f "$log.odd1.bin" "$log.odd2.bin"
    # default size, default build: tune, then timed with the wisdom as the variants are
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$wf TFUSE_TUNE_REPORT=1 "$a.fast" $def --check >"$log.tune.log" 2>&1 </dev/null && dc1=PASS
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$wf TFUSE_TUNE_REPORT=1 "$a.fast" $def --check --time "$TIMES" >"$log.time.log" 2>&1 </dev/null && dc2=PASS
    at=$(median <"$log.time.log"); at=${at:--}
    # The second runs must take every decision from the wisdom file.
    retuned=$(cat "$log.odd2.log" "$log.time.log" | grep -c '^tfuse-tune:   chose ')
    fromw=$(grep -c 'from the wisdom file' "$log.time.log")
    wused=yes
    if [ "$retuned" -gt 0 ] || [ "$fromw" -eq 0 ]; then
      wused="no ($retuned keys tuned again; $fromw from the wisdom file)"
    fi
    # what the first default-size run tuned, per key
    tune_keys "$log.tune.log" | sed "s/^/$id|/" >"out/auto-rows/$id.keys"
    read -r nkeys tms tl < <(awk -F'|' '{ n++; ms += $7; l += $8 } END { printf "%d %.1f %d\n", n, ms, l }' "out/auto-rows/$id.keys")
    [ "$nkeys" -gt 0 ] || { tms=-; tl=-; }
    chosen=$( { [ -f "$wf" ] && awk -F'\t' 'NR > 1 { print $8 }' "$wf"; } | sort -u | tr '\n' ' ' | sed 's/ $//')
    chosen=${chosen:--}
    # the best fixed K of this line (its rows, this call or an earlier one)
    read -r bk bms < <(cat out/rows/"$name.$variant".k*.csv 2>/dev/null |
      awk -F, -v v="$variant" '$2 == v && $5 == "PASS" && $10 + 0 > 0 && (b == "" || $10 + 0 < b + 0) { b = $10; k = $3 }
                               END { if (b != "") print k, b; else print "-", "-" }')
    note=""
    for f in out/rows/"$name.$variant".k*.csv; do
      [ -f "$f" ] && [ ! "$f" -nt out/.run-start ] && { note="fixed-K rows from an earlier run.sh call; "; break; }
    done
    ratio=$(awk -v a="$at" -v b="$bms" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
    # Candidates the tuner disqualified (their output in this build differs from the original's, as
    # nvcc may contract a*b+c into FMAs differently in a coarsened kernel): the best fixed K among
    # the others is what auto can reach; both ratios are reported.
    dq=$(sed -n "s/^tfuse-tune:   \([^ ]*\) .* disqualified: .*/\1/p" "$log.tune.log" | sort -u | tr '\n' ' ' | sed 's/ $//')
    if [ -n "$dq" ]; then
      dqk=" $(for l in $dq; do label_k "$l"; done | tr '\n' ' ')"
      read -r ak ams < <(cat out/rows/"$name.$variant".k*.csv 2>/dev/null |
        awk -F, -v v="$variant" -v dq="$dqk" '$2 == v && $5 == "PASS" && $10 + 0 > 0 && index(dq, " " $3 " ") == 0 &&
                                              (b == "" || $10 + 0 < b + 0) { b = $10; k = $3 }
                                              END { if (b != "") print k, b; else print "-", "-" }')
      note="${note}disqualified by the tuner in the default build (output differs from the original's): $dq; best accepted fixed K=$ak $ams ms, auto / that $(awk -v a="$at" -v b="$ams" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }'); "
    fi
    # the fixed build of the chosen K (one decision for every key): same-run time, and on vecadd paired rounds
    wk=-; wms=-; ovh=-; povh=-
    case $chosen in *' '*|-) ;; *) wk=$(label_k "$chosen") ;; esac
    if [ "$wk" != - ]; then
      wrow=out/rows/$name.$variant.k$wk.csv
      wbin=bin/$name.$variant.k$wk.fast
      if [ -f "$wrow" ]; then
        wms=$(awk -F, '$5 == "PASS" { print $10 }' "$wrow")
      elif [ "$wk" = 1 ]; then
        wms=$ot; wbin=bin/$name.orig.fast
      fi
      wms=${wms:--}
      ovh=$(awk -v a="$at" -v b="$wms" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.2f", 100 * (a - b) / b; else print "-" }')
      if [ "$name" = vecadd ] && [ -x "$wbin" ] && [ "$wused" = yes ]; then
        alternate "$wbin" "$log.ovh"
        povh=$(awk -v a="$am" -v b="$fm" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%+.2f", 100 * (a - b) / b; else print "-" }')
        echo "fixed $wbin: $(tr '\n' ' ' <"$log.ovh.fixed")-> median $fm; auto: $(tr '\n' ' ' <"$log.ovh.auto")-> median $am" >"$log.ovh.log"
      fi
    fi
    # Where auto trails the best fixed K it may take (the best accepted one where the tuner disqualified
    # some) by more than 1% in the one-shot times above, which on kernels of tens of microseconds differ by
    # a few percent from run to run: OVH_ROUNDS alternating runs of that fixed build and the auto build
    # (wisdom present), the ratio of their medians.
    pk=$bk; pms=$bms; pair=-
    [ -n "$dq" ] && { pk=$ak; pms=$ams; }
    if [ "$pk" != - ] && [ "$wused" = yes ] && awk -v a="$at" -v b="$pms" 'BEGIN { exit !(a + 0 > 0 && b + 0 > 0 && a / b > 1.01) }'; then
      pbin=bin/$name.$variant.k$pk.fast
      [ "$pk" = 1 ] && [ ! -x "$pbin" ] && pbin=bin/$name.orig.fast
      if [ -x "$pbin" ]; then
        alternate "$pbin" "$log.pair"
        pair=$(awk -v a="$am" -v b="$fm" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", a / b; else print "-" }')
        note="${note}one-shot auto / K=$pk $(awk -v a="$at" -v b="$pms" 'BEGIN { printf "%.3f", a / b }'); $OVH_ROUNDS alternating rounds: fixed K=$pk $(tr '\n' ' ' <"$log.pair.fixed")-> $fm ms, auto $(tr '\n' ' ' <"$log.pair.auto")-> $am ms, auto / K=$pk $pair; "
      fi
    fi
    chk=FAIL
    if [ "$cmp1$cmp2" = IDENTIDENT ] && [ "$oc1$oc2$dc1$dc2" = PASSPASSPASSPASS ] && [ "$wused" = yes ]; then
      chk=PASS
    else
      note="${note}odd-size output $cmp1/$cmp2; odd-size check $oc1/$oc2; default-size check $dc1/$dc2 (tune/wisdom runs; $log.*.log); "
    fi
    echo "$name,$variant,$id,$chk,$cmp1/$cmp2,$oc1/$oc2,$dc1/$dc2,$wused,$ot,$at,$bk,$bms,$ratio,$chosen,$nkeys,$tms,$tl,$wms,$ovh,$povh,$pair,${note%; }" >"$row"
  done <auto/jobs.txt
fi
# The planted candidate (vecadd block.x:16 wrong) and the tuning runtime's own test.
if [ -f auto/jobs.txt ] && grep -q '^vecadd\.auto\.planted|' auto/jobs.txt && [[ vecadd.auto.planted =~ $SEL ]]; then
  IFS='|' read -r _ _ _ _ _ podd _ < <(grep '^vecadd\.auto\.planted|' auto/jobs.txt)
  IFS='|' read -r _ _ _ _ _ _ pdef < <(grep '^vecadd\.block\.x\.auto|' auto/jobs.txt)
  pl=out/auto/vecadd.auto.planted
  if [ ! -x bin/auto.vecadd.auto.planted.exact ]; then
    res="FAIL (COMPILE-FAIL, bin/auto.vecadd.auto.planted.exact.log)"
  else
    orig_run vecadd "$podd" "$pdef"
    rm -f "$pl.wisdom"
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$pl.wisdom TFUSE_TUNE_REPORT=1 bin/auto.vecadd.auto.planted.exact $podd --check --dump "$pl.1.bin" \
      >"$pl.1.log" 2>&1 </dev/null; rc1=$?
    # shellcheck disable=SC2086
    TFUSE_WISDOM=$pl.wisdom TFUSE_TUNE_REPORT=1 bin/auto.vecadd.auto.planted.exact $podd --check --dump "$pl.2.bin" \
      >"$pl.2.log" 2>&1 </dev/null; rc2=$?
    ob=${origbin[vecadd|$podd|$pdef]}
    c1=DIFF; c2=DIFF
    [ -f "$ob" ] && cmp -s "$ob" "$pl.1.bin" && c1=IDENT
    [ -f "$ob" ] && cmp -s "$ob" "$pl.2.bin" && c2=IDENT
    rm -f "$pl.1.bin" "$pl.2.bin"
    disq=$(grep -c "^tfuse-tune: *block\.x:16 .*disqualified: .* of argument 'c' differ" "$pl.1.log")
    ch1=$(tune_keys "$pl.1.log" | cut -d'|' -f5 | tr '\n' ' ' | sed 's/ $//')
    ch2=$( { [ -f "$pl.wisdom" ] && awk -F'\t' 'NR > 1 { print $8 }' "$pl.wisdom"; } | tr '\n' ' ' | sed 's/ $//')
    if [ "$disq" -ge 1 ] && [ -n "$ch1" ] && [ "$ch1" != block.x:16 ] && [ "$ch2" = "$ch1" ] && [ $rc1 -eq 0 ] &&
       [ $rc2 -eq 0 ] && [ "$c1$c2" = IDENTIDENT ]; then
      res="PASS (block.x:16 disqualified; chose $ch1; output identical to the original's in both runs)"
    else
      res="FAIL (disqualified lines $disq, chose '${ch1:-none}' then '${ch2:-none}', exit $rc1/$rc2, output $c1/$c2; $pl.*.log)"
    fi
  fi
  echo "$res" >out/auto-rows/planted.txt
fi
if [ -f auto/jobs.txt ] && [ -f test/gpu/tune-runtime/run.sh ]; then
  NVCC="$NVCC" bash test/gpu/tune-runtime/run.sh >out/tune-runtime.log 2>&1 </dev/null; rc=$?
  if [ $rc -eq 0 ] && grep -q '^tune-runtime: PASS' out/tune-runtime.log; then
    echo PASS >out/auto-rows/tune-runtime.txt
  else
    echo "FAIL (exit $rc: $(grep '^tune-runtime:' out/tune-runtime.log | tail -n 1); out/tune-runtime.log)" >out/auto-rows/tune-runtime.txt
  fi
fi
rm -f out/*.orig.*.odd.bin

# ---- results.csv and table.txt, from every row present -------------------------
echo "$hdr" >results.csv
while IFS='|' read -r id _; do
  [ -f "out/rows/$id.csv" ] && cat "out/rows/$id.csv" >>results.csv
done <jobs.txt
fmt='%-12s %-28s %3s %10s %10s %8s %-17s %5s %6s %9s\n'
{
  printf "$fmt" kernel variant K tfuse-ms orig-ms speedup check regs spill ld.shared
  tail -n +2 results.csv | while IFS=, read -r kern var k _id chk _cmp _oc _dc ot ct sp regs spill lds _och _note; do
    printf "$fmt" "$kern" "$var" "$k" "$ct" "$ot" "$sp" "$chk" "$regs" "$spill" "$lds"
  done
  tail -n +2 results.csv | awk -F, '$16 != "" { if (!n++) print "notes:"; print "  " $4 ": " $16 }'
} >table.txt

# ---- auto.csv, auto-keys.csv and auto-table.md, from every auto row present --------
if [ -f auto/jobs.txt ]; then
  echo "$ahdr" >auto.csv
  echo "id,kernel,grid,block,smem,chosen,tune_ms,tune_launches" >auto-keys.csv
  while IFS='|' read -r id _; do
    [ -f "out/auto-rows/$id.csv" ] && cat "out/auto-rows/$id.csv" >>auto.csv
    [ -f "out/auto-rows/$id.keys" ] && tr '|' ',' <"out/auto-rows/$id.keys" >>auto-keys.csv
  done <auto/jobs.txt
  {
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
    echo "tfuse -factor auto against the fixed factors on ${gpu:-an unnamed GPU}," \
      "median ms of $TIMES launches (default size, fast build); auto: the second run, with the wisdom file of the first;" \
      "tuning: the first run's cost (sum over its keys); check: both runs' odd-size output identical to the original's" \
      "(-fmad=false) and the sample's checks passing at both sizes, the second runs using the wisdom file only."
    echo
    h="| sample line | original |"; s="| --- | --- |"
    for k in $FACTORS; do h="$h K=$k |"; s="$s --- |"; done
    echo "$h auto | auto / best K | chosen | tuning | check |"
    echo "$s --- | --- | --- | --- | --- |"
    tail -n +2 auto.csv | while IFS=, read -r name var _id chk _ _ _ _ ot at bk bms ratio chosen nkeys tms tl _ _ _ pair _; do
      cells=""
      for k in $FACTORS; do
        c=$(awk -F, '{ print ($5 == "PASS" ? $10 : $5) }' "out/rows/$name.$var.k$k.csv" 2>/dev/null)
        cells="$cells ${c:--} |"
      done
      tune=-; [ "$tms" != - ] && tune="$tms ms, $tl launches ($nkeys keys)"
      [ "$nkeys" = 1 ] && tune="$tms ms, $tl launches"
      paired=; [ "$pair" != - ] && [ -n "$pair" ] && paired="; alternating rounds $pair"
      echo "| $name $var | $ot |$cells $at | $ratio (K=$bk)$paired | $chosen | $tune | $chk |"
    done
    echo
    tail -n +2 auto.csv | awk -F, '$20 != "-" && $20 != "" {
      printf "Dispatch overhead, %s (wisdom present, chose %s): %s%% of the fixed K build of the same factor", $3, $14, $20
      printf " (%s alternating rounds, median ms each); same-run rows: auto %s ms, fixed %s ms (%s%%)\n", ovr, $10, $18, $19
    }' ovr="$OVH_ROUNDS"
    [ -f out/auto-rows/planted.txt ] && echo "Planted wrong candidate (vecadd block.x:16): $(cat out/auto-rows/planted.txt)"
    [ -f out/auto-rows/tune-runtime.txt ] && echo "test/gpu/tune-runtime: $(cat out/auto-rows/tune-runtime.txt)"
    tail -n +2 auto.csv | awk -F, '{ n0 = $0; for (i = 0; i < 21; i++) sub(/^[^,]*,/, "", n0) } NF > 21 && n0 != "" { if (!n++) print "notes:"; print "  " $3 ": " n0 }'
  } >auto-table.md
fi

# ---- the -check section ----------------------------------------------------------
: >check-table.txt
cpass=0; cfail=0
if [ -f check/jobs.txt ]; then
  cfmt='%-44s %9s %11s %s\n'
  printf "$cfmt" sample launches mismatches result >>check-table.txt
  while IFS='|' read -r id name expect odd; do
    log=out/check.$id.log
    if [ "$expect" = REFUSED ]; then
      printf "$cfmt" "$id" - - "FAIL (refused by tfuse -check)" >>check-table.txt; cfail=$((cfail + 1)); continue
    fi
    if [ ! -x "bin/check.$id" ]; then
      printf "$cfmt" "$id" - - "FAIL (COMPILE-FAIL, bin/check.$id.log)" >>check-table.txt; cfail=$((cfail + 1)); continue
    fi
    # shellcheck disable=SC2086
    TFUSE_CHECK=1 "bin/check.$id" $odd >"$log" 2>&1 </dev/null; rc=$?
    # Summary lines: "tfuse-check: kernel 'K': N launch(es) checked, M mismatch(es)[, U unchecked]"
    sums=$(grep -E "^tfuse-check: kernel '[^']*': [0-9]+ launch(es)? checked, [0-9]+ mismatch(es)?" "$log")
    read -r launches mism minl unchk < <(printf '%s\n' "$sums" | awk '
      NF { s = $0; sub(/^tfuse-check: kernel .*: /, "", s); split(s, w, /[ ,]+/)
           l = w[1] + 0; m = w[4] + 0; u = (w[7] == "unchecked") ? w[6] + 0 : 0
           L += l; M += m; U += u; if (min == "" || l < min) min = l }
      END { print L + 0, M + 0, (min == "" ? 0 : min), U + 0 }')
    nmis=$(grep -c '^tfuse-check: mismatch:' "$log")
    if [ "$expect" = expect-mismatch ]; then
      # shellcheck disable=SC2086
      TFUSE_CHECK=1 TFUSE_CHECK_FATAL=1 "bin/check.$id" $odd >"$log.fatal" 2>&1 </dev/null; frc=$?
      if [ "$nmis" -ge 1 ] && [ "$frc" -ne 0 ]; then
        res="PASS (planted difference caught: $nmis mismatch lines; fatal exit $frc)"
      else
        res="FAIL (planted difference: $nmis mismatch lines, fatal exit $frc; want >= 1 and non-zero)"
      fi
    elif [ -z "$sums" ]; then
      res="FAIL (no 'tfuse-check: kernel' summary line, exit $rc; $log)"
    elif [ "$rc" -eq 0 ] && [ "$mism" -eq 0 ] && [ "$minl" -ge 1 ]; then
      res=PASS
      [ "$unchk" -gt 0 ] && res="PASS ($unchk launches unchecked)"
    else
      res="FAIL (exit $rc; $log)"
    fi
    case $res in PASS*) cpass=$((cpass + 1)) ;; *) cfail=$((cfail + 1)) ;; esac
    [ -n "$sums" ] || { launches=-; mism=-; }
    printf "$cfmt" "$id" "$launches" "$mism" "$res" >>check-table.txt
  done <check/jobs.txt
  if [ -f test/gpu/check-runtime/run.sh ]; then
    NVCC="$NVCC" bash test/gpu/check-runtime/run.sh >out/check-runtime.log 2>&1 </dev/null; rc=$?
    if [ $rc -eq 0 ] && grep -q '^check-runtime: PASS' out/check-runtime.log; then
      res=PASS; cpass=$((cpass + 1))
    else
      res="FAIL (exit $rc: $(grep '^check-runtime:' out/check-runtime.log | tail -n 1); out/check-runtime.log)"; cfail=$((cfail + 1))
    fi
    printf "$cfmt" "test/gpu/check-runtime" - - "$res" >>check-table.txt
  fi
fi

# ---- the plot (only where matplotlib is installed) -------------------------------
if command -v python3 >/dev/null 2>&1 && python3 -c 'import matplotlib' >/dev/null 2>&1; then
  python3 plot-speedup.py results.csv -o speedup.png >/dev/null 2>&1 && echo "plot: speedup.png"
fi

# ---- report ----------------------------------------------------------------------
echo "variants run: $nrun (REGEX '$SEL'); logs: out/, bin/*.log"
grep -l -i "error" bin/*.log 2>/dev/null | head -n 10 | sed 's/^/compile errors in: /'
echo
echo "== BENCHMARK (results.csv; check = odd-size output bit-identical to the original's and the sample's own checks pass at both sizes)"
cat table.txt
if [ -s check-table.txt ]; then
  echo
  echo "== CHECK (tfuse -check at K = 4, odd sizes, TFUSE_CHECK=1)"
  cat check-table.txt
elif [ -n "$CHECK_NOTE" ]; then
  echo
  echo "== CHECK: skipped: $CHECK_NOTE"
fi
if [ -s auto-table.md ]; then
  echo
  echo "== AUTO (auto.csv, auto-keys.csv, auto-table.md; tfuse -factor auto, tuned in a first run, timed in a second)"
  cat auto-table.md
elif [ -n "$AUTO_NOTE" ]; then
  echo
  echo "== AUTO: skipped: $AUTO_NOTE"
fi
total=$(tail -n +2 results.csv | wc -l)
pass=$(tail -n +2 results.csv | awk -F, '$5 == "PASS"' | wc -l)
echo
echo "benchmark: $pass of $total variants PASS; check section: $cpass PASS, $cfail FAIL"
if [ -f auto.csv ]; then
  echo "auto: $(tail -n +2 auto.csv | awk -F, '$4 == "PASS"' | wc -l) of $(tail -n +2 auto.csv | wc -l) lines PASS;" \
    "planted: $(cut -c 1-4 out/auto-rows/planted.txt 2>/dev/null || echo -); tune-runtime: $(cut -c 1-4 out/auto-rows/tune-runtime.txt 2>/dev/null || echo -)"
fi
EOF
} >"$work/run.sh"
chmod +x "$work/run.sh"
nvar=$(wc -l <"$jobs")
echo "gpu-check: $nvar variants ($nrefused refused by tfuse) in $work, $(du -sh "$work" | cut -f1);" \
  "check section: $([ -f "$work/check/jobs.txt" ] && echo "$(wc -l <"$work/check/jobs.txt") programs" || echo skipped); auto section: $([ -f "$work/auto/jobs.txt" ] && echo "$(grep -c '|OK|' "$work/auto/jobs.txt") lines" || echo skipped)"
echo "gpu-check: on the GPU machine: bash $(basename "$work")/run.sh; then here:" \
  "python3 scripts/plot-speedup.py $(basename "$work")/results.csv -o docs/speedup.png"
