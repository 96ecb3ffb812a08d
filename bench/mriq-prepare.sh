#!/usr/bin/env bash
# Writes tfuse's K=8 MRI-Q kernels for bench/mriq-hand.sh, on the build
# machine (tfuse and libclang are not on the GPU machine):
#
#   bash bench/mriq-prepare.sh            (TFUSE=... for another tfuse binary)
#
# gpu-work/mriq/src/: mriq.orig.cu (samples/mriq/mriq.cu as it is) and
# tfuse's mriq.block.x.k8.cu and mriq.thread.x.k8.cu (and mriq.block.x.k8.alllive.cu, below); gpu-work/mriq/common/:
# the samples' shared headers, so that the files' "../common/harness.h"
# resolves. gpu-work/ is git-ignored; carry gpu-work/mriq to the GPU machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tfuse=${TFUSE:-$root/build/bin/tfuse}
[ -x "$tfuse" ] || { echo "mriq-prepare: build tfuse first (bash scripts/setup.sh)" >&2; exit 1; }
work=$root/gpu-work/mriq
rm -rf "$work/src" "$work/common"
mkdir -p "$work/src"
cp -R "$root/samples/common" "$work/common"
cp "$root/samples/mriq/mriq.cu" "$work/src/mriq.orig.cu"
"$tfuse" -factor 8 -mode block -dim x "$root/samples/mriq/mriq.cu" -o "$work/src/mriq.block.x.k8.cu"
"$tfuse" -factor 8 -mode thread -dim x "$root/samples/mriq/mriq.cu" -o "$work/src/mriq.thread.x.k8.cu"
# The same block-mode output with its dead-block tests (`__tf_ok_r = blockIdx.x * 8 + r < __tf_grid_x`)
# replaced by `true`: what a kernel versioned at the launch would run when K divides the grid (an
# experiment, not a tfuse output; correct here only because mriq's `n < nn` bound covers the blocks past
# the grid, as in the hand-merged kernel).
sed -E 's/(const bool __tf_ok_[0-9]+ = )blockIdx\.x \* 8 \+ [0-9]+ < __tf_grid_x;/\1true;/' \
  "$work/src/mriq.block.x.k8.cu" > "$work/src/mriq.block.x.k8.alllive.cu"
grep -q '__tf_ok_1 = true;' "$work/src/mriq.block.x.k8.alllive.cu" ||
  { echo "mriq-prepare: the dead-block tests were not found in tfuse's block-mode output" >&2; exit 1; }
echo "mriq-prepare: wrote $(cd "$work/src" && echo *.cu) in ${work#"$root"/}/src; on the GPU machine: bash bench/mriq-hand.sh [ROUNDS]"
