#!/usr/bin/env python3
"""Instruction mix of the hot loops of kernels, from `cuobjdump -sass`.

    cuobjdump -sass BINARY > k.sass            (on the GPU machine)
    python3 scripts/sass-loop-profile.py k.sass [--per N] [--kernel NAME]

For each kernel function in the dump: its instruction count, and for the
outermost loop (the backward branch spanning the most instructions) the
instructions in its body that are not inside a nested loop, grouped by
opcode, plus the count divided by --per (the coarsening factor: work per
logical thread).  Nested loops are the slow paths (the Payne-Hanek range
reduction of sinf/cosf, say) and are listed separately.  Used to explain
from the machine code why a coarsened variant is or is not faster.

The body count includes code that branches around, such as the rest of the
sinf/cosf slow path outside its nested loop, so it is followed by the
common path: the fewest instructions from the loop's head to its backward
branch, following branches forward (the branch skipping a slow path taken,
the fall-through into it not).  When every branch in the body only guards
a slow path, as in MRI-Q's accurate sinf/cosf (|x| >= 105615), that is
what an iteration executes; with a real if/else it is a lower bound.
"""
import argparse
import re
import sys
from collections import Counter

FUNC = re.compile(r"^\s*Function : (\S+)")
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
BRA = re.compile(r"\bBRA\b.*?(0x[0-9a-f]+)")


def parse(path):
    funcs, cur = {}, None
    for line in open(path, errors="replace"):
        m = FUNC.match(line)
        if m:
            cur = m.group(1)
            funcs[cur] = []
            continue
        m = INSN.match(line)
        if m and cur:
            addr = int(m.group(1), 16)
            op = m.group(3)
            b = BRA.search(line) if op.startswith("BRA") else None
            funcs[cur].append((addr, op, int(b.group(1), 16) if b else None, bool(m.group(2))))
    return funcs


def common_path(insns, head, tail):
    """Fewest instructions from head to the backward branch at tail, over
    forward edges only (instructions are in address order, so the body
    without its backward branches is acyclic): returns the opcodes."""
    body = [i for i in insns if head <= i[0] <= tail]
    index = {i[0]: n for n, i in enumerate(body)}
    inf = float("inf")
    best = [inf] * (len(body) + 1)  # best[n]: fewest instructions before reaching body[n]
    prev = [None] * (len(body) + 1)
    best[0] = 0
    for n, (a, op, tgt, pred) in enumerate(body):
        if best[n] == inf:
            continue
        cost = best[n] + 1
        succ = []
        if a == tail:
            succ.append(len(body))
        else:
            if not ((op.startswith("BRA") or op == "EXIT") and not pred):
                succ.append(n + 1)
            if tgt is not None and tgt > a and tgt in index:
                succ.append(index[tgt])
        for m in succ:
            if cost < best[m]:
                best[m], prev[m] = cost, n
    path, n = [], prev[len(body)]
    while n is not None:
        path.append(body[n][1])
        n = prev[n]
    return path[::-1]


def profile(insns, per):
    loops = [(tgt, a) for a, op, tgt, _ in insns if tgt is not None and tgt <= a]
    out = {"total": len(insns)}
    if not loops:
        return out
    outer = max(loops, key=lambda l: l[1] - l[0])
    inner = [l for l in loops if l != outer and outer[0] <= l[0] and l[1] <= outer[1]]
    body = Counter()
    nested = Counter()
    for a, op, _, _ in insns:
        if not (outer[0] <= a <= outer[1]):
            continue
        kind = op.split(".")[0]
        if any(l[0] <= a <= l[1] for l in inner):
            nested[kind] += 1
        else:
            body[kind] += 1
    n = sum(body.values())
    common = Counter(op.split(".")[0] for op in common_path(insns, *outer))
    c = sum(common.values())
    out.update(loop=n, per_logical=n / per, mix=body.most_common(12), nested=sum(nested.values()),
               nested_loops=len(inner), common=c, common_per_logical=c / per, common_mix=common.most_common(14))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sass")
    ap.add_argument("--per", type=float, default=1.0, help="logical threads per thread (K)")
    ap.add_argument("--kernel", help="only functions whose name contains this")
    a = ap.parse_args()
    for name, insns in parse(a.sass).items():
        if a.kernel and a.kernel not in name:
            continue
        p = profile(insns, a.per)
        print(f"{name}: {p['total']} instructions")
        if "loop" in p:
            print(f"  outer loop body: {p['loop']} instructions ({p['per_logical']:.1f} per logical thread "
                  f"at K={a.per:g}); {p['nested_loops']} nested loops with {p['nested']} more")
            print("  mix: " + ", ".join(f"{k} {v}" for k, v in p["mix"]))
            print(f"  common path: {p['common']} instructions ({p['common_per_logical']:.2f} per logical thread)")
            print("  mix: " + ", ".join(f"{k} {v}" for k, v in p["common_mix"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
