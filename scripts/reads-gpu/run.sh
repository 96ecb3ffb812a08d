#!/bin/bash
# GPU check of the reads model (on the GPU machine; needs nvcc only):
#   bash scripts/reads-gpu/run.sh
# Compiles every original in src/ and every variant tfuse wrote for it
# (make.sh) with `nvcc -O3 -arch=sm_90 -fmad=false`, runs each, and
# compares the variant's `hash` lines with its original's bit for bit.
# Prints PASS/FAIL per variant (N/A: thread mode with a block that K does
# not divide, the program's own runtime message) and a count line.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-src}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
bin="$here/bin"; mkdir -p "$bin"
pass=0 fail=0 na=0
for o in "$here"/$dir/*.orig.cu; do
  name=$(basename "$o" .orig.cu)
  if ! "$NVCC" -O3 -arch=sm_90 -fmad=false "$o" -o "$bin/$name.orig" 2>"$bin/$name.orig.log"; then
    echo "FAIL $name original does not compile ($bin/$name.orig.log)"; fail=$((fail + 1)); continue
  fi
  want=$(timeout 60 "$bin/$name.orig" 2>&1)
  if ! grep -q '^hash ' <<<"$want" || grep -q '^cuda-error' <<<"$want"; then
    echo "FAIL $name original did not run cleanly: $(head -c 200 <<<"$want")"; fail=$((fail + 1)); continue
  fi
  for v in "$here"/$dir/"$name".block.*.cu "$here"/$dir/"$name".thread.*.cu; do
    [ -e "$v" ] || continue
    id=$(basename "$v" .cu)
    if ! "$NVCC" -O3 -arch=sm_90 -fmad=false "$v" -o "$bin/$id" 2>"$bin/$id.log"; then
      echo "FAIL $id does not compile ($bin/$id.log)"; fail=$((fail + 1)); continue
    fi
    got=$(timeout 60 "$bin/$id" 2>&1)
    if grep -q 'is not a multiple of the ' <<<"$got"; then
      echo "N/A  $id (block extent not divisible by K)"; na=$((na + 1))
    elif [ "$got" = "$want" ]; then
      echo "PASS $id"; pass=$((pass + 1))
    else
      echo "FAIL $id: got $(tr '\n' ' ' <<<"$got" | head -c 300) want $(tr '\n' ' ' <<<"$want")"; fail=$((fail + 1))
    fi
  done
done
[ -e "$here/$dir/REFUSED" ] && { echo "refused by tfuse (not run):"; sed 's/^/  /' "$here/$dir/REFUSED"; }
echo "sound ($dir): $pass passed, $fail failed, $na not applicable"
[ "$fail" = 0 ]
