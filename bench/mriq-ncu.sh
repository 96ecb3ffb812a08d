#!/bin/bash
# ncu on the fast-form MRI-Q K=8 kernels, hand-merged vs tfuse block x, on
# the GPU machine after `bash bench/mriq-prepare.sh` here (gpu-work/mriq
# carried over): time, IPC, registers, occupancy and stall reasons per
# issued instruction of the second launch of each.
#   bash bench/mriq-ncu.sh
cd "$(dirname "$0")/.." || exit 1
export PATH=/usr/local/cuda/bin:$PATH
out=gpu-work/mriq/ncu
mkdir -p "$out"
nvcc -O3 -arch=sm_90 -use_fast_math -DK=8 -o "$out/hand" bench/mriq_hand.cu &
nvcc -O3 -arch=sm_90 -use_fast_math -o "$out/tfuse" gpu-work/mriq/src/mriq.block.x.k8.cu &
wait
stalls=""
for s in short_scoreboard long_scoreboard mio_throttle math_pipe_throttle wait not_selected selected dispatch_stall \
  branch_resolving no_instruction; do
  stalls="$stalls,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"
done
metrics="gpu__time_duration.sum,sm__inst_executed.sum,smsp__inst_executed.avg.per_cycle_active"
metrics="$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread$stalls"
for b in hand tfuse; do
  echo "=== $b"
  ncu --kernel-name regex:cmpfhd --launch-skip 1 --launch-count 1 --metrics "$metrics" "./$out/$b" --time 2 2>&1 |
    grep -E 'gpu__|sm__|smsp__|launch__'
done
