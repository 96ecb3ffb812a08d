#!/usr/bin/env python3
"""Checks that tfuse's files call one another downward only.

    scripts/layers.py BUILD_DIR

Reads the object files of the tfuse target (BUILD_DIR/CMakeFiles/tfuse.dir/
{support,passes,tool}/*.c.o) with `nm`: a file calls another when it uses (U)
a symbol the other defines.  The three floors are support/ (diagnostics,
source text, arenas, the edit list), passes/ and tool/ (the driver); a file
may call its own floor and the floors below.  Prints every call between two
files with the functions it calls, `passes/fuse.c -> passes/copies.c:
add_site copy_name ...`, then each floor's files by layer (layer 0 calls no
other file of its floor; a file of layer n calls files of layers below n
only).  Exits 1, naming the calls, if a file calls up a floor or some files
call one another in a circle; 2 when there are no object files to read.
"""
import os
import subprocess
import sys
from collections import defaultdict

DEFINED = set("TDBRGSVW")  # global text, data, bss, read-only, small, weak


FLOORS = ("support", "passes", "tool")  # bottom to top


def read_objects(build):
    objdir = os.path.join(build, "CMakeFiles", "tfuse.dir")
    objs = {}
    for sub in FLOORS:
        d = os.path.join(objdir, sub)
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                if f.endswith(".c.o"):
                    objs[sub + "/" + f[:-2]] = os.path.join(d, f)
    return objs


def floor(name):
    return FLOORS.index(name.split("/")[0])


def call_graph(objs):
    defs, uses = {}, {}
    for name, path in objs.items():
        out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
        uses[name] = set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                uses[name].add(parts[1])
            elif len(parts) == 3 and parts[1] in DEFINED:
                defs[parts[2]] = name
    calls = defaultdict(lambda: defaultdict(set))
    for name, used in uses.items():
        for sym in used:
            if sym in defs and defs[sym] != name:
                calls[name][defs[sym]].add(sym)
    return calls


def circles(nodes, edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: layers.py BUILD_DIR")
    objs = read_objects(sys.argv[1])
    if not any(n.startswith("passes/") for n in objs):
        print("layers: no object files of passes/ under %s/CMakeFiles/tfuse.dir (build tfuse first)" % sys.argv[1],
              file=sys.stderr)
        return 2
    files = sorted(objs)
    calls = call_graph(objs)
    for a in sorted(calls):
        for b in sorted(calls[a]):
            print("%s -> %s: %s" % (a, b, " ".join(sorted(calls[a][b]))))
    edges = {a: set(calls[a]) for a in files}
    failed = False
    for a in files:
        for b in sorted(edges[a]):
            if floor(b) > floor(a):
                print("layers: error: %s calls up into %s/: %s -> %s: %s"
                      % (a, FLOORS[floor(b)], a, b, " ".join(sorted(calls[a][b]))))
                failed = True
    for comp in circles(files, edges):
        print("layers: error: these files call one another in a circle: %s" % ", ".join(comp))
        for a in comp:
            for b in sorted(edges[a] & set(comp)):
                print("layers:   %s -> %s: %s" % (a, b, " ".join(sorted(calls[a][b]))))
        failed = True
    if failed:
        return 1
    layer = {}

    def depth(v):
        if v not in layer:
            layer[v] = 1 + max((depth(w) for w in edges[v] if floor(w) == floor(v)), default=-1)
        return layer[v]

    for v in files:
        depth(v)
    for f in FLOORS:
        mine = [v for v in files if v.startswith(f + "/")]
        for n in range(max((layer[v] for v in mine), default=-1) + 1):
            print("%s/ layer %d: %s" % (f, n, " ".join(v for v in mine if layer[v] == n)))
    print("layers: no circle among the %d files, and no call up a floor (%s)" % (len(files), " < ".join(
        f + "/" for f in FLOORS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
