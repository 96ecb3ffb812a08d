#!/bin/bash
# Block K = 2: version 1 fails its check (validate_result exits 1), version 2 passes.
if [ "$1" = 1 ]; then echo "Mismatch of out at 0: CPU_ref: 1.000000 vs GPU: 0.000000"; exit 1; fi
echo "All results match. Starting benchmarks."
