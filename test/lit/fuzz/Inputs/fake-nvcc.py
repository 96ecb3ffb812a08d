#!/usr/bin/env python3
"""A stand-in for nvcc in gpu_run.py's tests: `fake-nvcc.py FLAGS -o BIN SRC` writes BIN, a shell script
that prints one hash line (the same for every program, so every variant matches its original), and appends
SRC to $FAKE_NVCC_LOG."""
import os
import sys

args = sys.argv[1:]
out = args[args.index("-o") + 1]
with open(os.environ["FAKE_NVCC_LOG"], "a") as fh:
    fh.write(args[-1] + "\n")
with open(out, "w") as fh:
    fh.write("#!/bin/sh\necho 'hash out 0123456789abcdef'\n")
os.chmod(out, 0o755)
