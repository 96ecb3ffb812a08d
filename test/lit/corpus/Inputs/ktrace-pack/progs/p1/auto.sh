#!/bin/bash
# The auto build of the fake program: it tunes when no wisdom file is given a
# decision (the report lines of the tuning runtime), and runs its chosen
# candidate, 10% faster on the GPU than the original.
if [ -n "$TFUSE_KTRACE_OUT" ]; then
  printf 'kernel\tk1__tf_b2\t10\t900\t140\nmemcpy\t2\t800\t50\nmemset\t0\t0\t0\ndropped\t0\n' > "$TFUSE_KTRACE_OUT"
fi
if [ -s "$TFUSE_WISDOM" ]; then
  [ -n "$TFUSE_TUNE_REPORT" ] && echo "tfuse-tune: kernel 'k1' at a.cu:3, grid (4,1,1) block (64,1,1) smem 0, H200 (132 SMs): block.x:2 from the wisdom file" >&2
else
  echo "block.x:2" > "$TFUSE_WISDOM"
  echo "tfuse-tune: kernel 'k1' at a.cu:3, grid (4,1,1) block (64,1,1) smem 0, H200 (132 SMs):" >&2
  echo "tfuse-tune:   chose block.x:2; tuning took 1.5 ms and 12 launches" >&2
fi
echo "kernel time 0.9 ms"
echo PASS
