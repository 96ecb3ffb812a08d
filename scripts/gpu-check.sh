#!/usr/bin/env bash
# GPU benchmark and check of the samples, in two halves (README.md,
# docs/BENCHMARK.md):
#
#   bash scripts/gpu-check.sh [-k "1 2 4 8 16"] [-t N] [-o gpu-work] [-c|-C]
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
usage() { echo "usage: $0 [-k \"1 2 4 8 16\"] [-t N (>= 10)] [-o DIR] [-c|-C]" >&2; exit 2; }
while getopts "k:t:o:cC" o; do
  case $o in
    k) factors=$OPTARG ;;
    t) times=$OPTARG ;;
    o) work=$OPTARG ;;
    c) checksec=1 ;;
    C) checksec=0 ;;
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
  cp "$root/runtime/src/check.cpp" "$root/runtime/src/snapshot.h" "$work/runtime/src/"
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

# ---- run.sh -------------------------------------------------------------------
{
  echo '#!/usr/bin/env bash'
  echo '# shellcheck disable=SC2016,SC2059  # single-quoted bash -c bodies; table formats in variables'
  echo "# Generated by scripts/gpu-check.sh on $(date -u +%Y-%m-%dT%H:%MZ) from commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)."
  echo "DEFAULT_TIMES=$times"
  echo "CHECK_NOTE='${checknote//\'/}'"
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
#   row to out/rows/. Finally assembles results.csv and table.txt from all
#   rows present (a second call with another REGEX adds to them), runs the
#   -check section if check/ exists, and prints the tables last.
#   Compilation is skipped for outputs newer than their source.
# env: NVCC (default nvcc on PATH, else /usr/local/cuda/bin/nvcc), TIMES
#   (timed launches, >= 10), ARCH (default sm_90), JOBS (parallel compiles).
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
  local id=$1 s=src/$1.cu
  if [ ! -e "bin/$id.exact.ok" ] || [ "$s" -nt "bin/$id.exact.ok" ]; then
    rm -f "bin/$id.exact" "bin/$id.exact.ok"
    "$NVCC" -O3 -arch="$ARCH" -fmad=false -o "bin/$id.exact" "$s" >"bin/$id.exact.log" 2>&1 &&
      touch "bin/$id.exact.ok"
  fi
  if [ ! -e "bin/$id.fast.ok" ] || [ "$s" -nt "bin/$id.fast.ok" ]; then
    rm -f "bin/$id.fast" "bin/$id.fast.ok"
    "$NVCC" -O3 -arch="$ARCH" -Xptxas -v -o "bin/$id.fast" "$s" >"bin/$id.fast.log" 2>&1 &&
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
echo "compiled in $(( $(date +%s) - start )) s"

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
total=$(tail -n +2 results.csv | wc -l)
pass=$(tail -n +2 results.csv | awk -F, '$5 == "PASS"' | wc -l)
echo
echo "benchmark: $pass of $total variants PASS; check section: $cpass PASS, $cfail FAIL"
EOF
} >"$work/run.sh"
chmod +x "$work/run.sh"
nvar=$(wc -l <"$jobs")
echo "gpu-check: $nvar variants ($nrefused refused by tfuse) in $work, $(du -sh "$work" | cut -f1);" \
  "check section: $([ -f "$work/check/jobs.txt" ] && echo "$(wc -l <"$work/check/jobs.txt") programs" || echo skipped)"
echo "gpu-check: on the GPU machine: bash $(basename "$work")/run.sh; then here:" \
  "python3 scripts/plot-speedup.py $(basename "$work")/results.csv -o docs/speedup.png"
