#!/bin/bash
# -factor auto: tunes one key, passes; 3% slower at block size 32.
echo "tfuse-tune: kernel 'k' at p.cu:9, grid (8,1,1) block (32,1,1) smem 0, H100 (132 SMs):" >&2
echo "tfuse-tune:   chose block.x:2; tuning took 1.5 ms and 6 launches" >&2
echo "All results match. Starting benchmarks."
echo "block_size   32 | time 2.0600 ms"
echo "block_size   64 | time 3.0000 ms"
