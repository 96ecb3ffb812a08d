#!/usr/bin/env python3
"""Random differential testing of tfuse: CPU stage, GPU pack, GPU report, repro.

  campaign.py cpu --seeds A-B [--variants all|N] [-j J] --out DIR
                  [--tfuse PATH] [--nvcc PATH] [--profile P] [--kernels N]
                  [--keep-na] [--no-nvcc | --nvcc-sample PCT] [--set KEY=VALUE]
      Generates one program per seed (gen.py), coarsens it with tfuse in each
      variant (-skip-unsafe), records per (kernel, variant) accepted or refused
      (with the reason), and compiles the original and every output that
      coarsened something with `nvcc -arch=sm_90 -O3 -fmad=false -c`.
      Findings (tfuse crash or hang, nvcc rejecting tfuse's output, a kernel
      marked accept that is refused, a kernel marked refuse that is accepted,
      an "internal error" refusal, a kernel neither coarsened nor warned
      about, or an original that nvcc rejects: a generator bug) go to
      DIR/findings/seed-S/.  Writes DIR/manifest.json, prints a summary, and
      exits 1 if there are findings.
  campaign.py gpu-pack --from DIR [DIR ...] --to PACKDIR [--tags REGEX] [--thin REGEX:PCT] [--skip-na]
      Copies the originals, the accepted variants and run.sh (bash and python3
      only) of one or several CPU stages (distinct seeds) to PACKDIR.  On the
      GPU machine: bash PACKDIR/run.sh [-j 16].
  campaign.py gpu-report --from PACKDIR/results.json [MORE.json ...]
      Prints the table of a GPU run (several shard results are merged).
  campaign.py repro --seed S --variant 'K mode dim [mapping]' [--profile P] [--kernels N]
      Prints the commands that reproduce one program and variant.

Variants: K in {2,3,4,8} x block mode along x, y, z, and thread mode along x,
y, z with mapping stride and consecutive, and factors along two dimensions
(2,2 and 3,2 in block mode along x,y; 2,2 along y,z; 2,2 in thread mode along
x,y), and block mode again with -layout interleaved (the 12 one-dimensional
block variants and the 3 two-dimensional ones, tag suffix -interleaved): 55
per program; a program of profile `reach` adds block mode along x with every
other K from 5 to 16, K = 16 along y, z and interleaved along x, and thread
mode with K = 16 along x: 72.  A two-dimensional variant's K is a tuple, its d
"x,y" (tag k2x2-block-xy, flags -factor 2,2 -dim x,y; --variant '2x2 block xy').  A generated
program's first line says which factors divide every launch's block extent
along each dimension (thread-k=...); thread-mode variants outside it would
run the original kernel (the launch's dispatch) or, where every launch of
a kernel is such a constant block, are refused with "could never serve",
so the CPU stage skips them (counted as "predicted N/A"), except a
deterministic tenth that is kept to exercise that path (--keep-na keeps
all).
"""

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

FACTORS = (2, 3, 4, 8)
# Factors along two dimensions at once: (factors, dims, mode).
MULTI_VARIANTS = [((2, 2), "x,y", "block"), ((3, 2), "x,y", "block"), ((2, 2), "y,z", "block"),
                  ((2, 2), "x,y", "thread")]
NVCC_FLAGS = ["-arch=sm_90", "-O3", "-fmad=false"]
TFUSE_TIMEOUT = 60
NVCC_TIMEOUT = 300


# ---- variants ------------------------------------------------------------------
# Profile `reach` also tries block mode with every K up to 16 along x, K = 16
# along y and z and interleaved, and thread mode with K = 16 along x.
REACH_BLOCK_FACTORS = tuple(range(5, 17))


def all_variants(profile=None):
    vs = []
    for K in FACTORS:
        for d in "xyz":
            vs.append((K, "block", d, None))
        for d in "xyz":
            for mp in ("stride", "consecutive"):
                vs.append((K, "thread", d, mp))
    for K, d, mode in MULTI_VARIANTS:
        vs.append((K, mode, d, "stride" if mode == "thread" else None))
    # Block mode with the replicas of shared arrays interleaved (-layout interleaved).
    for K in FACTORS:
        for d in "xyz":
            vs.append((K, "block", d, "interleaved"))
    for K, d, mode in MULTI_VARIANTS:
        if mode == "block":
            vs.append((K, mode, d, "interleaved"))
    if profile == "reach":
        vs += [(K, "block", "x", None) for K in REACH_BLOCK_FACTORS if K != 8]
        vs += [(16, "block", d, None) for d in "yz"]
        vs += [(16, "block", "x", "interleaved")]
        vs += [(16, "thread", "x", mp) for mp in ("stride", "consecutive")]
    return vs


def variant_tag(v):
    K, mode, d, mp = v
    if isinstance(K, tuple):
        return "k%s-%s-%s%s" % ("x".join(map(str, K)), mode, d.replace(",", ""), "-" + mp if mp else "")
    return "k%d-%s-%s%s" % (K, mode, d, "-" + mp if mp else "")


def variant_flags(v):
    K, mode, d, mp = v
    f = ["-factor", ",".join(map(str, K)) if isinstance(K, tuple) else str(K), "-mode", mode, "-dim", d]
    if mp == "interleaved":
        f += ["-layout", mp]
    elif mp:
        f += ["-mapping", mp]
    return f


def variant_dims(v):
    """[(factor, dim)] of a variant: one, or one per coarsened dimension."""
    K, mode, d, mp = v
    if isinstance(K, tuple):
        return list(zip(K, d.split(",")))
    return [(K, d)]


def parse_variant(text):
    # '2x2 block xy' or, as tfuse spells it, '2,2 block x,y'
    multi = re.match(r"^\s*(\d+(?:[x,]\d+)+)\s+(block|thread)\s+([xyz](?:,?[xyz]){1,2})(?:\s+(stride|consecutive|interleaved))?\s*$",
                     text)
    if multi:
        K = tuple(int(x) for x in re.split("[x,]", multi.group(1)))
        d = ",".join(multi.group(3).replace(",", ""))
        if len(K) != len(d.split(",")):
            sys.exit("campaign.py: --variant '%s': one factor per dimension" % text)
        mp = multi.group(4) or ("stride" if multi.group(2) == "thread" else None)
        if (mp == "interleaved") != (multi.group(2) == "block" and mp is not None):
            sys.exit("campaign.py: --variant '%s': interleaved is for block mode, stride|consecutive for thread" % text)
        return (K, multi.group(2), d, mp)
    parts = text.replace(",", " ").split()
    if len(parts) not in (3, 4) or parts[1] not in ("block", "thread") or parts[2] not in ("x", "y", "z"):
        sys.exit("campaign.py: --variant wants 'K block|thread x|y|z [stride|consecutive|interleaved]', got %r" % text)
    mp = parts[3] if len(parts) == 4 else ("stride" if parts[1] == "thread" else None)
    if parts[1] == "block" and mp != "interleaved":
        mp = None
    if parts[1] == "thread" and mp == "interleaved":
        sys.exit("campaign.py: --variant '%s': interleaved is for block mode" % text)
    return (int(parts[0]), parts[1], parts[2], mp)


def stable_hash(*parts):
    return int(hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()[:12], 16)


# ---- reading programs ------------------------------------------------------------
HEADER_RE = re.compile(r"^// tfuse-fuzz:(.*)$", re.M)


def read_header(text):
    """The generator's header as a dict, or {} for a hand-written program."""
    m = HEADER_RE.search(text)
    if not m:
        return {}
    h = {}
    for tok in m.group(1).split():
        if "=" in tok:
            k, v = tok.split("=", 1)
            h[k] = v
    if "thread-k" in h:
        tk = {}
        for part in h["thread-k"].split(";"):
            d, ks = part.split(":")
            tk[d] = [int(x) for x in ks.split(",")] if ks != "-" else []
        h["thread-k"] = tk
    return h


def pragma_kernels(text):
    """[(name, expect, line)] for each kernel after a `#pragma tfuse coarsen` line."""
    lines = text.split("\n")
    res = []
    for n, line in enumerate(lines):
        if not re.match(r"\s*#\s*pragma\s+tfuse\s+coarsen\b", line):
            continue
        expect = "accept"
        if n > 0:
            m = re.match(r"\s*//\s*tfuse-expect:\s*(\S+)", lines[n - 1])
            if m:
                expect = m.group(1)
        name = None
        for follow in lines[n + 1:n + 6]:
            m = re.search(r"__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+"
                          r"(?:__(?:launch_bounds|cluster_dims)__\s*\([^)]*\)\s*)*(\w+)", follow)
            if m:
                name = m.group(1)
                break
        if name:
            res.append((name, expect, n + 1))
    return res


WARN_RE = re.compile(r"^(.*?):(\d+):(\d+): warning: kernel '(\w+)' left unchanged: (.*)$", re.M)
ERR_RE = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$", re.M)
COARSENED_RE = re.compile(r"/\* tfuse: coarsened by \d+(?:,\d+)*(?: \(\d+ copies\))?, [^*]*\*/\s*\n(?:template[^\n]*\n)?"
                          r"[^\n]*?__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+"
                          r"(?:__(?:launch_bounds|cluster_dims)__\s*\([^)]*\)\s*)*(\w+)")


def normalize_reason(reason):
    r = re.sub(r"'[^']*'", "'_'", reason)
    r = re.sub(r"\b[A-Za-z_]\w*\.(x|y|z)\b", "_._", r)
    r = re.sub(r"\d+", "N", r)
    return r.strip()


def expected_refused(expect, v):
    """True: must refuse; False: must accept; None: either.  expect is one
    word, or clauses joined by commas, each `[may-]refuse-MODE` or
    `[may-]refuse-MODE@DIMS` (that mode, where the variant coarsens one of
    DIMS: `refuse-block@x,may-refuse-block,refuse-thread`), or
    `[may-]refuse-thread.consecutive` (thread mode with that mapping): a
    variant must be refused when a `refuse-` clause holds, may be when a
    `may-refuse-` one does, and must be accepted otherwise."""
    mode = v[1]
    if expect == "accept":
        return False
    if expect == "refuse":
        return True
    if expect == "may-refuse":
        return None
    coarsened = {d for _, d in variant_dims(v)}
    want = False
    for clause in expect.split(","):
        m = re.match(r"^(may-)?refuse-(block|thread)(?:@([xyz]+)|\.(consecutive))?$", clause)
        if not m:
            return None
        if m.group(4) and v[3] != m.group(4):
            continue
        if m.group(2) == mode and (not m.group(3) or coarsened & set(m.group(3))):
            if not m.group(1):
                return True
            want = None
    return want


# ---- running tools ----------------------------------------------------------------
def run(cmd, timeout, cwd=None):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), \
            time.time() - t0
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, out, err, time.time() - t0


def nvcc_check(nvcc, path):
    rc, out, err, dt = run([nvcc] + NVCC_FLAGS + ["-c", "-o", "/dev/null", "-x", "cu", path], NVCC_TIMEOUT)
    return rc == 0, (out + err)[-4000:], dt


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        if "-" in part:
            a, b = part.split("-", 1)
            seeds += list(range(int(a), int(b) + 1))
        else:
            seeds.append(int(part))
    return seeds


# ---- CPU stage ---------------------------------------------------------------------
def choose_variants(seed, header, how, keep_na):
    """[(variant, predicted_na)] for a program, and the number of predicted-N/A variants left out
    (before --variants N picks N of the rest)."""
    chosen, skipped = [], 0
    tk = header.get("thread-k")
    for v in all_variants(header.get("profile")):
        K, mode, d, mp = v
        na = bool(tk) and mode == "thread" and any(f not in tk.get(e, []) for f, e in variant_dims(v))
        if na and not keep_na and stable_hash(seed, variant_tag(v), "na") % 10 != 0:
            skipped += 1
            continue
        chosen.append((v, na))
    if how != "all":
        n = int(how)
        # deterministic pick from the seed; prefer variants not predicted N/A
        ranked = sorted(chosen, key=lambda c: (c[1], stable_hash(seed, variant_tag(c[0]), "pick")))
        chosen = ranked[:n]
    return chosen, skipped


CORPUS_BASE = 1000000


def cmd_cpu(a):
    tfuse = os.path.abspath(a.tfuse)
    if not os.path.isfile(tfuse):
        sys.exit("campaign.py: no tfuse at %s (bash scripts/setup.sh builds it)" % tfuse)
    nvcc = a.nvcc or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if not a.no_nvcc and not os.path.isfile(nvcc) and not shutil.which(nvcc):
        sys.exit("campaign.py: no nvcc at %s (use --nvcc PATH or --no-nvcc)" % nvcc)
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    seeds = parse_seeds(a.seeds) if a.seeds else []
    t_start = time.time()
    overrides = gen.parse_set(a.set)
    # --corpus DIR: hand-written programs of the same contract (test/fuzz/regress),
    # numbered CORPUS_BASE + i in sorted order, so that every later stage treats
    # them as seeds.
    corpus = {}
    if a.corpus:
        names = sorted(f for f in os.listdir(a.corpus) if f.endswith(".cu"))
        for i, name in enumerate(names):
            corpus[CORPUS_BASE + i] = os.path.join(a.corpus, name)
        seeds = seeds + sorted(corpus)
    if not seeds:
        sys.exit("campaign.py: give --seeds, --corpus, or both")

    # 1. generate
    progs = {}
    for s in seeds:
        d = os.path.join(out, "progs", "seed-%d" % s)
        os.makedirs(d, exist_ok=True)
        if s in corpus:
            with open(corpus[s]) as f:
                text = f.read()
            with open(os.path.join(d, "SOURCE"), "w") as f:
                f.write(os.path.relpath(corpus[s], ROOT) + "\n")
        else:
            text = gen.generate(s, a.kernels, a.profile, overrides)
        path = os.path.join(d, "prog.cu")
        with open(path, "w") as f:
            f.write(text)
        hdr = read_header(text)
        kernels = pragma_kernels(text)
        chosen, skipped = choose_variants(s, hdr, a.variants, a.keep_na)
        progs[s] = {"seed": s, "dir": d, "path": path, "header": {k: v for k, v in hdr.items()},
                    "kernels": {n: e for n, e, _ in kernels}, "kernel_order": [n for n, _, _ in kernels],
                    "variants": {}, "skipped_na": skipped, "chosen": chosen}
    nreq = sum(len(p["chosen"]) for p in progs.values())
    print("campaign: %d programs, %d variants to coarsen (%d predicted N/A left out), -j %d" %
          (len(progs), nreq, sum(p["skipped_na"] for p in progs.values()), a.j), flush=True)

    # 2. coarsen
    jobs = []
    for s, p in progs.items():
        for v, na in p["chosen"]:
            jobs.append((s, v, na))

    def coarsen(job):
        s, v, na = job
        p = progs[s]
        tag = variant_tag(v)
        outp = os.path.join(p["dir"], tag + ".cu")
        cmd = [tfuse, "-skip-unsafe"] + variant_flags(v) + [p["path"], "-o", outp]
        rc, so, se, dt = run(cmd, TFUSE_TIMEOUT)
        return s, v, na, outp, cmd, rc, so, se

    with cf.ThreadPoolExecutor(a.j) as ex:
        results = list(ex.map(coarsen, jobs))

    findings = []  # dicts: seed, variant, class, detail

    def finding(s, v, cls, detail, files=()):
        findings.append({"seed": s, "variant": variant_tag(v) if v else None,
                         "flags": " ".join(variant_flags(v)) if v else "", "class": cls, "detail": detail,
                         "files": list(files)})

    compile_jobs = []  # (seed, tag or None, path)
    for s, v, na, outp, cmd, rc, so, se in results:
        p = progs[s]
        tag = variant_tag(v)
        rec = {"flags": variant_flags(v), "file": os.path.relpath(outp, out), "predicted_na": na,
               "accepted": [], "refused": {}, "tfuse_rc": rc}
        p["variants"][tag] = rec
        kernels = p["kernels"]
        if rc is None:
            finding(s, v, "tfuse-hang", "tfuse ran over %d s" % TFUSE_TIMEOUT)
            rec["status"] = "hang"
            continue
        if rc not in (0, 1):
            sig = " (signal %d)" % -rc if rc < 0 else ""
            finding(s, v, "tfuse-crash", "tfuse exit status %d%s: %s" % (rc, sig, se.strip()[-300:]))
            rec["status"] = "crash"
            rec["stderr"] = se[-4000:]
            continue
        if rc == 1:
            errs = ERR_RE.findall(se)
            reason = errs[0][3] if errs else (se.strip().splitlines() or ["tfuse failed"])[0]
            for n in kernels:
                rec["refused"][n] = "tfuse error: " + reason
            rec["status"] = "error"
            rec["stderr"] = se[-4000:]
        else:
            rec["status"] = "ok"
            warned = {m[3]: m[4] for m in WARN_RE.findall(se)}
            text = open(outp, encoding="utf-8", errors="replace").read() if os.path.exists(outp) else ""
            coarsened = set(COARSENED_RE.findall(text))
            for n in kernels:
                if n in warned:
                    rec["refused"][n] = warned[n]
                elif n in coarsened:
                    rec["accepted"].append(n)
                else:
                    rec["refused"][n] = "silently left unchanged"
                    finding(s, v, "tfuse-silent", "kernel '%s' neither coarsened nor warned about" % n)
        for n, e in kernels.items():
            want = expected_refused(e, v)
            refused = n in rec["refused"]
            if refused and rec["refused"][n].startswith("internal error"):
                finding(s, v, "internal-error", "kernel '%s' (expect %s): %s" % (n, e, rec["refused"][n]))
            elif want is False and refused and "could never serve" in rec["refused"][n]:
                pass  # every launch a constant block the variant cannot serve (tfuse evaluates them): refused
            elif want is False and refused:
                finding(s, v, "unexpected-refusal", "kernel '%s' (expect %s) refused: %s" %
                        (n, e, rec["refused"][n]))
            elif want is True and not refused:
                finding(s, v, "wrong-acceptance", "kernel '%s' (expect %s) accepted in %s mode" %
                        (n, e, v[1]))
        if rec["accepted"] and not a.no_nvcc:
            if not a.nvcc_sample or stable_hash(s, tag, "nvcc") % 100 < a.nvcc_sample:
                compile_jobs.append((s, tag, outp))
    for s, p in progs.items():
        if not a.no_nvcc:
            compile_jobs.append((s, None, p["path"]))

    # 3. compile (identical outputs are compiled once)
    by_digest = {}
    for job in compile_jobs:
        dg = hashlib.sha256(open(job[2], "rb").read()).hexdigest()
        by_digest.setdefault(dg, []).append(job)
    uniq = [jobs_[0] for jobs_ in by_digest.values()]
    if compile_jobs:
        print("campaign: %d files to compile with nvcc (%d distinct), about %.0f s at 3 s each on %d jobs" %
              (len(compile_jobs), len(uniq), len(uniq) * 3.0 / a.j, a.j), flush=True)
    comp = {}
    with cf.ThreadPoolExecutor(a.j) as ex:
        futs = {ex.submit(nvcc_check, nvcc, j[2]): j[2] for j in uniq}
        for fu in cf.as_completed(futs):
            comp[futs[fu]] = fu.result()
            if len(comp) % 200 == 0:
                print("campaign: %d/%d compiled, %.0f s" % (len(comp), len(uniq), time.time() - t_start),
                      flush=True)
    for dg, group in by_digest.items():
        ok, msg, dt = comp[group[0][2]]
        for s, tag, path in group:
            if tag is None:
                progs[s]["original_nvcc"] = ok
                if not ok:
                    finding(s, None, "generator-bug", "nvcc rejects the original: " + first_error(msg))
                    progs[s]["original_nvcc_msg"] = msg
                continue
            rec = progs[s]["variants"][tag]
            rec["nvcc"] = ok
            if not ok:
                rec["nvcc_msg"] = msg
                if progs[s].get("original_nvcc", True):
                    v = [c[0] for c in progs[s]["chosen"] if variant_tag(c[0]) == tag][0]
                    finding(s, v, "nvcc-reject", first_error(msg))
    # an original rejected after its variants were marked: those are not tfuse's fault
    for f in findings:
        if f["class"] == "nvcc-reject" and progs[f["seed"]].get("original_nvcc") is False:
            f["class"] = "nvcc-reject-original-too"

    # 4. findings on disk
    fdir = os.path.join(out, "findings")
    if os.path.isdir(fdir):
        shutil.rmtree(fdir)
    for f in findings:
        s = f["seed"]
        p = progs[s]
        d = os.path.join(fdir, "seed-%d" % s)
        os.makedirs(d, exist_ok=True)
        shutil.copy(p["path"], os.path.join(d, "prog.cu"))
        if f["variant"]:
            rec = p["variants"][f["variant"]]
            src = os.path.join(out, rec["file"])
            if os.path.exists(src):
                shutil.copy(src, os.path.join(d, f["variant"] + ".cu"))
            with open(os.path.join(d, f["variant"] + ".txt"), "a") as fh:
                fh.write("class: %s\n" % f["class"])
                fh.write("detail: %s\n" % f["detail"])
                fh.write("command: %s -skip-unsafe %s prog.cu -o %s.cu\n" % (tfuse, f["flags"], f["variant"]))
                if rec.get("stderr"):
                    fh.write("tfuse stderr:\n%s\n" % rec["stderr"])
                if rec.get("nvcc_msg"):
                    fh.write("nvcc: %s %s -c %s.cu\n%s\n" % (nvcc, " ".join(NVCC_FLAGS), f["variant"],
                                                            rec["nvcc_msg"]))
        else:
            with open(os.path.join(d, "original.txt"), "a") as fh:
                fh.write("class: %s\ndetail: %s\n%s\n" % (f["class"], f["detail"],
                                                          p.get("original_nvcc_msg", "")))
    if findings:
        with open(os.path.join(fdir, "findings.json"), "w") as fh:
            json.dump(findings, fh, indent=1)

    # 5. summary and manifest
    summ = summarize(progs, findings)
    summ["seconds"] = round(time.time() - t_start, 1)
    manifest = {"tfuse": tfuse, "nvcc": nvcc, "nvcc_flags": NVCC_FLAGS, "seeds": a.seeds,
                "profile": a.profile, "variants": a.variants, "summary": summ, "findings": findings,
                "programs": {str(s): {k: v for k, v in p.items() if k not in ("chosen",)}
                             for s, p in progs.items()}}
    for p in manifest["programs"].values():
        p["path"] = os.path.relpath(p["path"], out)
        p["dir"] = os.path.relpath(p["dir"], out)
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
    print_summary(summ, findings)
    return 1 if findings else 0


def first_error(msg):
    for line in msg.splitlines():
        if "error" in line:
            return line.strip()[:300]
    return (msg.strip().splitlines() or ["?"])[-1][:300]


def summarize(progs, findings):
    req = acc = 0
    reasons = {}
    by_expect = {}
    for p in progs.values():
        for tag, rec in p["variants"].items():
            for n in p["kernels"]:
                if rec.get("status") in ("crash", "hang"):
                    continue
                req += 1
                if n in rec["accepted"]:
                    acc += 1
                else:
                    r = normalize_reason(rec["refused"].get(n, "?"))
                    reasons[r] = reasons.get(r, 0) + 1
            for n, e in p["kernels"].items():
                by_expect.setdefault(e, [0, 0])
                by_expect[e][0 if n in rec["accepted"] else 1] += 1
    classes = {}
    for f in findings:
        classes[f["class"]] = classes.get(f["class"], 0) + 1
    nvariants = sum(len(p["variants"]) for p in progs.values())
    gpu_files = sum(1 for p in progs.values() for r in p["variants"].values() if r["accepted"] and
                    r.get("nvcc", True)) + len(progs)
    gpu_runs = sum(len(r["accepted"]) for p in progs.values() for r in p["variants"].values()
                   if r.get("nvcc", True))
    return {"programs": len(progs), "variant_files": nvariants,
            "predicted_na_skipped": sum(p["skipped_na"] for p in progs.values()),
            "requests": req, "accepted": acc, "refused": req - acc,
            "refusals_by_reason": dict(sorted(reasons.items(), key=lambda kv: -kv[1])),
            "by_expect": by_expect, "findings_by_class": classes,
            "gpu_compiles_expected": gpu_files, "gpu_kernel_runs_expected": gpu_runs}


def print_summary(s, findings):
    print("== tfuse fuzz campaign (CPU stage) ==")
    print("programs:                       %d" % s["programs"])
    print("variant files coarsened:        %d (predicted runtime-N/A left out: %d)" %
          (s["variant_files"], s["predicted_na_skipped"]))
    print("kernel x variant requests:      %d" % s["requests"])
    print("accepted:                       %d" % s["accepted"])
    print("refused:                        %d" % s["refused"])
    for r, c in s["refusals_by_reason"].items():
        print("  %6d  %s" % (c, r))
    print("by expectation (accepted/refused):")
    for e, (x, y) in sorted(s["by_expect"].items()):
        print("  %-14s %6d / %d" % (e, x, y))
    print("GPU stage would compile %d files and check %d kernel x variant runs" %
          (s["gpu_compiles_expected"], s["gpu_kernel_runs_expected"]))
    print("findings:                       %d" % len(findings))
    for c, n in sorted(s["findings_by_class"].items()):
        print("  %6d  %s" % (n, c))
    for f in findings[:200]:
        print("  seed %-6s %-26s %-20s %s" % (f["seed"], f["variant"] or "-", f["class"], f["detail"][:160]))
    if len(findings) > 200:
        print("  ... %d more in findings/findings.json" % (len(findings) - 200))
    if "seconds" in s:
        print("time: %.0f s" % s["seconds"])


# ---- GPU pack ------------------------------------------------------------------------
RUN_SH = r'''#!/usr/bin/env bash
# Runs a tfuse fuzz pack on a GPU machine: compiles every original and variant
# with nvcc -O3 -arch=sm_90 -fmad=false (in parallel), runs each with a
# timeout, compares each variant's `hash` lines with its original's, writes
# results.json next to this script and prints a table.
#   bash run.sh [-j N] [--timeout S] [--deadline S] [--shard I/N] [--nvcc PATH]
# Resumable: binaries and outputs are kept under work/, so a second call
# (same machine) continues where a first one stopped at --deadline.
# Needs bash, python3 (standard library) and nvcc; nothing is installed.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec python3 "$here/gpu_run.py" "$@"
'''


def nvcc_cost(nkernels, accepted, flags):
    """Estimated CPU seconds to build and run one file of a pack: nvcc 13 on the
    CPU machine took 0.6 s, 0.075 s a kernel, and 0.022 s for each copy a
    coarsened kernel adds (K - 1, the product of the factors); the run is
    taken as 0.4 s."""
    copies = 1
    if flags:
        for f in flags[flags.index("-factor") + 1].split(","):
            copies *= int(f)
    return 1.0 + 0.075 * nkernels + 0.022 * (copies - 1) * len(accepted)


def cmd_gpu_pack(a):
    import gpu_run  # each text's digest, for the GPU stage's --done
    dst = os.path.abspath(a.to)
    # several CPU stages (a profile's share each) make one pack; their seeds must differ
    progs = []
    for d in getattr(a, "from"):
        src = os.path.abspath(d)
        man = json.load(open(os.path.join(src, "manifest.json")))
        progs += [(src, s, p) for s, p in man["programs"].items()]
    seen = set()
    for _, s, _ in progs:
        if s in seen:
            sys.exit("campaign.py: seed %s is in more than one --from folder" % s)
        seen.add(s)
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    thin = None
    if a.thin:
        regex, _, pct = a.thin.rpartition(":")
        thin = (regex, int(pct))
    pack = {"programs": []}
    total = 0
    cost = 0.0  # estimated CPU seconds of nvcc and run
    members = []  # (source path, name in files.tar.xz)
    for src, s, p in sorted(progs, key=lambda sp: int(sp[1])):
        if p.get("original_nvcc") is False:
            continue
        members.append((os.path.join(src, p["path"]), "seed-%s/prog.cu" % s))
        cost += nvcc_cost(len(p["kernels"]), [], [])
        entry = {"seed": int(s), "original": "seed-%s/prog.cu" % s, "kernels": p["kernels"], "variants": [],
                 "original_sha": gpu_run.sha256_of(os.path.join(src, p["path"]))}
        for tag, rec in sorted(p["variants"].items()):
            if not rec["accepted"] or rec.get("nvcc") is False:
                continue
            if a.tags and not re.search(a.tags, tag):
                continue
            if thin and re.search(thin[0], tag) and stable_hash(s, "thin") % 100 >= thin[1]:
                continue
            if a.skip_na and rec["predicted_na"]:
                continue
            members.append((os.path.join(src, rec["file"]), "seed-%s/%s.cu" % (s, tag)))
            cost += nvcc_cost(len(p["kernels"]), rec["accepted"], rec["flags"])
            entry["variants"].append({"tag": tag, "file": "seed-%s/%s.cu" % (s, tag), "flags": rec["flags"],
                                      "accepted": rec["accepted"], "predicted_na": rec["predicted_na"],
                                      "sha": gpu_run.sha256_of(os.path.join(src, rec["file"]))})
        pack["programs"].append(entry)
    with open(os.path.join(dst, "pack.json"), "w") as fh:
        json.dump(pack, fh, indent=1)
    # xz: a program's variants share most of their text, which gzip's 32 KiB window misses
    with tarfile.open(os.path.join(dst, "files.tar.xz"), "w:xz") as tf:
        for path, name in members:
            tf.add(path, arcname=name)
    total = sum(os.path.getsize(os.path.join(dst, f)) for f in os.listdir(dst)) + \
        os.path.getsize(os.path.join(HERE, "gpu_run.py"))
    shutil.copy(os.path.join(HERE, "gpu_run.py"), os.path.join(dst, "gpu_run.py"))
    with open(os.path.join(dst, "run.sh"), "w") as fh:
        fh.write(RUN_SH)
    os.chmod(os.path.join(dst, "run.sh"), 0o755)
    nfiles = sum(1 + len(e["variants"]) for e in pack["programs"])
    nruns = sum(len(v["accepted"]) for e in pack["programs"] for v in e["variants"])
    print("gpu-pack: %s: %d programs, %d files to compile (%.1f MiB), %d kernel x variant runs" %
          (dst, len(pack["programs"]), nfiles, total / 2 ** 20, nruns))
    print("gpu-pack: on a 16-core machine about %.0f s of nvcc and runs (%.1f s a file; run.sh starts no "
          "compile after --deadline, 480 s; split larger packs with run.sh --shard I/N)" %
          (cost / 16, cost / max(nfiles, 1)))
    if total > 60 * 2 ** 20:
        print("gpu-pack: warning: the pack is over 60 MiB; use fewer seeds", file=sys.stderr)
        return 1
    return 0


def cmd_gpu_report(a):
    import gpu_run
    res = gpu_run.merge([json.load(open(f)) for f in getattr(a, "from")])
    gpu_run.print_table(res)
    return 1 if res["summary"]["mismatches"] or res["summary"].get("variant_errors") else 0


# ---- repro -----------------------------------------------------------------------------
def cmd_repro(a):
    v = parse_variant(a.variant)
    tag = variant_tag(v)
    rel = os.path.relpath(HERE, os.getcwd())
    extra = ""
    if a.profile != "default":
        extra += " --profile %s" % a.profile
    if a.kernels:
        extra += " --kernels %d" % a.kernels
    for s in a.set or []:
        extra += " --set %s" % s
    fl = " ".join(variant_flags(v))
    nv = " ".join(NVCC_FLAGS)
    print("# program and variant (CPU)")
    print("python3 %s/gen.py --seed %d%s -o seed-%d.cu" % (rel, a.seed, extra, a.seed))
    print("%s -skip-unsafe %s seed-%d.cu -o seed-%d.%s.cu" % (a.tfuse, fl, a.seed, a.seed, tag))
    print("nvcc %s -c -o /dev/null seed-%d.%s.cu" % (nv, a.seed, tag))
    print("# run and compare (GPU)")
    print("nvcc %s -o orig seed-%d.cu && nvcc %s -o var seed-%d.%s.cu" % (nv, a.seed, nv, a.seed, tag))
    print("./orig > orig.txt; ./var > var.txt; diff orig.txt var.txt && echo match")
    print("# reduce (see test/fuzz/README.md)")
    print("bash %s/reduce.sh --mismatch seed-%d.cu -- %s" % (rel, a.seed, fl))
    return 0


def main():
    ap = argparse.ArgumentParser(description="tfuse random differential testing",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("cpu")
    c.add_argument("--seeds", help="A-B, or a comma list of seeds and ranges")
    c.add_argument("--corpus", help="a folder of hand-written programs (e.g. test/fuzz/regress) to run as well")
    c.add_argument("--variants", default="all", help="all, or N variants per program")
    c.add_argument("-j", type=int, default=os.cpu_count() or 2)
    c.add_argument("--out", required=True)
    c.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
    c.add_argument("--nvcc")
    c.add_argument("--no-nvcc", action="store_true", help="skip the nvcc checks")
    c.add_argument("--nvcc-sample", type=int, default=0, metavar="PCT",
                   help="compile only about PCT%% of the variant files (deterministic; 0: all)")
    c.add_argument("--keep-na", action="store_true", help="keep thread variants predicted to be N/A")
    c.add_argument("--profile", default="default", choices=sorted(gen.PROFILES))
    c.add_argument("--kernels", type=int)
    c.add_argument("--set", action="append", metavar="KEY=VALUE", help="generator probability override")
    p = sub.add_parser("gpu-pack")
    p.add_argument("--from", required=True, nargs="+", help="the folder of a CPU stage, or several (distinct seeds)")
    p.add_argument("--to", required=True)
    p.add_argument("--tags", help="only the variants whose tag matches this regex (e.g. 'interleaved')")
    p.add_argument("--thin", metavar="REGEX:PCT",
                   help="the variants whose tag matches REGEX for only PCT%% of the programs (chosen from the "
                        "seed): the costly ones (large K) in a share, the GPU's time spread over more programs")
    p.add_argument("--skip-na", action="store_true",
                   help="leave out the variants predicted runtime N/A (kept by the CPU stage to exercise that path)")
    r = sub.add_parser("gpu-report")
    r.add_argument("--from", required=True, nargs="+", help="results.json, or the results of each shard")
    q = sub.add_parser("repro")
    q.add_argument("--seed", type=int, required=True)
    q.add_argument("--variant", required=True)
    q.add_argument("--profile", default="default")
    q.add_argument("--kernels", type=int)
    q.add_argument("--set", action="append")
    q.add_argument("--tfuse", default="build/bin/tfuse")
    a = ap.parse_args()
    if a.cmd == "cpu" and a.variants != "all" and not a.variants.isdigit():
        ap.error("--variants wants all or a number")
    return {"cpu": cmd_cpu, "gpu-pack": cmd_gpu_pack, "gpu-report": cmd_gpu_report, "repro": cmd_repro}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
