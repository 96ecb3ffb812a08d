#!/usr/bin/env python3
"""Measures tfuse on an outside corpus of CUDA programs described by a manifest (see README.md).

  corpus.py extract    --manifest M [--mirrors DIR] [--work DIR] [--fill-kernels]
      Materialises each program's sources from local git mirrors (git archive of
      repo@commit:path) into WORK/src/PROG/.  --fill-kernels writes the __global__
      functions found in each program's coarsened file into the manifest where it
      lists none.
  corpus.py cpu        --manifest M --out DIR [--tfuse PATH] [--nvcc PATH] [-j J] [--only P,Q] [--no-nvcc]
                       [--auto | --auto-only]
      For each program x kernel x variant (block K=2,4,8, thread K=2,4) runs tfuse,
      classifies the outcome (rewritten / refused with a normalised reason /
      crashed / internal error / hang), compiles every rewritten file with the
      program's own compile line (and each original once), and writes
      DIR/results.json, DIR/table.md and DIR/progs/PROG/ (sources + variant files).
      --auto adds one request per program: its kernels that a block-mode variant
      rewrote, all in one file with tfuse -factor auto -mode block (compiled with
      the tuning runtime and -lcuda); --auto-only runs only those, on the fixed
      results and program folders of an earlier run in DIR.
  corpus.py gpu-pack   --from DIR --to PACK [--auto-only]
      Copies the originals, the rewritten variants that nvcc accepted, run.sh and
      the GPU runner (python3 standard library only) into PACK, and where there are
      auto builds the kernel tracer (ktrace.c, built here against CUDA's CUPTI, with
      its libcupti beside it) for run.sh --ktrace-rounds.  On the GPU machine:
      bash PACK/run.sh [-j 16] [--deadline S] (and the options of corpus_gpu.py); results go to PACK/results.json and $OUT.
  corpus.py gpu-report --from DIR --gpu RESULTS.json [--out FILE.md]
      Merges the GPU results into the CPU results: per variant class and overall,
      requests, rewritten, compiled, passed own check, wrong results, speedups.
"""

import argparse
import concurrent.futures as cf
import glob
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "test", "fuzz"))
from campaign import normalize_reason, first_error  # noqa: E402
from gpu_run import run  # noqa: E402
from corpus_gpu import auto_compile, build_tune_obj, TUNE_FILES  # noqa: E402

VARIANTS = [("block", 2), ("block", 4), ("block", 8), ("thread", 2), ("thread", 4)]
AUTO_FACTORS = [2, 4, 8, 16]  # tfuse -factor auto's default candidates (-candidates)
AUTO_PROBE_RE = re.compile(r"-factor auto: candidate factor (\d+) of '([A-Za-z_]\w*)'")  # tfuse's own refusal
AUTO_SHARED_RE = re.compile(r"Entry function '(?:_Z\d+)?([A-Za-z_]\w*?)__tf_b[xyz](\d+)\w*' uses too much shared data")
AUTO_VARIANT_RE = re.compile(r"^/\* tfuse -factor auto: variant '([^']*)' of '([^']*)' \*/$", re.M)
AUTO_UNROUTED_RE = re.compile(r"warning: no launch of '([^']*)' in this file: -factor auto renamed")
TFUSE_TIMEOUT = 60
NVCC_TIMEOUT = 300
GLOBAL_RE = re.compile(r"__global__\s+(?:[^;{()]*?\s)?(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(")


def vtag(mode, k):
    return "%s%d" % (mode, k)


def load_manifest(path):
    m = json.load(open(path))
    names = set()
    for p in m["programs"]:
        for key in ("name", "file", "compile", "run"):
            if key not in p:
                sys.exit("manifest: program %s lacks '%s'" % (p.get("name", "?"), key))
        if p["name"] in names or not re.match(r"^[A-Za-z0-9._-]+$", p["name"]):
            sys.exit("manifest: bad or repeated program name %r" % p["name"])
        names.add(p["name"])
    return m


def work_dir(a, manifest_path):
    return os.path.abspath(a.work or os.path.dirname(os.path.abspath(manifest_path)))


def find_kernels(text):
    """The __global__ functions defined in text (declarations without a body are skipped)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    res = []
    for m in GLOBAL_RE.finditer(text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        rest = text[i:i + 200].lstrip()
        if rest.startswith("{") or rest.startswith("__") and "{" in rest.split(";")[0]:
            if m.group(1) not in res:
                res.append(m.group(1))
    return res


# ---- extract -----------------------------------------------------------------------
def copy_source(mirrors, name, s, dst):
    """Copies repo@commit:path (a file or a folder) of a local mirror to dst/TO, blob by blob (a snapshot may lack
    large unrelated blobs, which makes `git archive` fail); blobs that are absent are reported and skipped."""
    gitdir = os.path.join(mirrors, s["repo"].replace("/", "+"), "repo")
    ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", s["commit"], "--", s["path"]],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    entries = [e for e in ls.stdout.decode("utf-8", "replace").split("\0") if e]
    if ls.returncode != 0 or not entries:
        sys.exit("extract %s: nothing at %s@%s:%s (%s)" % (name, s["repo"], s["commit"], s["path"],
                                                         ls.stderr.decode()[-300:]))
    to = s.get("to", ".")
    for e in entries:
        meta, path = e.split("\t", 1)
        mode, kind, obj = meta.split()
        if kind != "blob":
            continue
        rel = os.path.relpath(path, s["path"]) if path != s["path"] else os.path.basename(path)
        out = os.path.normpath(os.path.join(dst, to, rel))
        blob = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "blob", obj], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        if blob.returncode != 0:
            print("extract %s: %s is absent from the snapshot, skipped" % (name, path))
            continue
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as fh:
            fh.write(blob.stdout)
        if mode == "100755":
            os.chmod(out, 0o755)


def cmd_extract(a):
    m = load_manifest(a.manifest)
    work = work_dir(a, a.manifest)
    changed = False
    for p in m["programs"]:
        dst = os.path.join(work, "src", p["name"])
        if os.path.isdir(dst) and not a.force:
            pass
        else:
            shutil.rmtree(dst, ignore_errors=True)
            tmp = dst + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            for s in p["sources"]:
                copy_source(a.mirrors, p["name"], s, tmp)
            os.replace(tmp, dst)
            print("extracted %s" % p["name"])
        if a.fill_kernels and not p.get("kernels"):
            f = os.path.join(dst, p.get("dir", "."), p["file"])
            p["kernels"] = find_kernels(open(f, errors="replace").read())
            changed = True
    if changed:
        with open(a.manifest, "w") as fh:
            json.dump(m, fh, indent=1)
        print("kernels written into %s" % a.manifest)
    return 0


# ---- cpu ---------------------------------------------------------------------------
def subst(cmd, src, exe):
    return cmd.replace("{src}", src).replace("{exe}", exe)


def variant_name(p, kernel, mode, k):
    stem, ext = os.path.splitext(p["file"])
    return "%s__tf_%s_%s%s" % (stem, kernel, vtag(mode, k), ext)


def is_auto(r):
    return r.get("variant") == "auto"


def fixed_requests(results):
    return [r for r in results if not r.get("original") and not is_auto(r)]


def sort_results(results, programs):
    order = {p["name"]: i for i, p in enumerate(programs)}
    vorder = {vtag(*v): i for i, v in enumerate(VARIANTS)}
    results.sort(key=lambda r: (order[r["program"]], is_auto(r), r.get("kernel") or "",
                                vorder.get(r.get("variant"), -1)))


def compile_prog(p, pdir, src, nvcc):
    """Runs the program's compile line with src in place of {src}; (ok, first error, whole message)."""
    with tempfile.TemporaryDirectory() as td:
        cmd = subst(p["compile"], src, os.path.join(td, "a.out"))
        if nvcc != "nvcc":
            cmd = re.sub(r"^nvcc\b", nvcc, cmd)
        rc, out, err, dt = run(["bash", "-c", cmd], NVCC_TIMEOUT, cwd=pdir)
    msg = out + err
    return rc == 0, (first_error(msg) if rc != 0 else ""), msg[-4000:]


def classify_tfuse(rc, err):
    if rc is None:
        return "hang", "tfuse ran past %d s" % TFUSE_TIMEOUT
    if rc < 0:
        return "crashed", "signal %d" % -rc
    errs = [l for l in err.splitlines() if " error: " in l or l.startswith("error: ")]
    if rc == 0:
        return "rewritten", ""
    if any("internal error" in l for l in errs):
        return "internal-error", next(l for l in errs if "internal error" in l)
    if rc == 1 and errs:
        return "refused", errs[0]
    return "tfuse-failed", "rc %d: %s" % (rc, (err.strip().splitlines() or ["?"])[-1][:300])


def fewer_factors(over, factors, kernels, r):
    """(kernel, factor) pairs over the static shared memory limit: the candidate factors from the smallest that
    failed up are dropped, or, where that is the smallest factor left, the kernels failing at it."""
    least = min(f for _, f in over)
    now = factors or AUTO_FACTORS
    if least > now[0]:
        return [f for f in now if f < least], kernels
    for k, f in over:
        if f == least:
            r["dropped"][k] = "too much static shared memory at the smallest factor, %d" % f
    return factors, [k for k in kernels if k not in r["dropped"]]


def auto_request(p, pdir, results, a, tfuse, tune_obj):
    """The -factor auto request of program p: every kernel that a block-mode request rewrote (in results), in one
    file, `tfuse -kernel A -kernel B ... -factor auto -mode block`, compiled with the tuning runtime.  A kernel
    whose launches -factor auto cannot route (tfuse warns that the renamed variants leave a launch behind) is
    dropped and tfuse runs again.  Where ptxas finds too much static shared memory in a candidate (a template
    kernel's shared sizes, which tfuse cannot tell), or tfuse's own check of its output refuses such candidates,
    the factors from the smallest that failed up are dropped (-candidates) and tfuse runs again; a kernel that
    fails at the smallest factor left is dropped."""
    done = {r["kernel"] for r in fixed_requests(results) if r["program"] == p["name"] and r.get("mode") == "block"
            and r["outcome"] == "rewritten"}
    kernels = [k for k in p["kernels"] if k in done]
    stem, ext = os.path.splitext(p["file"])
    vfile = "%s__tf_auto%s" % (stem, ext)
    r = {"program": p["name"], "variant": "auto", "mode": "block", "factor": "auto", "kernel": ",".join(kernels),
         "kernels": kernels, "dropped": {}, "tfuse_s": 0.0}
    factors = None  # tfuse's default candidates
    while kernels:
        cmd = [tfuse] + [w for k in kernels for w in ("-kernel", k)] + ["-factor", "auto", "-mode", "block"] + \
            (["-candidates", ",".join(map(str, factors))] if factors else []) + p.get("tfuse_args", []) + \
            [p["file"], "-o", vfile]
        rc, so, se, dt = run(cmd, TFUSE_TIMEOUT, cwd=pdir)
        r["tfuse_s"] = round(r["tfuse_s"] + dt, 2)
        outcome, detail = classify_tfuse(rc, se)
        r.update({"outcome": outcome, "detail": detail, "kernel": ",".join(kernels), "kernels": list(kernels)})
        if outcome == "refused":
            r["reason"] = reason_class(detail)
        probed = [(k, int(f)) for f, k in AUTO_PROBE_RE.findall(se) if k in kernels]
        if outcome == "refused" and probed:
            # tfuse found candidates over 48 KB of static shared memory (template sizes)
            factors, kernels = fewer_factors(probed, factors, kernels, r)
            continue
        if outcome != "rewritten":
            break
        unrouted = [k for k in AUTO_UNROUTED_RE.findall(se) if k in kernels]
        if unrouted:
            for k in unrouted:
                r["dropped"][k] = "no launch that -factor auto can route (a launch would be left behind)"
            kernels = [k for k in kernels if k not in unrouted]
            continue
        text = open(os.path.join(pdir, vfile), errors="replace").read()
        r["candidates"] = {k: [] for k in kernels}
        for label, k in AUTO_VARIANT_RE.findall(text):
            if label != "original":
                r["candidates"].setdefault(k, []).append(label)
        r["dispatches"] = text.count("static tfuse_tune_site __tf_site = ")
        r["warnings"] = [l for l in se.splitlines() if "warning:" in l][:5]
        r["file"] = vfile
        if factors:
            r["candidates_arg"] = ",".join(map(str, factors))
        if tune_obj is None:
            r["compiled"] = None
            break
        ok, first, msg = compile_prog(dict(p, compile=auto_compile(p["compile"], tune_obj)), pdir, vfile, a.nvcc)
        r["compiled"] = ok
        if ok:
            r.pop("nvcc_error", None)
            break
        r["nvcc_error"] = first
        over = [(k, int(f)) for k, f in AUTO_SHARED_RE.findall(msg) if k in kernels]
        if over:
            factors, kernels = fewer_factors(over, factors, kernels, r)
            continue
        with open(os.path.join(pdir, vfile + ".nvcc.txt"), "w") as fh:
            fh.write(msg)
        break
    if not kernels:
        for key in ("file", "compiled", "candidates", "dispatches", "nvcc_error", "warnings", "candidates_arg"):
            r.pop(key, None)
        r.update({"outcome": "no-kernel", "detail": "no kernel of the program was rewritten in block mode" if
                  not r["dropped"] else "no kernel left: " + "; ".join("%s: %s" % kv for kv in r["dropped"].items())})
    if r.get("outcome") != "rewritten" and os.path.exists(os.path.join(pdir, vfile)):
        os.remove(os.path.join(pdir, vfile))
    return r


def reason_class(line):
    m = re.match(r"^(?:.*?:\d+:\d+: )?error: (.*)$", line)
    return normalize_reason(m.group(1) if m else line)


def cmd_cpu(a):
    m = load_manifest(a.manifest)
    work = work_dir(a, a.manifest)
    out = os.path.abspath(a.out)
    tfuse = os.path.abspath(a.tfuse)
    only = set(a.only.split(",")) if a.only else None
    progs = [p for p in m["programs"] if not only or p["name"] in only]
    os.makedirs(out, exist_ok=True)
    prev = os.path.join(out, "results.json")
    if a.auto_only:  # the fixed requests and program folders of an earlier run
        if not os.path.exists(prev):
            sys.exit("cpu --auto-only: no earlier run in %s (run cpu first)" % out)
        old = json.load(open(prev))
        progs = [p for p in old["programs"] if not only or p["name"] in only]
    jobs = []
    for p in progs if not a.auto_only else []:
        src = os.path.join(work, "src", p["name"])
        if not os.path.isdir(src):
            sys.exit("cpu: %s not extracted (run corpus.py extract)" % src)
        dst = os.path.join(out, "progs", p["name"])
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
        kernels = p.get("kernels") or find_kernels(open(os.path.join(dst, p.get("dir", "."), p["file"]),
                                                         errors="replace").read())
        p["kernels"] = kernels
        jobs.append((p, None, None, None))
        for kern in kernels:
            for mode, k in VARIANTS:
                jobs.append((p, kern, mode, k))

    def one(job):
        p, kern, mode, k = job
        pdir = os.path.join(out, "progs", p["name"], p.get("dir", "."))
        if kern is None:
            ok, first, msg = (True, "", "") if a.no_nvcc else compile_prog(p, pdir, p["file"], a.nvcc)
            return {"program": p["name"], "original": True, "compiled": ok, "nvcc_error": first}
        vfile = variant_name(p, kern, mode, k)
        cmd = [tfuse, "-kernel", kern, "-factor", str(k), "-mode", mode] + p.get("tfuse_args", []) + \
            [p["file"], "-o", vfile]
        rc, so, se, dt = run(cmd, TFUSE_TIMEOUT, cwd=pdir)
        outcome, detail = classify_tfuse(rc, se)
        r = {"program": p["name"], "kernel": kern, "variant": vtag(mode, k), "mode": mode, "factor": k,
             "outcome": outcome, "detail": detail, "tfuse_s": round(dt, 2)}
        if outcome == "refused":
            r["reason"] = reason_class(detail)
        if outcome != "rewritten":
            if os.path.exists(os.path.join(pdir, vfile)):
                os.remove(os.path.join(pdir, vfile))
            return r
        r["file"] = vfile
        if a.no_nvcc:
            r["compiled"] = None
            return r
        ok, first, msg = compile_prog(p, pdir, vfile, a.nvcc)
        r["compiled"] = ok
        if not ok:
            r["nvcc_error"] = first
            with open(os.path.join(pdir, vfile + ".nvcc.txt"), "w") as fh:
                fh.write(msg)
        return r

    results = []
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = [ex.submit(one, j) for j in jobs]
        for n, fu in enumerate(cf.as_completed(futs), 1):
            results.append(fu.result())
            if n % 50 == 0:
                print("cpu: %d/%d" % (n, len(jobs)), flush=True)
    version = run([tfuse, "-version"], 10)[1].strip()
    if a.auto or a.auto_only:
        tune_obj = None
        if not a.no_nvcc:
            tune_obj = os.path.join(out, "tune-runtime", "tune.o")
            ok, msg = build_tune_obj(a.nvcc, ROOT, tune_obj)
            if not ok:
                sys.exit("cpu: the tuning runtime (%s) did not compile:\n%s" % (TUNE_FILES[0], msg))
        fixed = old["results"] if a.auto_only else results
        with cf.ThreadPoolExecutor(a.j) as ex:
            autos = list(ex.map(lambda p: auto_request(p, os.path.join(out, "progs", p["name"], p.get("dir", ".")),
                                                       fixed, a, tfuse, tune_obj), progs))
        print("cpu: %d auto requests" % len(autos), flush=True)
    if a.auto_only:
        res = old
        names = {p["name"] for p in progs}
        res["results"] = [r for r in old["results"] if not (is_auto(r) and r["program"] in names)] + autos
        sort_results(res["results"], res["programs"])
    else:
        results += autos if a.auto else []
        sort_results(results, progs)
        res = {"tfuse": tfuse, "tfuse_version": version, "programs": progs, "results": results}
        if only and os.path.exists(prev):  # --only: update those programs in an earlier run of the whole manifest
            old = json.load(open(prev))
            res["programs"] = [next((q for q in progs if q["name"] == p["name"]), p) for p in old["programs"]] + \
                [q for q in progs if q["name"] not in {p["name"] for p in old["programs"]}]
            res["results"] = [r for r in old["results"] if r["program"] not in only] + results
            sort_results(res["results"], res["programs"])
            if old.get("auto_tfuse") and not a.auto:
                res["auto_tfuse"] = old["auto_tfuse"]
    if a.auto or a.auto_only:
        res["auto_tfuse"] = {"tfuse": tfuse, "tfuse_version": version}
    with open(os.path.join(out, "results.json"), "w") as fh:
        json.dump(res, fh, indent=1)
    md = cpu_table(res)
    with open(os.path.join(out, "table.md"), "w") as fh:
        fh.write(md)
    print(md)
    return 0


def pct(n, d):
    return "%.1f%%" % (100.0 * n / d) if d else "-"


def cpu_table(res):
    reqs = fixed_requests(res["results"])
    origs = [r for r in res["results"] if r.get("original")]
    L = ["# tfuse on the outside corpus: CPU stage", "",
         "tfuse: `%s` (%s); %d programs, %d kernels, %d requests (kernel x variant)." % (
             res["tfuse"], res["tfuse_version"], len(res["programs"]),
             sum(len(p["kernels"]) for p in res["programs"]), len(reqs)), "",
         "| variant | requests | rewritten | refused | crashed/internal/other | nvcc rejects |",
         "|---|---|---|---|---|---|"]
    classes = [vtag(*v) for v in VARIANTS] + ["all"]
    for c in classes:
        rs = [r for r in reqs if c == "all" or r["variant"] == c]
        rw = [r for r in rs if r["outcome"] == "rewritten"]
        L.append("| %s | %d | %d (%s) | %d | %d | %d |" % (
            c, len(rs), len(rw), pct(len(rw), len(rs)), sum(r["outcome"] == "refused" for r in rs),
            sum(r["outcome"] not in ("rewritten", "refused") for r in rs),
            sum(r.get("compiled") is False for r in rw)))
    bad_orig = [r["program"] for r in origs if r["compiled"] is False]
    if bad_orig:
        L += ["", "Originals that nvcc rejects (their variants mean nothing): " + ", ".join(bad_orig)]
    reasons = {}
    for r in reqs:
        if r["outcome"] == "refused":
            reasons.setdefault(r["reason"], []).append(r)
    L += ["", "## Refusal reasons (normalised), with counts and one example", "",
          "| count | reason | example (program:kernel:variant) | error line |", "|---|---|---|---|"]
    for reason, rs in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        e = rs[0]
        kern = sorted({(x["program"], x["kernel"]) for x in rs})
        L.append("| %d (%d kernels) | %s | %s:%s:%s | `%s` |" % (
            len(rs), len(kern), md_esc(reason), e["program"], e["kernel"], e["variant"], md_esc(e["detail"][:300])))
    other = [r for r in reqs if r["outcome"] not in ("rewritten", "refused")]
    if other:
        L += ["", "## tfuse crashes, internal errors, hangs", ""]
        for r in other:
            L.append("- %s:%s:%s %s: `%s`" % (r["program"], r["kernel"], r["variant"], r["outcome"],
                                             md_esc(r["detail"][:300])))
    rej = [r for r in reqs if r.get("compiled") is False]
    if rej:
        L += ["", "## nvcc rejects of rewritten files", ""]
        for r in rej:
            L.append("- %s:%s:%s: `%s`" % (r["program"], r["kernel"], r["variant"], md_esc(r["nvcc_error"][:300])))
    L += ["", "## Per program (rewritten / requests)", "", "| program | kernels | rewritten | nvcc rejects |",
          "|---|---|---|---|"]
    for p in res["programs"]:
        rs = [r for r in reqs if r["program"] == p["name"]]
        L.append("| %s | %d | %d/%d | %d |" % (p["name"], len(p["kernels"]),
                                               sum(r["outcome"] == "rewritten" for r in rs), len(rs),
                                               sum(r.get("compiled") is False for r in rs)))
    autos = [r for r in res["results"] if is_auto(r)]
    if autos:
        L += auto_cpu_table(res, autos)
    return "\n".join(L) + "\n"


def auto_cpu_table(res, autos):
    at = res.get("auto_tfuse", {})
    rw = [r for r in autos if r["outcome"] == "rewritten"]
    L = ["", "## -factor auto: one request per program", "",
         "Each program's kernels that a block-mode request rewrote, in one file: `tfuse -kernel A -kernel B ... "
         "-factor auto -mode block` (tfuse `%s`, %s), compiled with the program's compile line, the tuning runtime "
         "and -lcuda. %d programs: %d rewritten (%d compiled, %d nvcc rejects, %d not compiled here), %d with no "
         "kernel, %d refused or failed; %d with fewer candidates after ptxas's shared-memory limit." % (
             at.get("tfuse", "?"), at.get("tfuse_version", "?"), len(autos), len(rw),
             sum(r.get("compiled") is True for r in rw), sum(r.get("compiled") is False for r in rw),
             sum(r.get("compiled") is None for r in rw), sum(r["outcome"] == "no-kernel" for r in autos),
             sum(r["outcome"] not in ("rewritten", "no-kernel") for r in autos),
             sum(bool(r.get("candidates_arg")) for r in rw)), "",
         "| program | outcome | kernels: candidates | dispatches | nvcc | note |", "|---|---|---|---|---|---|"]
    for r in autos:
        cands = "; ".join("%s: %s" % (k, ",".join(c.split(":")[-1] for c in v) or "none")
                          for k, v in r.get("candidates", {}).items())
        note = []
        if r.get("candidates_arg"):
            note.append("-candidates " + r["candidates_arg"])
        note += ["%s dropped (%s)" % kv for kv in r.get("dropped", {}).items()]
        if r["outcome"] != "rewritten":
            note.append(r.get("detail", "")[:200])
        elif r.get("compiled") is False:
            note.append(r.get("nvcc_error", "")[:200])
        L.append("| %s | %s | %s | %s | %s | %s |" % (
            r["program"], r["outcome"], md_esc(cands) or "-", r.get("dispatches", "-"),
            {True: "ok", False: "rejected", None: "-"}[r.get("compiled")], md_esc("; ".join(note))))
    return L


def md_esc(s):
    return s.replace("|", "\\|").replace("`", "'")


# ---- gpu-pack ----------------------------------------------------------------------
RUN_SH = """#!/bin/bash
# Builds and runs the corpus originals and tfuse variants of this pack on a GPU machine.
#   bash run.sh [-j N] [--timeout S] [--deadline S] [--nvcc PATH]
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/corpus_gpu.py" "$@"
"""


def build_ktrace(dst):
    """The kernel tracer (ktrace.c, for corpus_gpu.py --ktrace-rounds) built into DST/ktrace/ against the CUPTI of
    the CUDA toolkit here, with that libcupti beside it (found through the tracer's runpath on the GPU machine);
    an error message, or None."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    cuda = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    inc = next((d for d in (os.path.join(cuda, "include"), os.path.join(cuda, "extras", "CUPTI", "include"))
                if os.path.exists(os.path.join(d, "cupti.h"))), None)
    lib = next((d for d in (os.path.join(cuda, s) for s in ("lib64", "lib", "extras/CUPTI/lib64",
                                                             "targets/x86_64-linux/lib"))
                if glob.glob(os.path.join(d, "libcupti.so.*"))), None)
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang-22")
    if not inc or not lib or not cc:
        return "no CUPTI (cupti.h, libcupti.so) beside %s, or no C compiler" % nvcc
    out = os.path.join(dst, "ktrace")
    os.makedirs(out, exist_ok=True)
    p = subprocess.run([cc, "-O2", "-std=c11", "-D_GNU_SOURCE", "-shared", "-fPIC", os.path.join(HERE, "ktrace.c"),
                        "-I", inc, "-L", lib, "-lcupti", "-Wl,-rpath,$ORIGIN", "-o", os.path.join(out, "ktrace.so")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        shutil.rmtree(out)
        return "ktrace.c did not compile: " + p.stdout.decode()[-500:]
    for so in glob.glob(os.path.join(lib, "libcupti.so.*")):  # the soname the tracer needs: libcupti.so.MAJOR
        if re.fullmatch(r"libcupti\.so\.[0-9]+", os.path.basename(so)):
            shutil.copy(os.path.realpath(so), os.path.join(out, os.path.basename(so)))
    return None


def cmd_gpu_pack(a):
    src = os.path.abspath(getattr(a, "from"))
    dst = os.path.abspath(a.to)
    res = json.load(open(os.path.join(src, "results.json")))
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    progs = []
    for p in res["programs"]:
        origs = [r for r in res["results"] if r.get("original") and r["program"] == p["name"]]
        if origs and origs[0]["compiled"] is False:
            print("gpu-pack: %s left out: nvcc rejects the original" % p["name"])
            continue
        vs = [{"file": r["file"], "kernel": r["kernel"], "variant": r["variant"]}
              for r in fixed_requests(res["results"])
              if r["program"] == p["name"] and r["outcome"] == "rewritten" and r.get("compiled") is not False]
        au = [{"file": r["file"], "kernels": r["kernels"]} for r in res["results"]
              if is_auto(r) and r["program"] == p["name"] and r["outcome"] == "rewritten"
              and r.get("compiled") is not False]
        if a.auto_only:  # the steady-state measurement of -factor auto: originals and auto builds only
            if not au:
                continue
            vs = []
        shutil.copytree(os.path.join(src, "progs", p["name"]), os.path.join(dst, "progs", p["name"]),
                        ignore=shutil.ignore_patterns("*.nvcc.txt"))
        progs.append({k: p[k] for k in ("name", "file", "compile", "run") if k in p} |
                     {"dir": p.get("dir", "."), "pass": p.get("pass", {}), "timeout": p.get("timeout", 30),
                      "kernel_time_regex": p.get("kernel_time_regex"), "steady_run": p.get("steady_run"),
                      "variants": vs} |
                     ({"auto": au[0]} if au else {}))
    if any(q.get("auto") for q in progs):  # the tuning runtime, built on the GPU machine for the auto files
        for f in TUNE_FILES:
            os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, f), os.path.join(dst, f))
    with open(os.path.join(dst, "pack.json"), "w") as fh:
        json.dump({"programs": progs}, fh, indent=1)
    why = build_ktrace(dst) if any(q.get("auto") for q in progs) else None
    if why:
        print("gpu-pack: no kernel tracer (corpus_gpu.py --ktrace-rounds will not run): " + why)
    shutil.copy(os.path.join(HERE, "corpus_gpu.py"), os.path.join(dst, "corpus_gpu.py"))
    shutil.copy(os.path.join(ROOT, "test", "fuzz", "gpu_run.py"), os.path.join(dst, "gpu_run.py"))
    with open(os.path.join(dst, "run.sh"), "w") as fh:
        fh.write(RUN_SH)
    os.chmod(os.path.join(dst, "run.sh"), 0o755)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(dst) for f in fs)
    print("gpu-pack: %s: %d programs, %d variants, %d auto builds, %.1f MiB" % (
        dst, len(progs), sum(len(p["variants"]) for p in progs), sum(bool(p.get("auto")) for p in progs),
        size / 2**20))
    return 0


# ---- gpu-report --------------------------------------------------------------------
def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt_x(x):
    return "%.2fx" % x if x else "-"


def cmd_gpu_report(a):
    src = os.path.abspath(getattr(a, "from"))
    cpu = json.load(open(os.path.join(src, "results.json")))
    gpu = json.load(open(a.gpu))
    runs = gpu["runs"]
    reqs = fixed_requests(cpu["results"])
    orig = {p["name"]: runs.get(p["name"] + "/original") for p in cpu["programs"]}
    L = ["# tfuse on the outside corpus: GPU stage", "",
         "tfuse: `%s` (%s). GPU: %s. Own check: each program's pass criterion; a variant's speedup is the "
         "original's time over the variant's (wall time of the whole run, and the sum of the kernel times the "
         "program prints where it prints them); geometric means over variants that passed." % (
             cpu["tfuse"], cpu["tfuse_version"], gpu.get("gpu", "?")), ""]
    bad = sorted(n for n, o in orig.items() if not o or o["outcome"] != "pass")
    if bad:
        L.append("Originals that did not pass their own check (their variants are left out below): " +
                 ", ".join("%s (%s)" % (n, orig[n]["outcome"] if orig[n] else "not run") for n in bad))
        L.append("")
    L += ["| variant | requests | rewritten | compiled | passed own check | wrong results | crash/timeout | "
          "runtime N/A | not run | speedup wall (geomean) | speedup kernel (geomean) |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    rows = {}
    for c in [vtag(*v) for v in VARIANTS] + ["all"]:
        rs = [r for r in reqs if (c == "all" or r["variant"] == c) and r["program"] not in bad]
        st = {"req": len(rs), "rw": 0, "cc": 0, "pass": 0, "wrong": 0, "crash": 0, "na": 0, "notrun": 0,
              "wall": [], "kern": []}
        for r in rs:
            if r["outcome"] != "rewritten":
                continue
            st["rw"] += 1
            g = runs.get(r["program"] + "/" + r["file"])
            if r.get("compiled") is False or (g and g["outcome"] == "compile-failed"):
                continue
            if not g or g["outcome"] == "not-run":
                st["notrun"] += 1
                continue
            st["cc"] += 1
            o = orig[r["program"]]
            if g["outcome"] == "pass":
                st["pass"] += 1
                st["wall"].append(o["run_s"] / g["run_s"] if g["run_s"] else None)
                if o.get("kernel_s") and g.get("kernel_s"):
                    st["kern"].append(o["kernel_s"] / g["kernel_s"])
            elif g["outcome"] == "fail":
                st["wrong"] += 1
            elif g["outcome"] == "runtime-na":
                st["na"] += 1
            else:
                st["crash"] += 1
        rows[c] = st
        L.append("| %s | %d | %d (%s) | %d | %d (%s of requests) | %d | %d | %d | %d | %s | %s |" % (
            c, st["req"], st["rw"], pct(st["rw"], st["req"]), st["cc"], st["pass"], pct(st["pass"], st["req"]),
            st["wrong"], st["crash"], st["na"], st["notrun"], fmt_x(geomean(st["wall"])),
            fmt_x(geomean(st["kern"]))))
    # per-program best variant
    L += ["", "## Per program: original time, best passing variant", "",
          "| program | original wall s | original kernel s | passed/rewritten | best variant (kernel speedup) | "
          "best variant (wall speedup) |", "|---|---|---|---|---|---|"]
    bests = []
    for p in cpu["programs"]:
        o = orig[p["name"]]
        if p["name"] in bad:
            L.append("| %s | original %s | | | | |" % (p["name"], o["outcome"] if o else "not run"))
            continue
        rs = [r for r in reqs if r["program"] == p["name"] and r["outcome"] == "rewritten"]
        ok = [(r, runs.get(p["name"] + "/" + r["file"])) for r in rs]
        ok = [(r, g) for r, g in ok if g and g["outcome"] == "pass"]
        bk = max(((o["kernel_s"] / g["kernel_s"], r) for r, g in ok if o.get("kernel_s") and g.get("kernel_s")),
                 key=lambda t: t[0], default=None)
        bw = max(((o["run_s"] / g["run_s"], r) for r, g in ok if g["run_s"]), key=lambda t: t[0], default=None)
        if bk:
            bests.append(bk[0])
        L.append("| %s | %.3f | %s | %d/%d | %s | %s |" % (
            p["name"], o["run_s"], "%.3g" % o["kernel_s"] if o.get("kernel_s") else "-", len(ok), len(rs),
            "%s %s:%s" % (fmt_x(bk[0]), bk[1]["kernel"], bk[1]["variant"]) if bk else "-",
            "%s %s:%s" % (fmt_x(bw[0]), bw[1]["kernel"], bw[1]["variant"]) if bw else "-"))
    L += ["", "Geometric mean of each program's best kernel speedup: %s over %d programs." % (
        fmt_x(geomean(bests)), len(bests))]
    wrong = [(r, runs.get(r["program"] + "/" + r["file"])) for r in reqs if r["outcome"] == "rewritten"
             and r["program"] not in bad]
    wrong = [(r, g) for r, g in wrong if g and g["outcome"] not in ("pass", "not-run", "compile-failed")]
    if wrong:
        L += ["", "## Variants that failed on the GPU (original passed)", ""]
        for r, g in wrong:
            L.append("- %s:%s:%s %s: `%s`" % (r["program"], r["kernel"], r["variant"], g["outcome"],
                                             md_esc(g.get("detail", "")[:250])))
    if gpu.get("noise"):
        L += ["", "Noise: the originals ran twice; median |t1/t2 - 1| of wall time %.1f%%, of kernel time %s." % (
            100 * gpu["noise"]["wall"], "%.1f%%" % (100 * gpu["noise"]["kernel"])
            if gpu["noise"].get("kernel") is not None else "-")]
    autos = [r for r in cpu["results"] if is_auto(r)]
    if autos:
        L += auto_gpu_report(cpu, autos, runs, orig, bad)
    md = "\n".join(L) + "\n"
    if a.out:
        with open(a.out, "w") as fh:
            fh.write(md)
    print(md)
    return 0


def auto_gpu_report(cpu, autos, runs, orig, bad):
    """The -factor auto section of gpu-report: per program, the steady state (the wisdom run) against the
    original, measured as the fixed variants are (kernel time where the program prints it, else wall time)."""
    L = ["", "## -factor auto: steady state against the original", "",
         "The auto build (its kernels rewritten in block mode, in one file, with `-factor auto`) ran twice: a first "
         "run that tunes each launch key, then a second with the wisdom file of the first; both must pass the "
         "program's own check. ratio = auto time / original time of the second run (kernel time where the program "
         "prints it, else wall time; the original's is the better of its two runs, as for the fixed variants), so "
         "above 1 is slower. Tuning: the first run's keys, their summed tuning time and candidate launches.", "",
         "| program | kernels (candidates) | outcome | keys tuned | tuning | chosen | from wisdom | ratio kernel | "
         "ratio wall | ratio |", "|---|---|---|---|---|---|---|---|---|---|"]
    rows, missing = [], []
    for p in cpu["programs"]:
        r = next((x for x in autos if x["program"] == p["name"]), None)
        if p["name"] in bad:
            continue
        if not r or r["outcome"] != "rewritten":
            missing.append("%s (%s)" % (p["name"], r["outcome"] if r else "no auto request"))
            continue
        g = runs.get(p["name"] + "/" + r["file"])
        o = orig[p["name"]]
        kc = "; ".join("%s: %s" % (k, ",".join(c.split(":")[-1] for c in v) or "none")
                       for k, v in r.get("candidates", {}).items())
        if r.get("compiled") is False or not g or g["outcome"] != "pass":
            why = "nvcc rejected (CPU stage)" if r.get("compiled") is False else \
                g["outcome"] if g else "not in the GPU results"
            if g and g.get("detail"):
                why += ": " + g["detail"][:150].replace("\n", " ")
            missing.append("%s (%s)" % (p["name"], why))
            L.append("| %s | %s | %s | | | | | | | |" % (p["name"], md_esc(kc), md_esc(why)))
            continue
        tuned = g.get("tune", {}).get("tuned", [])
        wis = g.get("wisdom") or {}
        rk = g["kernel_s"] / o["kernel_s"] if o.get("kernel_s") and g.get("kernel_s") else None
        rw = g["run_s"] / o["run_s"] if o["run_s"] and g["run_s"] else None
        ratio, by = (rk, "kernel") if rk else (rw, "wall")
        chosen = sorted({t.get("chosen", "?") for t in tuned})
        retuned = len(wis.get("tuned", []))
        rows.append((p["name"], ratio, by))
        L.append("| %s | %s | pass | %d | %s | %s | %d%s | %s | %s | %s (%s) |" % (
            p["name"], md_esc(kc), len(tuned),
            "%.1f ms, %d launches" % (sum(t.get("tune_ms", 0) for t in tuned), sum(t.get("launches", 0) for t in tuned))
            if tuned else "-", md_esc(" ".join(chosen)) or "-", wis.get("from_wisdom", 0),
            ", %d tuned again" % retuned if retuned else "", "%.3f" % rk if rk else "-", "%.3f" % rw if rw else "-",
            "%.3f" % ratio if ratio else "-", by))
    ok = [t for t in rows if t[1]]
    gm = geomean([1 / t[1] for t in ok])
    worst = max(ok, key=lambda t: t[1], default=None)
    slow = [t for t in ok if t[1] > 1.02]
    L += ["", "Programs whose auto build passed both runs: %d; geometric-mean speedup (original / auto): %s; worst: "
          "%s." % (len(ok), "%.3fx" % gm if gm else "-",
                   "%s at %.3f (%s time)" % worst if worst else "-"),
          "More than 2%% slower than the original: %s." % (
              ", ".join("%s %.3f (%s)" % t for t in slow) if slow else "none")]
    if missing:
        L.append("Without a passing auto build (the original passed): " + ", ".join(missing) + ".")
    L += ktrace_report(cpu, autos, runs, bad)
    L += steady_report(cpu, autos, runs, bad)
    return L


def rounds_of(cpu, autos, runs, bad, field):
    """(program, its auto build's record of the rounds named field: "ktrace" or "steady") of the programs whose
    original passed and whose rounds ran, in the CPU results' order."""
    for p in cpu["programs"]:
        r = next((x for x in autos if x["program"] == p["name"]), None)
        g = runs.get(p["name"] + "/" + r["file"]) if r and r.get("file") else None
        rec = g.get(field) if g else None
        if p["name"] not in bad and rec and rec["original"]:
            yield p, rec


def ratio_summary(what, vals):
    """One line on (program, auto / original) pairs: geometric-mean speedup, worst, those more than 2% slower."""
    gm = geomean([1 / v for _, v in vals])
    worst = max(vals, key=lambda t: t[1], default=None)
    slow = [t for t in vals if t[1] > 1.02]
    return "%s, %d programs: geometric-mean speedup (original / auto) %s; worst %s; more than 2%% slower: %s." % (
        what, len(vals), "%.3fx" % gm if gm else "-", "%s at %.3f" % worst if worst else "-",
        ", ".join("%s %.3f" % t for t in slow) if slow else "none")


# The GPU timer's tick as the tracer sees it on the H200: every kernel's
# duration is a multiple of 32 ns (runs 10 and 11).  Each launch's
# rounding is its own, so a sum over n launches is resolved to about
# sqrt(n) ticks: what matters for a program of a few short launches.
KTRACE_TICK_NS = 32


def ktrace_report(cpu, autos, runs, bad):
    """The rounds under the kernel tracer (corpus_gpu.py --ktrace-rounds): the GPU time of all the program's
    kernels, original against auto build (wisdom present), the median over the rounds per build."""
    rows = []
    for p, kt in rounds_of(cpu, autos, runs, bad, "ktrace"):
        sides = {k: [x["trace"] for x in kt[k] if x.get("trace")] for k in ("original", "auto")}
        ok = all(x["outcome"] == "pass" for k in ("original", "auto") for x in kt[k])
        if not all(sides.values()):
            rows.append((p["name"], len(kt["original"]), None, None, None, None, "-", "-", ok, "no trace"))
            continue
        med = {k: statistics.median(t["kernel_ns"] for t in v) for k, v in sides.items()}
        rest = {k: statistics.median(t["kernel_ns"] - t["first_ns"] for t in v) for k, v in sides.items()}
        ratio = med["auto"] / med["original"] if med["original"] else None
        later = rest["auto"] / rest["original"] if rest["original"] > 0 and rest["auto"] > 0 else None
        launches = "/".join(str(sides[k][-1]["launches"]) for k in ("original", "auto"))
        copies = "/".join(str((sides[k][-1]["memcpy"] or [0])[0]) for k in ("original", "auto"))
        notes = [] if all(t["dropped"] == 0 for v in sides.values() for t in v) else ["records dropped"]
        res = KTRACE_TICK_NS * math.sqrt(sides["original"][-1]["launches"]) / med["original"] if med["original"] else 0
        if res >= 0.005:
            notes.append("timer resolution %.1f%%" % (100 * res))
        note = "; ".join(notes)
        rows.append((p["name"], len(kt["original"]), med["original"], med["auto"], ratio, later, launches, copies,
                     ok, note))
    if not rows:
        return []
    L = ["", "### Steady state by GPU time: the kernel tracer", "",
         "The original and the auto build (its wisdom file present, so no tuning) ran in turn with the program's "
         "own run line under ktrace (a CUPTI injection library, test/corpus/ktrace.c), which sums the GPU time "
         "of every kernel the program launched; the median of the rounds per build. No host-side cost enters "
         "it (process start, module loading, the dispatch), so programs without a repeat count are measured "
         "too. ratio = auto / original, above 1 slower; later launches = the same without each kernel's first "
         "launch (- where every kernel ran once); launches and memory copies: original/auto in the last round "
         "(equal when the auto build ran one kernel per launch and copied nothing more); timer resolution: "
         "one tick of the GPU timer (%d ns on the H200) times the square root of the launches, as a share of "
         "the original's time, where it is 0.5%% or more." % KTRACE_TICK_NS, "",
         "| program | rounds | original GPU ms | auto GPU ms | ratio | later launches | launches | copies | "
         "own checks | note |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name, n, o, u, ratio, later, launches, copies, ok, note in rows:
        L.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, n, "%.4g" % (o / 1e6) if o is not None else "-", "%.4g" % (u / 1e6) if u is not None else "-",
            "%.3f" % ratio if ratio else "-", "%.3f" % later if later else "-", launches, copies,
            "pass" if ok else "FAIL", note))
    L += ["", ratio_summary("Steady state by GPU time", [(t[0], t[4]) for t in rows if t[4] and t[8]])]
    return L


def marginal(st, field, factor):
    """The steady state without one-time costs, from the rounds of the long (steady_run) and the short (run)
    line: (auto's per-repeat cost / original's, "kernel" or "wall", the original's per-repeat figure).  Wall
    time is a total: the extra repeats cost long - short.  A printed kernel time is a total (it grows with the
    repeats: long / short > 2 for the original) or an average over the repeats, whose one-time part falls as
    1/n: then the per-repeat time is (factor * long - short) / (factor - 1), factor the ratio of the repeat
    counts (the manifest's steady_factor, default 10)."""
    keys = ("original", "auto", "original_short", "auto_short")
    if any(not st.get(k) or not all(x.get(field) for x in st[k]) for k in keys):
        return None
    m = {k: statistics.median(x[field] for x in st[k]) for k in keys}
    if field == "run_s" or m["original"] / m["original_short"] > 2:
        o, u = m["original"] - m["original_short"], m["auto"] - m["auto_short"]
    elif factor and factor > 1:
        o = (factor * m["original"] - m["original_short"]) / (factor - 1)
        u = (factor * m["auto"] - m["auto_short"]) / (factor - 1)
    else:
        return None
    return (u / o, "kernel" if field == "kernel_s" else "wall", o) if o > 0 and u > 0 else None


def steady_report(cpu, autos, runs, bad):
    """The steady-state rounds (corpus_gpu.py --steady-rounds): the program's steady_run line, a larger repeat
    count, run by the original and the auto build in turn; per build the median over the rounds.  Where the
    rounds also ran the program's own (short) run line, the cost of one more repeat (marginal()), which leaves
    out every one-time cost (process start, module loading, the first dispatch), is compared too."""
    rows = []
    for p, st in rounds_of(cpu, autos, runs, bad, "steady"):
        ok = all(x["outcome"] == "pass" for k in ("original", "auto", "original_short", "auto_short")
                 for x in st.get(k, []))
        by = "kernel" if all(x.get("kernel_s") for k in ("original", "auto") for x in st[k]) else "wall"
        field = "kernel_s" if by == "kernel" else "run_s"
        med = {k: statistics.median(x[field] for x in st[k]) for k in ("original", "auto")}
        ratio = med["auto"] / med["original"] if med["original"] else None
        marg = None
        if st.get("original_short") and st.get("auto_short"):
            marg = marginal(st, "kernel_s", p.get("steady_factor", 10)) or marginal(st, "run_s", None)
        rows.append((p["name"], st["run"], len(st["original"]), med["original"], med["auto"], ratio, by, ok, marg))
    if not rows:
        return []
    L = ["", "### Steady state: a larger repeat count", "",
         "The programs whose manifest entry has a `steady_run` line (its run line with a larger repeat count) "
         "ran it with the original and with the auto build (its wisdom file present, so no tuning) in turn, "
         "one program at a time; the median of the rounds per build. ratio = auto / original (kernel time where "
         "the program prints it in every round, else wall time); above 1 is slower. marginal = the same ratio "
         "for one more repeat, from steady_run's rounds and the program's own run line's in the same rounds, "
         "which no one-time cost enters (process start, the lazy loading of a module that holds every "
         "candidate, the first dispatch): from the printed kernel times where there are some (a total: long - "
         "short; an average: (f * long - short) / (f - 1), f = 10 or the manifest's steady_factor), else from "
         "wall time (long - short); the figure in brackets is the original's.", "",
         "| program | steady run | rounds | original s | auto s | ratio | marginal (from, original's s per repeat) | "
         "own checks |",
         "|---|---|---|---|---|---|---|---|"]
    for name, run, n, o, u, ratio, by, ok, marg in rows:
        L.append("| %s | `%s` | %d | %.4g | %.4g | %s (%s) | %s | %s |" % (
            name, md_esc(run), n, o, u, "%.3f" % ratio if ratio else "-", by,
            "%.3f (%s, %.4g)" % marg if marg else "-", "pass" if ok else "FAIL"))
    L += ["", ratio_summary("Steady state (ratio)", [(t[0], t[5]) for t in rows if t[5] and t[7]])]
    if any(t[8] for t in rows):
        L.append(ratio_summary("Steady state (marginal)", [(t[0], t[8][0]) for t in rows if t[8] and t[7]]))
    return L


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("extract")
    e.add_argument("--manifest", required=True)
    e.add_argument("--mirrors", default="/work/.mirror", help="folder of OWNER+NAME/repo git directories")
    e.add_argument("--work", help="folder holding src/ (default: the manifest's folder)")
    e.add_argument("--force", action="store_true", help="re-extract programs already there")
    e.add_argument("--fill-kernels", action="store_true")
    c = sub.add_parser("cpu")
    c.add_argument("--manifest", required=True)
    c.add_argument("--work", help="folder holding src/ (default: the manifest's folder)")
    c.add_argument("--out", required=True)
    c.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
    c.add_argument("--nvcc", default="nvcc" if shutil.which("nvcc") else "/usr/local/cuda/bin/nvcc")
    c.add_argument("-j", type=int, default=2)
    c.add_argument("--only", help="comma-separated program names (an earlier results.json in --out is updated)")
    c.add_argument("--no-nvcc", action="store_true", help="skip the nvcc compiles")
    c.add_argument("--auto", action="store_true", help="also the -factor auto request of each program")
    c.add_argument("--auto-only", action="store_true",
                   help="only the -factor auto requests, on the fixed results of an earlier run in --out")
    g = sub.add_parser("gpu-pack")
    g.add_argument("--from", required=True, help="the cpu stage's --out")
    g.add_argument("--to", required=True)
    g.add_argument("--auto-only", action="store_true",
                   help="only the programs with an auto build, and of them the original and the auto build (no "
                        "fixed variants): a smaller pack for the steady-state rounds")
    r = sub.add_parser("gpu-report")
    r.add_argument("--from", required=True, help="the cpu stage's --out")
    r.add_argument("--gpu", required=True, help="results.json of run.sh")
    r.add_argument("--out", help="write the markdown table here too")
    a = ap.parse_args()
    return {"extract": cmd_extract, "cpu": cmd_cpu, "gpu-pack": cmd_gpu_pack, "gpu-report": cmd_gpu_report}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
