#!/usr/bin/env bash
# Reduces a tfuse fuzz finding to a small test case.
#
#   bash test/fuzz/reduce.sh --class crash|nvcc|refusal [--kernel NAME] [--reason TEXT]
#                            [--tfuse PATH] [--nvcc PATH] PROG.cu -- TFUSE_FLAGS...
#   bash test/fuzz/reduce.sh --mismatch PROG.cu -- TFUSE_FLAGS...   (see below)
#
# CPU classes: cvise (Debian package cvise: apt-get install -y cvise) shrinks
# a copy of PROG.cu, PROG.reduced.cu, keeping it "interesting":
#   crash    tfuse -skip-unsafe FLAGS exits with the same status as on PROG.cu,
#            a status other than 0 and 1 (a signal, an abort), or hangs (60 s);
#   nvcc     the file compiles with nvcc (-c), tfuse FLAGS succeeds on it, and
#            nvcc rejects tfuse's output;
#   refusal  the file compiles with nvcc, and tfuse -skip-unsafe FLAGS warns
#            "kernel 'NAME' left unchanged: ...TEXT..." (--kernel, --reason;
#            the defaults come from the first such warning on PROG.cu).
# Keeping the original compilable stops cvise from reducing to nonsense.
# TFUSE_FLAGS are the variant's, e.g. -factor 4 -mode thread -dim y -mapping stride.
#
# GPU mismatches (--mismatch): cvise cannot run on the GPU machine (it is not
# installed there and nothing can be installed), and tfuse cannot run there
# either (it needs libclang), so a mismatch is reduced at the program level,
# in rounds of one GPU call each:
#   python3 test/fuzz/reduce_mismatch.py round --prog PROG.cu --out PACK -- FLAGS
#       writes candidates (each coarsened here): the program with one kernel
#       kept alone, with one launch block kept alone, or with one statement
#       line of a kernel removed; PACK has the format of a campaign pack.
#   (GPU) bash PACK/run.sh          compiles and runs every candidate
#   python3 test/fuzz/reduce_mismatch.py pick --pack PACK --out NEXT.cu
#       takes the smallest candidate that still mismatches; repeat with NEXT.cu.
# On a machine with both tfuse and a GPU, one command runs the rounds:
#   python3 test/fuzz/reduce_mismatch.py local --prog PROG.cu --out DIR -- FLAGS
# --mismatch here prints these commands for PROG.cu and FLAGS.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tfuse="$root/build/bin/tfuse"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
class=""
kernel=""
reason=""
prog=""
mismatch=0

usage() { sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --class) class=$2; shift 2 ;;
    --kernel) kernel=$2; shift 2 ;;
    --reason) reason=$2; shift 2 ;;
    --tfuse) tfuse=$2; shift 2 ;;
    --nvcc) nvcc=$2; shift 2 ;;
    --mismatch) mismatch=1; shift ;;
    --) shift; break ;;
    -h|--help) usage ;;
    -*) echo "reduce.sh: unknown option $1" >&2; usage ;;
    *) prog=$1; shift ;;
  esac
done
flags=("$@")
[ -n "$prog" ] && [ -f "$prog" ] || { echo "reduce.sh: no PROG.cu" >&2; usage; }
[ ${#flags[@]} -gt 0 ] || { echo "reduce.sh: give the variant's tfuse flags after --" >&2; usage; }

if [ $mismatch = 1 ]; then
  cat <<EOF
# A GPU mismatch is reduced at the program level, one GPU call per round:
python3 $here/reduce_mismatch.py round --prog $prog --out red-pack -- ${flags[*]}
# on the GPU machine (carry red-pack):  bash red-pack/run.sh
python3 $here/reduce_mismatch.py pick --pack red-pack --out next.cu
# then again with --prog next.cu, until pick finds nothing smaller.
# Where tfuse and a GPU are on one machine:
python3 $here/reduce_mismatch.py local --prog $prog --out red-local -- ${flags[*]}
EOF
  exit 0
fi

command -v cvise >/dev/null || { echo "reduce.sh: cvise not found: apt-get update && apt-get install -y cvise" >&2; exit 2; }
case "$class" in crash|nvcc|refusal) ;; *) echo "reduce.sh: --class crash|nvcc|refusal" >&2; usage ;; esac

abs() { (cd "$(dirname "$1")" && echo "$(pwd)/$(basename "$1")"); }
prog=$(abs "$prog")
tfuse=$(abs "$tfuse")
work=$(mktemp -d "${TMPDIR:-/tmp}/tfuse-reduce.XXXXXX")
cp "$prog" "$work/prog.cu"

quote_flags=$(printf '%q ' "${flags[@]}")
want_rc=""
if [ "$class" = crash ]; then
  set +e
  timeout 60 "$tfuse" -skip-unsafe "${flags[@]}" "$work/prog.cu" -o "$work/out.cu" >/dev/null 2>&1
  want_rc=$?
  set -e
  if [ "$want_rc" = 0 ] || [ "$want_rc" = 1 ]; then
    echo "reduce.sh: tfuse exits $want_rc on $prog: not a crash" >&2; exit 1
  fi
fi
if [ "$class" = refusal ] && { [ -z "$kernel" ] || [ -z "$reason" ]; }; then
  line=$("$tfuse" -skip-unsafe "${flags[@]}" "$work/prog.cu" -o "$work/out.cu" 2>&1 |
         grep -m1 "warning: kernel '.*' left unchanged: " || true)
  [ -n "$line" ] || { echo "reduce.sh: tfuse refuses no kernel of $prog with these flags" >&2; exit 1; }
  [ -n "$kernel" ] || kernel=$(sed "s/.*warning: kernel '\([^']*\)'.*/\1/" <<<"$line")
  [ -n "$reason" ] || reason=$(sed "s/.*left unchanged: //" <<<"$line" | sed "s/'[^']*'/'/g" | cut -d"'" -f1)
fi

# The interestingness test: cvise runs it in a scratch copy holding prog.cu.
cat > "$work/test.sh" <<EOF
#!/usr/bin/env bash
tfuse=$(printf '%q' "$tfuse")
nvcc=$(printf '%q' "$nvcc")
flags=($quote_flags)
nvcc_ok() { timeout 120 "\$nvcc" -arch=sm_90 -O3 -fmad=false -c -o /dev/null -x cu "\$1" >/dev/null 2>&1; }
EOF
case "$class" in
  crash)
    cat >> "$work/test.sh" <<EOF
timeout 60 "\$tfuse" -skip-unsafe "\${flags[@]}" prog.cu -o out.cu >/dev/null 2>&1
[ \$? = $want_rc ]
EOF
    ;;
  nvcc)
    cat >> "$work/test.sh" <<'EOF'
nvcc_ok prog.cu || exit 1
timeout 60 "$tfuse" -skip-unsafe "${flags[@]}" prog.cu -o out.cu >/dev/null 2>&1 || exit 1
grep -q 'tfuse: coarsened by' out.cu || exit 1
! nvcc_ok out.cu
EOF
    ;;
  refusal)
    cat >> "$work/test.sh" <<EOF
kernel=$(printf '%q' "$kernel")
reason=$(printf '%q' "$reason")
EOF
    cat >> "$work/test.sh" <<'EOF'
grep -q '#pragma tfuse coarsen' prog.cu || exit 1
nvcc_ok prog.cu || exit 1
timeout 60 "$tfuse" -skip-unsafe "${flags[@]}" prog.cu -o out.cu 2>&1 >/dev/null |
  grep -F "warning: kernel '$kernel' left unchanged: " | grep -qF -- "$reason"
EOF
    ;;
esac
chmod +x "$work/test.sh"
echo "reduce.sh: class $class, flags: ${flags[*]}${kernel:+, kernel $kernel}${reason:+, reason '$reason'}"
echo "reduce.sh: interestingness test $work/test.sh"
(cd "$work" && ./test.sh) || { echo "reduce.sh: $prog is not interesting to start with" >&2; exit 1; }
# First, cheaply: a generated program with one kernel kept alone (its
# definition and launches), the first such that is still interesting.
mkdir -p "$work/only"
python3 - "$here" "$work/prog.cu" "$work/only" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import reduce_mismatch
text = open(sys.argv[2]).read()
for name, t in reduce_mismatch.candidates(text):
    if name.startswith("only-"):
        open("%s/%s.cu" % (sys.argv[3], name), "w").write(t)
EOF
for cand in "$work"/only/only-*.cu; do
  [ -e "$cand" ] || break
  mkdir -p "$work/try" && cp "$cand" "$work/try/prog.cu" && cp "$work/test.sh" "$work/try/"
  if (cd "$work/try" && ./test.sh); then
    cp "$cand" "$work/prog.cu"
    echo "reduce.sh: kept $(basename "$cand" .cu) alone"
    break
  fi
done
(cd "$work" && cvise --n "$(nproc)" --timeout 300 ./test.sh prog.cu)
out="${prog%.cu}.reduced.cu"
cp "$work/prog.cu" "$out"
echo "reduce.sh: wrote $out ($(wc -l < "$out") lines); scratch in $work"
