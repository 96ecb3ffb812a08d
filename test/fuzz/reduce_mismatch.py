#!/usr/bin/env python3
"""Program-level reduction of a GPU mismatch (see the header of reduce.sh).

  reduce_mismatch.py round --prog P.cu --out PACK [--tfuse PATH] -- FLAGS...
      Writes candidates of P.cu, each coarsened here with FLAGS, as a campaign
      pack (run it on the GPU machine: bash PACK/run.sh).  Candidates: every
      kernel under test kept alone (its definition and launches; the other
      kernels and their launches removed), every launch block of a lone
      kernel kept alone, and every statement line of a lone kernel removed.
      Candidates that tfuse does not coarsen are dropped; ones that no longer
      compile show up as original failures and are ignored by pick.
  reduce_mismatch.py pick --pack PACK --out NEXT.cu
      Copies the smallest candidate that still mismatches to NEXT.cu (exit 1
      when none does: P.cu is as small as this gets).
  reduce_mismatch.py local --prog P.cu --out DIR [--tfuse PATH] [--nvcc PATH] -- FLAGS...
      Both steps in a loop on one machine with tfuse, nvcc and a GPU.

The edits rely on the layout gen.py writes (kernels end with a `}` in
column 0; the host code for kernel NAME follows a `  // NAME (kind)` line,
one `  { ... }` block per launch); on hand-written programs only the
statement-line candidates apply.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import campaign  # noqa: E402
import gpu_run  # noqa: E402


def kernel_spans(lines):
    """{name: (first, last)} line ranges of each pragma kernel (expect line included)."""
    spans = {}
    for name, expect, line in campaign.pragma_kernels("\n".join(lines)):
        first = line - 1
        if first > 0 and lines[first - 1].lstrip().startswith("// tfuse-expect:"):
            first -= 1
        last = first
        while last < len(lines) and lines[last] != "}":
            last += 1
        spans[name] = (first, last)
    return spans


def host_spans(lines, name):
    """(first, last, [launch block ranges]) of the host code for kernel name, or None."""
    start = None
    for n, l in enumerate(lines):
        if re.match(r"^  // %s \(" % re.escape(name), l):
            start = n
            break
    if start is None:
        return None
    end = start + 1
    blocks = []
    while end < len(lines) and not lines[end].startswith("  // ") and "cudaDeviceSynchronize" not in lines[end]:
        if lines[end] == "  {":
            b = end
            while lines[end] != "  }":
                end += 1
            blocks.append((b, end))
        end += 1
    return start, end - 1, blocks


def drop(lines, ranges):
    kill = set()
    for a, b in ranges:
        kill.update(range(a, b + 1))
    return [l for n, l in enumerate(lines) if n not in kill]


def candidates(text):
    lines = text.split("\n")
    spans = kernel_spans(lines)
    out = []
    names = list(spans)
    if len(names) > 1:
        for keep in names:
            rm = []
            for n in names:
                if n != keep:
                    rm.append(spans[n])
                    h = host_spans(lines, n)
                    if h:
                        rm.append((h[0], h[1]))
            out.append(("only-%s" % keep, "\n".join(drop(lines, rm))))
    if len(names) == 1:
        n = names[0]
        h = host_spans(lines, n)
        if h and len(h[2]) > 1:
            for k, blk in enumerate(h[2]):
                rm = [b for b in h[2] if b != blk]
                out.append(("launch-%d" % k, "\n".join(drop(lines, rm))))
        a, b = spans[n]
        for ln in range(a, b):
            s = lines[ln].strip()
            if s.endswith(";") and not s.startswith("return") and "__global__" not in s:
                out.append(("line-%d" % (ln + 1), "\n".join(drop(lines, [(ln, ln)]))))
    return out


def cmd_round(a, flags):
    text = open(a.prog).read()
    cands = [("current", text)] + candidates(text)
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    os.makedirs(a.out)
    tag = campaign.variant_tag(campaign.parse_variant(flags_to_variant(flags)))
    pack = {"programs": []}
    for n, (name, t) in enumerate(cands):
        d = os.path.join(a.out, "cand-%d" % n)
        os.makedirs(d)
        p = os.path.join(d, "prog.cu")
        with open(p, "w") as f:
            f.write(t)
        v = os.path.join(d, tag + ".cu")
        r = subprocess.run([a.tfuse, "-skip-unsafe"] + flags + [p, "-o", v], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if r.returncode != 0 or not os.path.exists(v):
            shutil.rmtree(d)
            continue
        acc = campaign.COARSENED_RE.findall(open(v).read())
        if not acc:
            shutil.rmtree(d)
            continue
        ks = {k: e for k, e, _ in campaign.pragma_kernels(t)}
        pack["programs"].append({"seed": n, "name": name, "original": "cand-%d/prog.cu" % n, "kernels": ks,
                                 "size": len(t), "variants": [{"tag": tag, "file": "cand-%d/%s.cu" % (n, tag),
                                                               "flags": flags, "accepted": acc}]})
    with open(os.path.join(a.out, "pack.json"), "w") as f:
        json.dump(pack, f, indent=1)
    shutil.copy(os.path.join(HERE, "gpu_run.py"), a.out)
    with open(os.path.join(a.out, "run.sh"), "w") as f:
        f.write(campaign.RUN_SH)
    print("reduce_mismatch: %d candidates in %s (cand-0 is the current program)" % (len(pack["programs"]), a.out))
    return 0


def flags_to_variant(flags):
    f = dict(zip(flags[::2], flags[1::2]))
    return "%s %s %s %s" % (f.get("-factor", "2"), f.get("-mode", "block"), f.get("-dim", "x"),
                            f.get("-mapping", ""))


def pick(pack_dir):
    pack = json.load(open(os.path.join(pack_dir, "pack.json")))
    res = json.load(open(os.path.join(pack_dir, "results.json")))
    bad = {m["seed"] for m in res["mismatches"]}
    bad |= {f["seed"] for f in res["failures"] if f["outcome"] in ("variant-error", "timeout")}
    best = None
    for p in pack["programs"]:
        if p["seed"] in bad and p["seed"] != 0 and (best is None or p["size"] < best["size"]):
            best = p
    return best, 0 in bad


def cmd_pick(a):
    best, cur = pick(a.pack)
    if not cur:
        print("reduce_mismatch: warning: the current program (cand-0) does not mismatch in this run")
    if not best:
        print("reduce_mismatch: no smaller candidate mismatches")
        return 1
    shutil.copy(os.path.join(a.pack, best["original"]), a.out)
    print("reduce_mismatch: %s (%s, %d bytes) -> %s" % (best["original"], best["name"], best["size"], a.out))
    return 0


def cmd_local(a, flags):
    os.makedirs(a.out, exist_ok=True)
    cur = os.path.join(a.out, "current.cu")
    shutil.copy(a.prog, cur)
    for rnd in range(200):
        pack = os.path.join(a.out, "round")
        ns = argparse.Namespace(prog=cur, out=pack, tfuse=a.tfuse)
        cmd_round(ns, flags)
        r = subprocess.run([sys.executable, os.path.join(pack, "gpu_run.py")] +
                           (["--nvcc", a.nvcc] if a.nvcc else []))
        best, _ = pick(pack)
        if not best:
            break
        shutil.copy(os.path.join(pack, best["original"]), cur)
        print("reduce_mismatch: round %d: %s, %d bytes" % (rnd, best["name"], best["size"]))
    print("reduce_mismatch: result in %s" % cur)
    return 0


def main():
    argv = sys.argv[1:]
    flags = []
    if "--" in argv:
        k = argv.index("--")
        argv, flags = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("round", "local"):
        s = sub.add_parser(name)
        s.add_argument("--prog", required=True)
        s.add_argument("--out", required=True)
        s.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
        if name == "local":
            s.add_argument("--nvcc")
    s = sub.add_parser("pick")
    s.add_argument("--pack", required=True)
    s.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    if a.cmd in ("round", "local") and not flags:
        ap.error("give the variant's tfuse flags after --")
    if a.cmd == "round":
        return cmd_round(a, flags)
    if a.cmd == "pick":
        return cmd_pick(a)
    return cmd_local(a, flags)


if __name__ == "__main__":
    sys.exit(main())
