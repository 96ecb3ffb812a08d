#!/usr/bin/env bash
# GPU test of the `tfuse -check` runtime (runtime/include/tfuse/check.h,
# runtime/src/check.cpp).  Needs a GPU, nvcc and bash; nothing else.
#
# Builds check-runtime.cu (kernel pairs in the shape `tfuse -check` emits,
# some with planted differences: see the comment at its top) with the
# library source, `nvcc -O3 -arch=sm_90 ... -lcuda`, and runs it:
#   - without TFUSE_CHECK, and with TFUSE_CHECK=0: no tfuse-check output,
#     exit 0, the program's own results OK;
#   - TFUSE_CHECK=1: the correct pairs report 0 mismatches; the planted ones
#     print mismatch lines naming kernel, site, argument, element, byte
#     offset and both values (float, double, int, 12-byte struct), at most
#     10 per launch; the summary has one line per kernel in first-seen
#     order; the pageable host argument is warned about and counted
#     unchecked; the results are still right (snapshots restored);
#     memory reached other than through a pointer argument is compared
#     too: a struct argument's pointer, a __device__ array (accumulated:
#     restored, so added once), a table of row pointers in device memory;
#     the device comparison finds the one differing element at the end of
#     a 64 MiB buffer, and the differing bytes of a region that is not
#     8-aligned and of the tail of one that is; 200 launches over another
#     64 MiB buffer are all identical and restored each time (the time
#     they took is printed); with device memory too short for a device
#     copy of what the original wrote, the host copy reports the same way;
#     no warning other than the host argument's;
#   - TFUSE_CHECK_ULP=1: the one-ulp float and double differences pass, the
#     large float one, the int and the struct ones still fail;
#   - TFUSE_CHECK_FATAL=1: exit status 1 right after the first launch with a
#     mismatch, with the summary;
#   - TFUSE_CHECK_ULP=abc: an error, exit status 1;
#   - TFUSE_CHECK_LOG=FILE, two runs: the file holds, per run, one JSON
#     line per launch in launch order (verdict identical, differs with the
#     first differing argument, element, byte offset and both values, or
#     not-checked with its reason), then one summary line per kernel; the
#     second run appends.
# Prints `check-runtime: PASS` or `check-runtime: FAIL (reason)` last and
# exits 0 or 1.
#
# usage: bash test/gpu/check-runtime/run.sh
# env:   NVCC=/path/to/nvcc (default: nvcc on PATH, else
#        /usr/local/cuda/bin/nvcc); KEEP=1 keeps the work directory.
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/tfuse-check-runtime.XXXXXX")
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [ "${KEEP:-0}" = 1 ]; then
    echo "check-runtime: kept $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# fail REASON: shows the last run's output and fails.
last=""
fail() {
  if [ -n "$last" ]; then
    echo "---- $last: exit status $(cat "$work/$last.rc"), stdout and stderr ----" >&2
    cat "$work/$last.out" "$work/$last.err" >&2
    echo "----" >&2
  fi
  echo "check-runtime: FAIL ($*)"
  exit 1
}

nvcc=${NVCC:-$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || fail "nvcc not found (set NVCC=...)"

exe=$work/check-runtime
"$nvcc" -O3 -arch=sm_90 -I "$root/runtime/include" "$here/check-runtime.cu" \
  "$root/runtime/src/check.cpp" -lcuda -o "$exe" >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  fail "the build failed"
}

# run NAME VAR=VALUE...: runs the program with only these TFUSE_CHECK*
# variables set; NAME.out, NAME.err, NAME.rc in the work directory.
run() {
  local name=$1
  shift
  last=$name
  env -u TFUSE_CHECK -u TFUSE_CHECK_ULP -u TFUSE_CHECK_FATAL -u TFUSE_CHECK_LOG "$@" "$exe" \
    >"$work/$name.out" 2>"$work/$name.err"
  echo $? >"$work/$name.rc"
}
rc() { cat "$work/$1.rc"; }
# has NAME REGEX / hasnt NAME REGEX: stderr of run NAME (grep -E).
has() { grep -Eq -- "$2" "$work/$1.err" || fail "$1: no line matching: $2"; }
hasnt() { ! grep -Eq -- "$2" "$work/$1.err" || fail "$1: unexpected line matching: $2"; }
count() { grep -Ec -- "$2" "$work/$1.err"; }
results_ok() { grep -q 'check-runtime-program: results OK' "$work/$1.out" || fail "$1: the program's results are wrong"; }

# Escapes for the regexes below.
A='\(allocation 0x[0-9a-f]+, '   # "(allocation 0x..., " (the size as the driver reports it)
M="tfuse-check: mismatch: kernel"

# ---- checking off ------------------------------------------------------------
for mode in off zero; do
  if [ $mode = off ]; then run off; else run zero TFUSE_CHECK=0; fi
  [ "$(rc $mode)" = 0 ] || fail "$mode: exit status $(rc $mode), not 0"
  results_ok $mode
  hasnt $mode 'tfuse-check'
done

# ---- TFUSE_CHECK=1 -------------------------------------------------------------
run on TFUSE_CHECK=1
[ "$(rc on)" = 0 ] || fail "on: exit status $(rc on), not 0"
results_ok on
# The summary: one line per kernel, first-seen order.
grep '^tfuse-check: kernel ' "$work/on.err" >"$work/on.summary"
cat >"$work/want.summary" <<'EOF'
tfuse-check: kernel 'scale': 3 launches checked, 0 mismatches
tfuse-check: kernel 'axpy': 1 launch checked, 0 mismatches
tfuse-check: kernel 'planted': 1 launch checked, 2 mismatches
tfuse-check: kernel 'dplanted': 1 launch checked, 1 mismatch
tfuse-check: kernel 'iplanted': 1 launch checked, 1 mismatch
tfuse-check: kernel 'many': 1 launch checked, 11 mismatches
tfuse-check: kernel 'hostarg': 0 launches checked, 0 mismatches, 1 unchecked (argument not in device memory: 1)
tfuse-check: kernel 'structp': 1 launch checked, 1 mismatch
tfuse-check: kernel 'devacc': 1 launch checked, 1 mismatch
tfuse-check: kernel 'ptable': 1 launch checked, 1 mismatch
tfuse-check: kernel 'big': 1 launch checked, 1 mismatch
tfuse-check: kernel 'repeat': 200 launches checked, 0 mismatches
tfuse-check: kernel 'oddbytes': 2 launches checked, 3 mismatches
tfuse-check: kernel 'lowmem': 1 launch checked, 2 mismatches
EOF
diff -u "$work/want.summary" "$work/on.summary" >&2 || fail "on: the summary differs"
# The mismatch lines, with both values.
has on "^$M 'planted' launched at check-runtime.cu:104: argument 'out' ${A}[0-9]+ bytes\), element 1000 \(byte offset 4000\): original 2 \(0x40000000\), coarsened 2.00000024 \(0x40000001\)$"
has on "^$M 'planted' launched at check-runtime.cu:104: argument 'out' ${A}[0-9]+ bytes\), element 2000 \(byte offset 8000\): original 2 \(0x40000000\), coarsened 1002 \(0x447a8000\)$"
has on "^$M 'dplanted' launched at check-runtime.cu:105: argument 'out' ${A}[0-9]+ bytes\), element 77 \(byte offset 616\): original 116.25 \(0x405d100000000000\), coarsened 116.25000000000001 \(0x405d100000000001\)$"
has on "^$M 'iplanted' launched at check-runtime.cu:106: argument 'out' ${A}[0-9]+ bytes\), element 5 \(byte offset 20\): original 15 \(0x0000000f\), coarsened 16 \(0x00000010\)$"
has on "^$M 'many' launched at check-runtime.cu:107: argument 'out' ${A}[0-9]+ bytes\), element 0 \(byte offset 0\), bytes 4..11 of 12: original 00 00 80 3f 00 00 00 40, coarsened 00 00 80 3f 00 00 40 40$"
has on "^$M 'many' launched at check-runtime.cu:107: .*element 900 \(byte offset 10800\)"
hasnt on "^$M 'many' .*element 1000 "
[ "$(count on "^$M 'many'")" = 10 ] || fail "on: not 10 mismatch lines for 'many'"
has on '^tfuse-check:   \.\.\. and 1 more mismatch in this launch$'
# Memory reached other than through a pointer argument: a struct's pointer,
# a __device__ variable, a table of pointers in device memory.
has on "^$M 'structp' launched at check-runtime.cu:109: argument 'p@0' ${A}[0-9]+ bytes\), element 38 \(byte offset 38\): original 16 \(0x10\), coarsened 32 \(0x20\)$"
has on "^$M 'devacc' launched at check-runtime.cu:110: argument 'd_acc' ${A}32 bytes\), element 3 \(byte offset 12\): original 1 \(0x3f800000\), coarsened 2 \(0x40000000\)$"
has on "^$M 'ptable' launched at check-runtime.cu:111: argument 'tab\[2\]' ${A}[0-9]+ bytes\), element 17 \(byte offset 68\): original 2017 \(0x44fc2000\), coarsened 2018 \(0x44fc4000\)$"
# The device comparison: the last element of 64 MiB, bytes of a region not
# 8-aligned and in the tail of one that is, and (device memory short) the
# host copy of what the original wrote.
has on "^$M 'big' launched at check-runtime.cu:112: argument 'out' ${A}[0-9]+ bytes\), element 16777215 \(byte offset 67108860\): original 1023 \(0x447fc000\), coarsened 1024 \(0x44800000\)$"
has on "^$M 'oddbytes' launched at check-runtime.cu:114: argument 'd_odd' ${A}21 bytes\), element 20 \(byte offset 20\): original 20 \(0x14\), coarsened 99 \(0x63\)$"
has on "^$M 'oddbytes' launched at check-runtime.cu:115: argument 'd_odd\+3' ${A}21 bytes\), element 17 \(byte offset 17\): original 20 \(0x14\), coarsened 99 \(0x63\)$"
has on "^$M 'oddbytes' launched at check-runtime.cu:115: argument 'd_odd\+3' ${A}21 bytes\), element 20 \(byte offset 20\): original 23 \(0x17\), coarsened 102 \(0x66\)$"
has on "^$M 'lowmem' launched at check-runtime.cu:116: argument 'out' ${A}[0-9]+ bytes\), element 12345 \(byte offset 49380\): original 57 \(0x42640000\), coarsened 58 \(0x42680000\)$"
has on "^$M 'lowmem' launched at check-runtime.cu:116: argument 'out' ${A}[0-9]+ bytes\), element 67108863 \(byte offset 268435452\): original 1023 \(0x447fc000\), coarsened 1024 \(0x44800000\)$"
[ "$(count on "^$M")" = 23 ] || fail "on: $(count on "^$M") mismatch lines, not 23"
hasnt on "^$M '(scale|axpy|hostarg|repeat)'"
hasnt on 'compared on the host from now on'
has on "^tfuse-check: warning: kernel 'hostarg' launched at check-runtime.cu:108: argument 'scratch' \(0x[0-9a-f]+\) is not in a CUDA device allocation"
[ "$(count on '^tfuse-check: warning:')" = 1 ] || fail "on: not exactly one warning"
# How long the 200 checked launches of repeat took (for information).
grep -h 'check-runtime-program: repeat:' "$work/off.out" "$work/on.out" | sed 's/^check-runtime-program:/check-runtime:/' | sed '1s/$/ (unchecked)/; 2s/$/ (checked)/'

# ---- TFUSE_CHECK_ULP=1 ---------------------------------------------------------
run ulp TFUSE_CHECK=1 TFUSE_CHECK_ULP=1
[ "$(rc ulp)" = 0 ] || fail "ulp: exit status $(rc ulp), not 0"
results_ok ulp
has ulp "^tfuse-check: kernel 'planted': 1 launch checked, 1 mismatch$"
has ulp "^tfuse-check: kernel 'dplanted': 1 launch checked, 0 mismatches$"
has ulp "^tfuse-check: kernel 'iplanted': 1 launch checked, 1 mismatch$"
has ulp "^tfuse-check: kernel 'many': 1 launch checked, 11 mismatches$"
has ulp "^$M 'planted' .*element 2000 \(byte offset 8000\): original 2 \(0x40000000\), coarsened 1002 "
has ulp "^tfuse-check: kernel 'big': 1 launch checked, 1 mismatch$"
has ulp "^tfuse-check: kernel 'lowmem': 1 launch checked, 2 mismatches$"
hasnt ulp "^$M 'planted' .*element 1000 "
hasnt ulp "^$M 'dplanted'"

# ---- TFUSE_CHECK_FATAL=1 -------------------------------------------------------
run fatal TFUSE_CHECK=1 TFUSE_CHECK_FATAL=1
[ "$(rc fatal)" = 1 ] || fail "fatal: exit status $(rc fatal), not 1"
has fatal "^$M 'planted' .*element 1000 "
has fatal "^tfuse-check: kernel 'planted': 1 launch checked, 2 mismatches$"
hasnt fatal "dplanted"
! grep -q 'results' "$work/fatal.out" || fail "fatal: the program went on after the mismatch"

# ---- a bad TFUSE_CHECK_ULP -----------------------------------------------------
run badulp TFUSE_CHECK=1 TFUSE_CHECK_ULP=abc
[ "$(rc badulp)" = 1 ] || fail "badulp: exit status $(rc badulp), not 1"
has badulp "^tfuse-check: error: TFUSE_CHECK_ULP must be an integer >= 0, not 'abc'$"

# ---- TFUSE_CHECK_LOG: the machine-readable log, appended by each run --------------
log=$work/check.jsonl
run log1 TFUSE_CHECK=1 "TFUSE_CHECK_LOG=$log"
[ "$(rc log1)" = 0 ] || fail "log1: exit status $(rc log1), not 0"
run log2 TFUSE_CHECK=1 "TFUSE_CHECK_LOG=$log"
[ "$(rc log2)" = 0 ] || fail "log2: exit status $(rc log2), not 0"
last=""
python3 - "$log" >"$work/log.check" 2>&1 <<'PY' || { cat "$work/log.check" >&2; fail "TFUSE_CHECK_LOG: the log differs"; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
launches = [("scale", "identical")] * 3 + [("axpy", "identical"), ("planted", "differs"), ("dplanted", "differs"),
                                          ("iplanted", "differs"), ("many", "differs"), ("hostarg", "not-checked"),
                                          ("structp", "differs"), ("devacc", "differs"), ("ptable", "differs"),
                                          ("big", "differs")] + \
    [("repeat", "identical")] * 200 + [("oddbytes", "differs")] * 2 + [("lowmem", "differs")]
summary = {"scale": (3, 0, 0, 0), "axpy": (1, 0, 0, 0), "planted": (1, 2, 0, 1), "dplanted": (1, 1, 0, 1),
           "iplanted": (1, 1, 0, 1), "many": (1, 11, 0, 1), "hostarg": (0, 0, 1, 0),
           "structp": (1, 1, 0, 1), "devacc": (1, 1, 0, 1), "ptable": (1, 1, 0, 1),
           "big": (1, 1, 0, 1), "repeat": (200, 0, 0, 0), "oddbytes": (2, 3, 0, 2), "lowmem": (1, 2, 0, 1)}
run = len(launches) + len(summary)
assert len(lines) == 2 * run, "%d lines, not %d" % (len(lines), 2 * run)
for r in (lines[:run], lines[run:]):
    got = [(l["kernel"], l["verdict"]) for l in r[:len(launches)]]
    assert got == launches, got
    for l in r[:len(launches)]:
        assert l["site"].startswith("check-runtime.cu:"), l
    planted = r[4]
    assert planted == {"kernel": "planted", "site": "check-runtime.cu:104", "verdict": "differs", "mismatches": 2,
                       "argument": "out", "element": 1000, "byte_offset": 4000, "original": "2 (0x40000000)",
                       "coarsened": "2.00000024 (0x40000001)"}, planted
    assert r[6]["element"] == 5 and r[6]["original"] == "15 (0x0000000f)" and r[6]["coarsened"] == "16 (0x00000010)", r[6]
    assert r[7]["mismatches"] == 11 and r[7]["element"] == 0 and r[7]["byte_offset"] == 0, r[7]
    host = r[8]
    assert host["site"] == "check-runtime.cu:108" and "argument 'scratch'" in host["reason"] and \
        "not in a CUDA device allocation" in host["reason"] and host["category"] == "host-memory", host
    assert r[9]["argument"] == "p@0" and r[10]["argument"] == "d_acc" and r[11]["argument"] == "tab[2]", r[9:12]
    assert r[12]["element"] == 16777215 and r[12]["byte_offset"] == 67108860 and r[12]["mismatches"] == 1, r[12]
    assert r[213]["argument"] == "d_odd" and r[213]["element"] == 20 and r[213]["mismatches"] == 1, r[213]
    assert r[214]["argument"] == "d_odd+3" and r[214]["element"] == 17 and r[214]["mismatches"] == 2, r[214]
    assert r[215]["element"] == 12345 and r[215]["mismatches"] == 2 and r[215]["original"] == "57 (0x42640000)", r[215]
    for l in r[len(launches):]:
        want = summary[l["kernel"]]
        got = (l["checked"], l["mismatches"], l["unchecked"], l["differing_launches"])
        assert l["summary"] is True and got == want, (l, want)
print("log OK")
PY

last=""
echo "check-runtime: PASS"
exit 0
