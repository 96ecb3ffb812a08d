#!/bin/bash
# The original of the fake program: what ktrace.so would write under
# TFUSE_KTRACE_OUT (10 launches of k1, 1000 ns in all), then its own check.
if [ -n "$TFUSE_KTRACE_OUT" ]; then
  printf 'kernel\tk1\t10\t1000\t150\nmemcpy\t2\t800\t50\nmemset\t0\t0\t0\ndropped\t0\n' > "$TFUSE_KTRACE_OUT"
fi
echo "kernel time 1.0 ms"
echo PASS
