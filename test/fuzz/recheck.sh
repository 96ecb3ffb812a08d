#!/usr/bin/env bash
# Re-coarsens every variant file of one or more campaign CPU stages with the
# current tfuse and compares each byte for byte with the file the campaign
# wrote (the one its GPU stage checked).  0 differ means the GPU results
# hold for this tfuse, without another GPU run.
#   bash test/fuzz/recheck.sh fuzz-work/c1 [fuzz-work/c2 ...]
# Exit status 1 if any file differs.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tf=${TFUSE:-$root/build/bin/tfuse}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
d=0
for dir in "$@"; do
  dir=$(cd "$dir" && pwd)
  for s in "$dir"/progs/seed-*; do
    for f in "$s"/k*.cu; do
      [ -e "$f" ] || continue
      # k4-thread-z-stride -> -factor 4 -mode thread -dim z -mapping stride;
      # k2x2-block-xy -> -factor 2,2 -dim x,y; ...-interleaved -> -layout interleaved
      IFS=- read -r k mode dim mapping <<<"$(basename "$f" .cu)"
      k=${k#k}
      k=${k//x/,}
      [ ${#dim} -gt 1 ] && dim=$(sed 's/./&,/g; s/,$//' <<<"$dim")
      extra=()
      case "$mapping" in
      interleaved) extra=(-layout interleaved) ;;
      ?*) extra=(-mapping "$mapping") ;;
      esac
      "$tf" -skip-unsafe -factor "$k" -mode "$mode" -dim "$dim" "${extra[@]}" \
        "$s/prog.cu" -o "$tmp/re.cu" 2>/dev/null
      n=$((n + 1))
      if ! cmp -s "$tmp/re.cu" "$f"; then
        d=$((d + 1))
        echo "differs: $f"
      fi
    done
  done
done
echo "recheck: $n re-coarsened, $d differ"
[ "$d" -eq 0 ]
