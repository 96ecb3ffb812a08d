#!/bin/bash
# Builds the GPU check of the reads model and cooperative groups (run where
# tfuse is; scripts/reads-gpu/run.sh then runs it on a GPU machine): the
# originals (test/fuzz/regress programs of the four classes, plus extra
# forms) and the variants tfuse writes: block K=2,4,8,16 and thread K=2,4.
# A refused variant is listed in src/REFUSED with tfuse's first error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tfuse=${TFUSE:-$root/build/bin/tfuse}
rm -rf "$here/src"; mkdir -p "$here/src"
: >"$here/src/REFUSED"
progs="calls-default-argument-builtins asm-helper-ctaid asm-helper-tid-lane shared-memory-struct-reduce warp-reduce-block-guard cg-block-mode-tiles cg-tile-shuffle cg-thread-block-thread-rank cg-tile-rank cg-sync-free-under-varying-if cg-sync-under-varying-loop"
for p in $progs; do cp "$root/test/fuzz/regress/$p.cu" "$here/src/$p.orig.cu"; done
for f in "$here"/extra/*.cu; do [ -e "$f" ] && cp "$f" "$here/src/$(basename "$f" .cu).orig.cu"; done
for o in "$here"/src/*.orig.cu; do
  name=$(basename "$o" .orig.cu)
  for v in block:2 block:4 block:8 block:16 thread:2 thread:4 thread:8; do
    mode=${v%%:*} k=${v##*:}
    out="$here/src/$name.$mode.$k.cu"
    if ! "$tfuse" -factor "$k" -mode "$mode" "$o" -o "$out" 2>"$here/src/err.txt"; then
      echo "$name $mode $k $(grep -m1 'error:' "$here/src/err.txt")" >>"$here/src/REFUSED"
      rm -f "$out"
    fi
  done
done
rm -f "$here/src/err.txt"
echo "variants: $(ls "$here"/src/*.block.*.cu "$here"/src/*.thread.*.cu 2>/dev/null | wc -l), refused: $(wc -l <"$here/src/REFUSED")"
