#!/usr/bin/env python3
"""tfuse on modern CUDA: the kernel-development programs of karpathy/llm.c (dev/cuda), written with cooperative
groups (thread_block_tile<32>, cg::reduce, meta_group_rank) and warp shuffles, each checking its own result.

  modern.py layout --mirror GITDIR [--commit C] [--work DIR]
      Exports PROGRAMS (dev/cuda/PROG.cu and dev/cuda/common.h) into DIR/src/PROG/ and lists, per program, the
      __global__ kernels defined (a regex), which of them are "modern" (their body uses cooperative groups or a
      warp-level primitive: MODERN_RE), and the kernel versions the program's dispatch switch offers (argv[1])
      with the kernels each one launches (through the host functions it calls).  Writes DIR/layout.json.
  modern.py cpu --work DIR [--tfuse PATH] [-j 2] [--no-nvcc] [--nvcc-only REGEX]
      For every program and every variant (VARIANTS: block K = 2, 4, 8, thread K = 2, 4, and -factor auto in
      block mode) one tfuse run over the program: `tfuse -factor K -mode M -skip-unsafe -all-kernels
      -report-json ... -out-dir DIR/out/VARIANT/PROG PROG.cu -- FLAGS` in DIR/src/PROG; a refused kernel is left as
      it was.  Each kernel x variant is one request: coarsened, or refused with tfuse's reason (normalised into
      a class: names, numbers and locations stripped).  A tfuse crash, a run that writes no report or an
      internal error is a request of its own class.  Every emitted file (and each original) is compiled with
      `nvcc -arch=sm_90 -O3 -c` and the program's flags (--nvcc-only: only the program/variant tags matching).
      Writes DIR/cpu.json and DIR/cpu.md: per program the kernels, requests, rewritten, refused by reason, and the
      totals (all kernels and the modern ones).
  modern.py gpu-pack --work DIR --to PACK
      A self-contained folder for a GPU machine (nvcc, cuBLAS): each program's original and its variant files
      that nvcc accepted here, the tuning runtime (for the auto builds), this script and run.sh.
  bash PACK/run.sh [-j 16] [--run-j 8] [--deadline 450] [--phase all|checks|timing] [--only A,B] [--resume]
                   [--work DIR]
      (modern.py gpu-run, on the GPU machine) builds the forms it needs with nvcc -arch=sm_90 -O3 (-j at a time),
      then runs every kernel version (argv[1]) that launches a kernel a form coarsened.  The checks: the original
      and each fixed variant, --run-j at a time (their times do not count).  The timings: the original and the
      auto build, one at a time; the auto build runs once with an empty wisdom file and TFUSE_TUNE_REPORT=1: the
      first launch of each (grid, block) key tunes, in the program's own check, and its benchmark loop reuses the
      choice.  A run passes when it exits 0 and prints "All results match" (validate_result exits 1 on a
      mismatch).  The program's own times ("time X ms", one per block size) of the auto build are compared with
      the original's, block size by block size.  No run starts after --deadline seconds; results.json (also into
      $OUT) is written after every run, and --resume keeps the runs of PACK/results.json (an earlier call's,
      copied back there) and does the rest; a --work folder outside the pack keeps the binaries (rebuilt only
      where their sources changed) from one call to the next.  results.md: the table.
"""

import argparse
import concurrent.futures as cf
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)  # in a pack, corpus_gpu.py and gpu_run.py lie beside this file
sys.path.insert(1, os.path.join(ROOT, "test", "fuzz"))  # in the checkout, gpu_run.py
from gpu_run import run, find_nvcc, NA_MESSAGE  # noqa: E402
from corpus_gpu import TUNE_FILES, build_tune_obj, parse_tune, without_tune_report  # noqa: E402

_spec = importlib.util.spec_from_file_location("cuda_samples", os.path.join(HERE, "cuda-samples.py"))
cuda_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cuda_samples)
find_kernels = cuda_samples.find_kernels

COMMIT = "f1e2ace651495b74ae22d45d1723443fd00ecd3a"  # karpathy/llm.c, the commit the corpus was measured at
FLAGS = ["-O3", "--use_fast_math", "-std=c++17"]
# The dev/cuda programs with cooperative-groups or warp-level kernels, and their extra nvcc flags (their headers'
# compile lines; -lcublas -lcublasLt are linked by all).  nccl_all_reduce (MPI, NCCL) is left out.
PROGRAMS = {
    "attention_backward": [], "attention_forward": [], "classifier_fused": [], "fused_residual_forward": [],
    "global_norm": [], "layernorm_backward": [], "layernorm_forward": [],
    "matmul_backward_bias": ["-Xcompiler", "-fopenmp"], "softmax_forward": [],
}
LIBS = ["-lcublas", "-lcublasLt"]
VARIANTS = [("B2", "block", "2"), ("B4", "block", "4"), ("B8", "block", "8"), ("T2", "thread", "2"),
            ("T4", "thread", "4"), ("auto", "block", "auto")]
MODERN_RE = re.compile(r"cg::|cooperative_groups|__shfl\w*_sync|__ballot_sync|__any_sync|__all_sync|__match_\w+_sync|"
                       r"__reduce_\w+_sync|[wW]arpReduce|blockReduce|thread_block_tile|tiled_partition|meta_group_")
PASS_RE = r"All results match"
TIME_RE = re.compile(r"\btime ([0-9]+(?:\.[0-9]*)?) ms")
AUTO_NONE = "-factor auto: every coarsened candidate left out (the report says coarsened)"
LEFT_OUT_RE = re.compile(r"remark: -factor auto: candidate (\S+) of '([^']*)' left out: (.*)$", re.M)
TFUSE_TIMEOUT = 600
NVCC_TIMEOUT = 600


def work_paths(work):
    w = os.path.abspath(work)
    return {"work": w, "src": os.path.join(w, "src"), "out": os.path.join(w, "out")}


# ---- layout ------------------------------------------------------------------------
def git_show(gitdir, commit, path):
    return subprocess.run(["git", "--git-dir", gitdir, "show", "%s:%s" % (commit, path)], stdout=subprocess.PIPE,
                          check=True).stdout


def block_end(text, i):
    """The index after the brace block that opens at or after i."""
    i = text.index("{", i)
    depth = 0
    while i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def without_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)


def function_bodies(clean):
    """{name: [body text]} of the functions defined in clean (a regex: NAME(...) { ... } at any depth; a kernel
    and its host launcher may share a name)."""
    res = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*(?:const\s*)?\{", clean):
        if m.group(1) not in ("if", "for", "while", "switch", "catch"):
            res.setdefault(m.group(1), []).append(clean[m.end() - 1:block_end(clean, m.end() - 1)])
    return res


def versions(clean, bodies, kernels):
    """{version: sorted kernels it launches}: the cases of `switch (kernel_num)` and the kernels launched by the
    functions each case names (called, or passed as an argument), and by the functions those name, and so on."""
    m = re.search(r"switch\s*\(\s*kernel_num\s*\)", clean)
    if not m:
        return {}
    body = clean[m.end():block_end(clean, m.end())]
    launch = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^;<>]*>)?\s*<<<")
    res = {}
    for case in re.finditer(r"case\s+(\d+)\s*:(.*?)(?=case\s+\d+\s*:|default\s*:|\Z)", body, re.S):
        seen, todo, launched = set(), re.findall(r"\b[A-Za-z_]\w*", case.group(2)), set(launch.findall(case.group(2)))
        while todo:
            f = todo.pop()
            if f in seen or f not in bodies:
                continue
            seen.add(f)
            for b in bodies[f]:
                launched.update(launch.findall(b))
                todo += re.findall(r"\b[A-Za-z_]\w*", b)
        res[case.group(1)] = sorted(k for k in launched if k in kernels)
    return res


def program_info(path):
    text = open(path, errors="replace").read()
    clean = without_comments(text)
    bodies = function_bodies(clean)
    kernels = find_kernels(text)
    names = {k for k, _ in kernels}
    return {"kernels": [{"name": k, "line": line, "modern": any(MODERN_RE.search(b) for b in bodies.get(k, []))}
                        for k, line in kernels],
            "versions": versions(clean, bodies, names)}


def cmd_layout(a):
    w = work_paths(a.work)
    shutil.rmtree(w["src"], ignore_errors=True)
    common = git_show(a.mirror, a.commit, "dev/cuda/common.h")
    info = {"commit": a.commit, "programs": {}}
    for prog in PROGRAMS:
        d = os.path.join(w["src"], prog)
        os.makedirs(d)
        with open(os.path.join(d, "common.h"), "wb") as fh:
            fh.write(common)
        with open(os.path.join(d, prog + ".cu"), "wb") as fh:
            fh.write(git_show(a.mirror, a.commit, "dev/cuda/%s.cu" % prog))
        info["programs"][prog] = program_info(os.path.join(d, prog + ".cu"))
    with open(os.path.join(w["work"], "layout.json"), "w") as fh:
        json.dump(info, fh, indent=1)
    tot = [0, 0, 0]
    for prog, p in info["programs"].items():
        nm = sum(k["modern"] for k in p["kernels"])
        tot = [tot[0] + len(p["kernels"]), tot[1] + nm, tot[2] + len(p["versions"])]
        print("layout: %-24s %2d kernels (%2d modern), versions %s" % (prog, len(p["kernels"]), nm, " ".join(
            "%s:%s" % (v, "+".join(ks) or "-") for v, ks in p["versions"].items())))
    print("layout: %s at %s: %d programs, %d kernels, %d of them with cooperative groups or warp primitives, "
          "%d kernel versions" % (w["src"], a.commit[:12], len(info["programs"]), *tot))
    return 0


# ---- cpu ---------------------------------------------------------------------------
def reason_class(msg):
    """A refusal without its names (quoted words; an apostrophe inside a sentence stays) and numbers."""
    return re.sub(r"\d+", "N", re.sub(r"'[^'\s]*'", "'_'", msg)).strip()


def tfuse_run(w, tfuse, prog, tag, mode, factor, old):
    """One tfuse run over a program in a variant: {kernel: (decision, reason class, message)}, run facts.  With the
    facts of an earlier run (old), its output and report are read again instead."""
    out = os.path.join(w["out"], tag, prog)
    report = os.path.join(out, "report.json")
    if old:
        facts = {k: old.get(k) for k in ("rc", "seconds", "stderr_tail", "left_out")}
    else:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        cmd = [tfuse, "-factor", factor, "-mode", mode, "-skip-unsafe", "-all-kernels", "-report-json", report,
               "-out-dir", out] + (["-report"] if factor == "auto" else []) + [prog + ".cu", "--"] + FLAGS + \
            PROGRAMS[prog]
        rc, so, se, dt = run(cmd, TFUSE_TIMEOUT, cwd=os.path.join(w["src"], prog))
        facts = {"rc": rc, "seconds": round(dt, 1), "stderr_tail": se[-3000:], "left_out": {}}
        for m in LEFT_OUT_RE.finditer(se):  # -report: why -factor auto left a candidate out
            facts["left_out"].setdefault(m.group(2), "%s: %s" % (m.group(1), m.group(3)))
    rc, se = facts["rc"], facts["stderr_tail"]
    if rc is None or rc < 0 or not os.path.exists(report):
        why = "tfuse timed out" if rc is None else "tfuse crashed (signal %d)" % -rc if rc < 0 else \
            "tfuse failed (rc %s, no report)" % rc
        return None, dict(facts, failure=why)
    rep = json.load(open(report))
    res = {}
    for k in rep["kernels"]:
        if k["decision"] == "coarsened":
            res[k["kernel"]] = ("coarsened", "", "")
        else:
            res[k["kernel"]] = ("refused", reason_class(k["reason"]), k["reason"])
    if re.search(r"internal error|assertion|Assertion", se):
        facts["failure"] = "internal error: " + re.search(r"[^\n]*(?:internal error|ssertion)[^\n]*", se).group(0)
    facts["written"] = [os.path.relpath(os.path.join(w["src"], prog, f["file"]), os.path.join(w["src"], prog))
                        for f in rep["files"] if f["status"] == "written"]
    if factor == "auto":  # the report says coarsened where only the original candidate (__tf_k1) was emitted
        text = "".join(open(os.path.join(out, f), errors="replace").read() for f in facts["written"])
        for k, d in res.items():
            if d[0] == "coarsened" and not re.search(r"\b%s__tf_(?!k1\b)[a-z]+\d" % re.escape(k), text):
                why = facts.get("left_out", {}).get(k, "")
                res[k] = ("refused", AUTO_NONE + re.sub(r"^\S+: ", ": ", reason_class(why)), why or AUTO_NONE)
    return res, facts


def form_dir(w, prog, tag):
    """The program's folder in form tag: the original folder with the files tfuse wrote laid over it."""
    return os.path.join(w["src"], prog) if tag == "original" else os.path.join(w["out"], tag, prog)


def form_hash(w, prog, tag):
    """A hash of the form's files (the original's, with those tfuse wrote laid over them)."""
    h = hashlib.sha1()
    for f in sorted(os.listdir(os.path.join(w["src"], prog))):
        written = os.path.join(form_dir(w, prog, tag), f)
        h.update(open(written if os.path.exists(written) else os.path.join(w["src"], prog, f), "rb").read())
    return h.hexdigest()


def nvcc_check(w, prog, tag, nvcc):
    """Compiles the form's PROG.cu (-c) with the program's flags: (ok, message, seconds)."""
    d = form_dir(w, prog, tag)
    with tempfile.TemporaryDirectory() as td:
        if tag != "original":  # the unchanged files beside the written ones
            for f in os.listdir(os.path.join(w["src"], prog)):
                if not os.path.exists(os.path.join(d, f)):
                    shutil.copy(os.path.join(w["src"], prog, f), td)
            for f in os.listdir(d):
                if f != "report.json":
                    shutil.copy(os.path.join(d, f), td)
            d = td
        rc, so, se, dt = run([nvcc, "-arch=sm_90", "-c", os.path.join(d, prog + ".cu"), "-o",
                              os.path.join(td, "x.o")] + FLAGS + PROGRAMS[prog], NVCC_TIMEOUT, cwd=d)
    return rc == 0, "" if rc == 0 else "\n".join(l for l in (so + se).splitlines() if "error" in l)[:2000], dt


def cmd_cpu(a):
    w = work_paths(a.work)
    tfuse = os.path.abspath(a.tfuse)
    nvcc = find_nvcc(a.nvcc)
    layout = json.load(open(os.path.join(w["work"], "layout.json")))
    cpu_json = os.path.join(w["work"], "cpu.json")
    earlier = json.load(open(cpu_json))["programs"] if os.path.exists(cpu_json) else {}
    old = earlier if a.reuse else {}
    jobs = [(prog, v) for prog in PROGRAMS for v in VARIANTS]
    with cf.ThreadPoolExecutor(a.j) as ex:
        done = dict(((prog, v[0]), r) for (prog, v), r in zip(jobs, ex.map(
            lambda j: tfuse_run(w, tfuse, j[0], *j[1], old and old[j[0]]["variants"][j[1][0]]["facts"]), jobs)))
    res = {"commit": layout["commit"], "programs": {}}
    compiles = []
    for prog, p in layout["programs"].items():
        pr = {"kernels": p["kernels"], "versions": p["versions"], "variants": {}}
        for tag, _, _ in VARIANTS:
            dec, facts = done[(prog, tag)]
            if dec is None:
                dec = {k["name"]: ("failed", facts["failure"], facts["stderr_tail"][-500:]) for k in p["kernels"]}
            else:
                facts["not_reported"] = [k["name"] for k in p["kernels"] if k["name"] not in dec]
            pr["variants"][tag] = {"decisions": dec, "facts": facts}
            if facts.get("written"):
                compiles.append((prog, tag))
        compiles.append((prog, "original"))
        res["programs"][prog] = pr
    hashes = {c: form_hash(w, *c) for c in compiles}
    for (prog, tag), h in hashes.items():  # an earlier verdict on the same files stands
        o = earlier.get(prog, {}).get("nvcc", {}).get(tag)
        if o and o.get("sha1") == h:
            res["programs"][prog].setdefault("nvcc", {})[tag] = o
    if not a.no_nvcc:
        compiles = [c for c in compiles if (not a.nvcc_only or re.search(a.nvcc_only, "%s/%s" % c)) and
                    tag_missing(res, *c)]
        with cf.ThreadPoolExecutor(a.j) as ex:
            for (prog, tag), r in zip(compiles, ex.map(lambda c: nvcc_check(w, c[0], c[1], nvcc), compiles)):
                res["programs"][prog].setdefault("nvcc", {})[tag] = {"ok": r[0], "message": r[1],
                                                                     "seconds": round(r[2], 1),
                                                                     "sha1": hashes[(prog, tag)]}
    with open(os.path.join(w["work"], "cpu.json"), "w") as fh:
        json.dump(res, fh, indent=1)
    text = cpu_table(res)
    with open(os.path.join(w["work"], "cpu.md"), "w") as fh:
        fh.write(text + "\n")
    print(text)
    return 0


def tag_missing(res, prog, tag):
    return tag not in res["programs"][prog].get("nvcc", {})


def cpu_table(res):
    L = ["| program | kernels (modern) | requests | rewritten | refused by reason | nvcc (compiled/rejected) |",
         "|---|---|---|---|---|---|"]
    tot = {"all": [0, 0], "modern": [0, 0]}
    reasons, by_variant, examples, rejects, compile_s = {}, {}, {}, [], []
    unreported = set()
    for prog, pr in res["programs"].items():
        names = {k for v in pr["variants"].values() for k in v["decisions"]}
        modern = {k["name"] for k in pr["kernels"] if k["modern"]} & names
        unreported |= {"%s: %s" % (prog, k["name"]) for k in pr["kernels"] if k["name"] not in names}
        n, ok, why = 0, 0, {}
        for tag, v in pr["variants"].items():
            for k, (dec, cls, msg) in v["decisions"].items():
                n += 1
                good = dec == "coarsened"
                ok += good
                bv = by_variant.setdefault(tag, [0, 0])
                bv[0] += 1
                bv[1] += good
                for key in ("all",) + (("modern",) if k in modern else ()):
                    tot[key][0] += 1
                    tot[key][1] += good
                if not good:
                    why[cls] = why.get(cls, 0) + 1
                    reasons[cls] = reasons.get(cls, 0) + 1
                    examples.setdefault(cls, "%s/%s %s: %s" % (prog, tag, k, msg.splitlines()[0] if msg else ""))
        nv = pr.get("nvcc", {})
        rejects += ["%s/%s: %s" % (prog, t, r["message"]) for t, r in nv.items() if not r["ok"]]
        compile_s += [r["seconds"] for r in nv.values()]
        L.append("| %s | %d (%d) | %d | %d (%.0f%%) | %s | %d/%d |" % (
            prog, len(names), len(modern), n, ok, 100.0 * ok / max(n, 1),
            "; ".join("%d %s" % (c, r) for r, c in sorted(why.items(), key=lambda x: -x[1])) or "-",
            sum(r["ok"] for r in nv.values()), sum(not r["ok"] for r in nv.values())))
    L.append("\nrequests (kernel x variant, variants %s): %d, rewritten %d (%.1f%%); of the kernels with "
             "cooperative groups or warp primitives: %d, rewritten %d (%.1f%%)" % (
                 ", ".join(t for t, _, _ in VARIANTS), tot["all"][0], tot["all"][1],
                 100.0 * tot["all"][1] / max(tot["all"][0], 1), tot["modern"][0], tot["modern"][1],
                 100.0 * tot["modern"][1] / max(tot["modern"][0], 1)))
    L.append("kernels: %d in tfuse's reports, %d of them modern%s" % (
        sum(len({k for v in pr["variants"].values() for k in v["decisions"]}) for pr in res["programs"].values()),
        tot["modern"][0] // len(VARIANTS), "; found by the regex but in no report (compiled out by the "
        "preprocessor): " + ", ".join(sorted(unreported)) if unreported else ""))
    L.append("by variant: " + ", ".join("%s %d/%d" % (t, v[1], v[0]) for t, v in by_variant.items()))
    L.append("\n| refusals | reason | example |\n|---|---|---|")
    for r, c in sorted(reasons.items(), key=lambda x: -x[1]):
        L.append("| %d | %s | %s |" % (c, r, examples[r][:300].replace("|", "\\|")))
    if compile_s:
        L.append("\nnvcc: %d files compiled, %d rejected; %.1f s per file on average (-c, here)" % (
            len(compile_s) - len(rejects), len(rejects), sum(compile_s) / len(compile_s)))
    for r in rejects:
        L.append("nvcc rejected " + r[:1500])
    return "\n".join(L)


# ---- gpu-pack ----------------------------------------------------------------------
def cmd_gpu_pack(a):
    w = work_paths(a.work)
    res = json.load(open(os.path.join(w["work"], "cpu.json")))
    dst = os.path.abspath(a.to)
    shutil.rmtree(dst, ignore_errors=True)
    progs = []
    for prog, pr in res["programs"].items():
        nv = pr.get("nvcc", {})
        forms = {"original": []}
        for tag, v in pr["variants"].items():
            coarsened = sorted(k for k, d in v["decisions"].items() if d[0] == "coarsened")
            if v["facts"].get("written") and coarsened and nv.get(tag, {}).get("ok", True):
                forms[tag] = coarsened
        for tag in forms:
            d = os.path.join(dst, "progs", prog, tag)
            shutil.copytree(os.path.join(w["src"], prog), d)
            if tag != "original":
                for f in os.listdir(form_dir(w, prog, tag)):
                    if f != "report.json":
                        shutil.copy(os.path.join(form_dir(w, prog, tag), f), d)
        progs.append({"name": prog, "flags": FLAGS + PROGRAMS[prog], "libs": LIBS, "forms": forms,
                      "versions": pr["versions"]})
    for f in TUNE_FILES:
        os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
        shutil.copy(os.path.join(ROOT, f), os.path.join(dst, f))
    for f in (__file__, os.path.join(HERE, "cuda-samples.py"), os.path.join(HERE, "corpus_gpu.py"),
              os.path.join(ROOT, "test", "fuzz", "gpu_run.py")):
        shutil.copy(f, dst)
    with open(os.path.join(dst, "pack.json"), "w") as fh:
        json.dump({"commit": res["commit"], "programs": progs}, fh, indent=1)
    with open(os.path.join(dst, "run.sh"), "w") as fh:
        fh.write("#!/bin/bash\n# Builds and runs the llm.c dev/cuda programs of this pack in each form: "
                 "bash run.sh [-j N] [--deadline S]\nhere=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n"
                 "exec python3 \"$here/modern.py\" gpu-run --pack \"$here\" \"$@\"\n")
    os.chmod(os.path.join(dst, "run.sh"), 0o755)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(dst) for f in fs)
    checks, timings = gpu_jobs(progs)
    print("gpu-pack: %s: %d programs, %d builds, %d check runs, %d timing runs, %.2f MiB" % (
        dst, len(progs), sum(len(p["forms"]) for p in progs), len(checks), len(timings), size / 2**20))
    return 0


# ---- gpu-run (on the GPU machine, from the pack) ------------------------------------
def build_form(p, tag, pack, work, nvcc, tune_obj):
    """(binary or None, message, seconds).  A binary that WORK holds from the same sources and command is kept."""
    exe = os.path.join(work, "%s__%s" % (p["name"], tag))
    src = os.path.join(pack, "progs", p["name"], tag)
    cmd = [nvcc, "-arch=sm_90", os.path.join(src, p["name"] + ".cu")] + p["flags"] + \
        ([tune_obj, "-lcuda"] if tag == "auto" else []) + ["-o", exe] + p["libs"]
    h = hashlib.sha1(" ".join(cmd).encode())
    for f in sorted(os.listdir(src)):
        h.update(open(os.path.join(src, f), "rb").read())
    if os.path.exists(exe) and os.path.exists(exe + ".sha1") and open(exe + ".sha1").read() == h.hexdigest():
        return exe, "", 0.0
    rc, so, se, dt = run(cmd, NVCC_TIMEOUT, cwd=src)
    if rc == 0:
        with open(exe + ".sha1", "w") as fh:
            fh.write(h.hexdigest())
    return (exe if rc == 0 else None), ("" if rc == 0 else (so + se)[-1500:]), dt


def run_outcome(rc, so, se):
    if rc is None:
        return "timeout"
    if rc != 0 and NA_MESSAGE in so + se:
        return "runtime-na"
    if rc < 0:
        return "crash"
    if "CUDA ERROR" in so + se:
        return "cuda-error"
    return "pass" if rc == 0 and re.search(PASS_RE, so) else "fail"


def gpu_jobs(progs):
    """(checks, timings): the runs of each kernel version with each form that coarsened a kernel it launches;
    checks: the fixed variants and the original (their check only), timings: the original and the auto build."""
    checks, timings = [], []
    for p in progs:
        for ver, ks in p["versions"].items():
            tags = [t for t in p["forms"] if t != "original" and set(p["forms"][t]) & set(ks)]
            if tags:
                checks += [(p, ver, t) for t in ["original"] + tags if t != "auto"]
                timings += [(p, ver, t) for t in ("original", "auto") if t in ["original"] + tags]
    return checks, timings


def cmd_gpu_run(a):
    pack = os.path.abspath(a.pack)
    meta = json.load(open(os.path.join(pack, "pack.json")))
    nvcc = find_nvcc(a.nvcc)
    work = os.path.abspath(a.work or os.path.join(pack, "work"))
    os.makedirs(work, exist_ok=True)
    t_start = time.time()
    rfile = os.path.join(pack, "results.json")
    results = json.load(open(rfile)) if a.resume and os.path.exists(rfile) else {"builds": {}, "checks": {},
                                                                                  "timings": {}}
    progs = [p for p in meta["programs"] if not a.only or p["name"] in a.only.split(",")]
    checks, timings = gpu_jobs(progs)
    checks = [j for j in checks if a.phase != "timing" and "%s/%s/%s" % (j[0]["name"], j[1], j[2]) not in
              results["checks"]]
    timings = [j for j in timings if a.phase != "checks" and "%s/%s/%s" % (j[0]["name"], j[1], j[2]) not in
               results["timings"]]
    need = sorted({(j[0]["name"], j[2]) for j in checks + timings})
    byname = {p["name"]: p for p in progs}
    tune_obj = os.path.join(work, "tune.o")
    tune_ok, tune_msg = build_tune_obj(nvcc, pack, tune_obj) if any(t == "auto" for _, t in need) else (True, "")
    with cf.ThreadPoolExecutor(a.j) as ex:
        built = dict(zip(need, ex.map(lambda j: build_form(byname[j[0]], j[1], pack, work, nvcc, tune_obj)
                                      if j[1] != "auto" or tune_ok else
                                      (None, "the tuning runtime did not compile: " + tune_msg, 0), need)))
    results["builds"].update({"%s/%s" % k: {"ok": v[0] is not None, "seconds": round(v[2], 1), "message": v[1]}
                              for k, v in built.items()})
    print("gpu-run: %d builds (%d kept from the work folder) in %.0f s, %d failed; %d check runs, %d timing runs "
          "to go" % (len(need), sum(r[0] is not None and r[2] == 0.0 for r in built.values()), time.time() - t_start,
                     sum(r[0] is None for r in built.values()), len(checks), len(timings)), flush=True)
    try:
        results["gpu"] = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip()
    except OSError:
        results["gpu"] = "?"
    lock = threading.Lock()

    def save():
        with lock:
            for d in (pack, os.environ.get("OUT")):
                if d:
                    with open(os.path.join(d, "results.json"), "w") as fh:
                        json.dump(results, fh, indent=1)

    def one(job, env=None):
        p, ver, tag = job
        exe = built[(p["name"], tag)][0]
        if exe is None:
            return {"outcome": "build-failed"}
        if tag == "auto":  # one run: the first launch of each key tunes (in the program's check), the rest reuse
            env = dict(os.environ, TFUSE_WISDOM=os.path.join(work, "%s__%s.wisdom" % (p["name"], ver)),
                       TFUSE_TUNE_REPORT="1")
            if os.path.exists(env["TFUSE_WISDOM"]):
                os.remove(env["TFUSE_WISDOM"])
        rc, so, se, dt = run([exe, ver], a.timeout, cwd=work, env=env)
        r = {"rc": rc, "run_s": round(dt, 2)}
        if tag == "auto":
            r["tuned"] = parse_tune(se)["tuned"]
            se = without_tune_report(se)
        r["outcome"] = run_outcome(rc, so, se)
        r["times_ms"] = [float(x) for x in TIME_RE.findall(so)]
        if r["outcome"] != "pass":
            r["detail"] = (so[-800:] + se[-400:]).strip()
        return r

    def record(kind, job, r):
        key = "%s/%s/%s" % (job[0]["name"], job[1], job[2])
        results[kind][key] = r
        print("%-8s %-40s %s %.1f s" % (kind, key, r["outcome"], r.get("run_s", 0)), flush=True)
        save()

    env = dict(os.environ, OMP_NUM_THREADS=str(max(1, (os.cpu_count() or 16) // a.run_j)))
    with cf.ThreadPoolExecutor(a.run_j) as ex:  # the checks: run_j at a time, their timings do not count
        futs = {ex.submit(lambda j: None if time.time() - t_start > a.deadline else one(j, env), j): j
                for j in checks}
        for f in cf.as_completed(futs):
            if f.result() is not None:
                record("checks", futs[f], f.result())
    for j in timings:  # one at a time
        if time.time() - t_start > a.deadline:
            break
        record("timings", j, one(j))
    results["seconds"] = round(time.time() - t_start, 1)
    save()
    text = gpu_table(results, progs)
    with open(os.path.join(pack, "results.md"), "w") as fh:
        fh.write(text + "\n")
    if os.environ.get("OUT"):
        shutil.copy(os.path.join(pack, "results.md"), os.environ["OUT"])
    print(text)
    return 0


def gpu_table(results, progs):
    tags = ["original"] + [t for t, _, _ in VARIANTS]
    L = ["GPU: %s; this call %.0f s" % (results.get("gpu"), results.get("seconds", 0)), "",
         "| program/version | %s | auto/original time: worst block size; all |" % " | ".join(tags),
         "|---|%s---|" % ("---|" * len(tags))]
    count = {"pass": 0, "fail": [], "original-failed": 0}
    worst, missing = [], 0
    checks, timings = gpu_jobs(progs)
    for p in progs:
        for ver in p["versions"]:
            key = "%s/%s" % (p["name"], ver)
            want = {t for q, v, t in checks + timings if q is p and v == ver}
            if not want:
                continue
            got = {t: results["checks"].get("%s/%s" % (key, t)) or results["timings"].get("%s/%s" % (key, t))
                   for t in tags}
            orig = got["original"] and got["original"]["outcome"]
            for t in want - {"original"}:
                if not got[t]:
                    missing += 1
                elif orig != "pass":
                    count["original-failed"] += 1
                elif got[t]["outcome"] == "pass":
                    count["pass"] += 1
                else:
                    count["fail"].append("%s/%s %s" % (key, t, got[t]["outcome"]))
            ratio = "-"
            o = results["timings"].get(key + "/original", {}).get("times_ms")
            au = got["auto"] if got["auto"] and got["auto"]["outcome"] == "pass" else {}
            if o and au.get("times_ms") and len(o) == len(au["times_ms"]):
                per = max(x / y for x, y in zip(au["times_ms"], o) if y > 0)
                ratio = "%.3f; %.3f" % (per, sum(au["times_ms"]) / sum(o))
                worst.append((per, key))
            L.append("| %s | %s | %s |" % (key, " | ".join(
                (got[t]["outcome"] if got[t] else "not run") if t in want else "-" for t in tags), ratio))
    L.append("\ncoarsened runs whose original passed: %d pass, %d do not%s; %d whose original did not pass; %d not "
             "run (yet)" % (count["pass"], len(count["fail"]), (": " + ", ".join(count["fail"])) if count["fail"]
                              else "", count["original-failed"], missing))
    if worst:
        L.append("auto against the original (the program's own times, per block size): worst %.3f (%s); versions "
                 "more than 2%% slower at some block size: %s" % (max(worst)[0], max(worst)[1], ", ".join(
                     "%s %.3f" % (k, r) for r, k in sorted(worst) if r > 1.02) or "none"))
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("layout")
    s.add_argument("--mirror", required=True, help="bare git directory of karpathy/llm.c")
    s.add_argument("--commit", default=COMMIT)
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "modern"))
    s = sub.add_parser("cpu")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "modern"))
    s.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
    s.add_argument("--nvcc")
    s.add_argument("-j", type=int, default=2, help="tfuse runs and compiles at a time")
    s.add_argument("--no-nvcc", action="store_true")
    s.add_argument("--nvcc-only", help="a regular expression on PROG/VARIANT: compile only those")
    s.add_argument("--reuse", action="store_true", help="read the tfuse output of the last call (DIR/out, "
                   "DIR/cpu.json) again instead of running tfuse: the table anew")
    s = sub.add_parser("gpu-pack")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "modern"))
    s.add_argument("--to", default=os.path.join(ROOT, "corpus-work", "modern-pack"))
    s = sub.add_parser("gpu-run")
    s.add_argument("--pack", default=HERE)
    s.add_argument("--nvcc")
    s.add_argument("-j", type=int, default=os.cpu_count() or 4, help="builds at a time")
    s.add_argument("--work", help="binaries, tuning runtime and wisdom files (default PACK/work); one outside the "
                   "pack outlives a new copy of the pack, and its binaries are kept while their sources are the same")
    s.add_argument("--run-j", type=int, default=8, help="check runs at a time (their timings do not count)")
    s.add_argument("--timeout", type=float, default=180, help="seconds per run")
    s.add_argument("--deadline", type=float, default=450, help="start no run after S seconds")
    s.add_argument("--phase", choices=["all", "checks", "timing"], default="all")
    s.add_argument("--resume", action="store_true", help="keep the runs of PACK/results.json (an earlier call's, "
                   "copied there) and do the others")
    s.add_argument("--only", help="comma-separated programs: only these")
    a = ap.parse_args()
    return {"layout": cmd_layout, "cpu": cmd_cpu, "gpu-pack": cmd_gpu_pack, "gpu-run": cmd_gpu_run}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
