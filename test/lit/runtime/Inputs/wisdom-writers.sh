#!/bin/bash
# Runs WRITERS copies of the wisdom writer at once on one file, each saving
# N decisions of its own; fails when one of them fails.
#   wisdom-writers.sh WRITER-PROGRAM PATH WRITERS N
prog=$1 path=$2 writers=$3 n=$4
pids=()
for w in $(seq 1 "$writers"); do
  "$prog" "$path" "$w" "$n" &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do
  wait "$p" || status=1
done
exit $status
