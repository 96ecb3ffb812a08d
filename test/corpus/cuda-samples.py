#!/usr/bin/env python3
"""tfuse on a whole codebase: NVIDIA's cuda-samples, configured with CMake, coarsened in one project run.

  cuda-samples.py layout --mirror GITDIR [--commit C] [--work DIR]
      Exports the tree (the blobs the mirror holds; a snapshot may lack a few large doc and data blobs) into
      DIR/src, sets every CMakeLists' CMAKE_CUDA_ARCHITECTURES to 90, leaves out the samples that need libraries
      not installed here (EXCLUDED), and configures it into DIR/build with CMAKE_EXPORT_COMPILE_COMMANDS=ON
      (configure only).  Prints the database's entries, the CUDA files and the __global__ kernels defined in them.
  cuda-samples.py build-time --work DIR [-j 2]
      Builds the whole tree once with `cmake --build BUILD -j J` in a build folder of its own (DIR/build-time,
      configured as DIR/build is) and records the wall time and the machine's load in DIR/build-time.json.
  cuda-samples.py cpu --work DIR [--tfuse PATH] [--factor 4] [-j 2]
      Runs the one command, `tfuse -factor 4 -mode block -skip-unsafe -all-kernels -keep-going -p build -out-dir
      out -report-json report.json` in DIR, under /usr/bin/time -v (wall time, peak memory); where this tfuse
      lacks -all-kernels or -keep-going, one run per CUDA file with -kernel for each __global__ function the file
      defines (a regex) instead.  Lays the output over a copy of the tree (DIR/tree-K4, hard links but for the
      files tfuse wrote) and compiles every emitted .cu with its own database command there (-c, a temporary
      object).  Prints and writes (DIR/cpu.json, DIR/cpu.md) the counts: files, parsed, kernels coarsened and
      left unchanged by reason, emitted files that nvcc compiled or rejected.  --factor auto makes DIR/tree-auto.
  cuda-samples.py gpu-pack --work DIR --to PACK
      A self-contained folder for a GPU machine (nvcc and the CUDA toolkit, nothing else): the self-checking
      samples (SELF_CHECKING) in three forms, the original tree, the K = 4 block tree and the -factor auto tree
      (run `cpu` and `cpu --factor auto` first), the tuning runtime, and run.sh.
  bash PACK/run.sh [-j N]                                   # on the GPU machine
      (cuda-samples.py gpu-run) builds each sample in each form with nvcc -arch=sm_90, runs it (an auto build
      twice, with one wisdom file: tune, then wisdom) and prints a table; results.json beside it and in $OUT.
"""

import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)  # in a pack, corpus_gpu.py and gpu_run.py lie beside this file
sys.path.insert(1, os.path.join(ROOT, "test", "fuzz"))  # in the checkout, gpu_run.py
from gpu_run import run  # noqa: E402

COMMIT = "c94ff366aed18c797b8a85dfaac7817b0228b420"  # the commit the corpus was measured at
# Samples (or sample folders) that need libraries not installed on the project's machines.
EXCLUDED = ["7_libNVVM", "nvJPEG", "nvJPEG_encoder", "watershedSegmentationNPP", "simpleCUFFT_callback"]
ARCH_RE = re.compile(r"set\s*\(\s*CMAKE_CUDA_ARCHITECTURES\b[^)]*\)")
GLOBAL_RE = re.compile(r"__global__\s+(?:[^;{()]*?\s)?(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(")
TFUSE_TIMEOUT = 3600
NVCC_TIMEOUT = 600


def work_paths(work):
    w = os.path.abspath(work)
    return {"work": w, "src": os.path.join(w, "src"), "build": os.path.join(w, "build")}


# ---- layout ------------------------------------------------------------------------
def export_tree(gitdir, commit, dst):
    """Writes commit's files into dst, those whose blobs the mirror holds; returns the paths of those it lacks."""
    ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", commit], stdout=subprocess.PIPE,
                        check=True).stdout.decode("utf-8", "surrogateescape")
    entries = []
    for e in ls.split("\0"):
        if e:
            meta, path = e.split("\t", 1)
            mode, kind, obj = meta.split()
            if kind == "blob":
                entries.append((mode, obj, path))
    batch = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    missing = []
    for mode, obj, path in entries:
        batch.stdin.write((obj + "\n").encode())
        batch.stdin.flush()
        head = batch.stdout.readline().decode().split()
        if head[1] == "missing":
            missing.append(path)
            continue
        data = batch.stdout.read(int(head[2]))
        batch.stdout.read(1)  # the newline after the contents
        out = os.path.join(dst, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if mode == "120000":  # a symbolic link
            os.symlink(data.decode(), out)
            continue
        with open(out, "wb") as fh:
            fh.write(data)
        if mode == "100755":
            os.chmod(out, 0o755)
    batch.stdin.close()
    batch.wait()
    return missing


def patch_cmake(src):
    """CMAKE_CUDA_ARCHITECTURES 90 in every CMakeLists; the EXCLUDED folders' add_subdirectory lines removed.
    Returns (CMakeLists changed, add_subdirectory lines removed)."""
    changed, removed = 0, 0
    drop = re.compile(r"^\s*add_subdirectory\s*\(\s*(%s)\s*\)\s*$\n?" % "|".join(map(re.escape, EXCLUDED)), re.M)
    for d, _, files in os.walk(src):
        if "CMakeLists.txt" not in files:
            continue
        f = os.path.join(d, "CMakeLists.txt")
        text = open(f, encoding="utf-8", errors="surrogateescape").read()
        new = ARCH_RE.sub("set(CMAKE_CUDA_ARCHITECTURES 90)", text)
        new, n = drop.subn("", new)
        removed += n
        if new != text:
            changed += 1
            with open(f, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(new)
    return changed, removed


def configure(src, build):
    shutil.rmtree(build, ignore_errors=True)
    p = subprocess.run(["cmake", "-S", src, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
                        "-DCMAKE_CUDA_COMPILER=" + (shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        sys.exit("cmake configure failed:\n" + p.stdout.decode()[-3000:])


def find_kernels(text):
    """The __global__ functions defined (with a body) in text, by regex: [(name, line)]."""
    clean = re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    res = []
    for m in GLOBAL_RE.finditer(clean):
        depth, i = 0, m.end() - 1
        while i < len(clean):
            depth += {"(": 1, ")": -1}.get(clean[i], 0)
            i += 1
            if depth == 0:
                break
        rest = clean[i:i + 300].lstrip()
        if rest.startswith("{") or rest.startswith("__") and "{" in rest.split(";")[0] or \
                rest.startswith("->") and "{" in rest.split(";")[0]:
            res.append((m.group(1), clean.count("\n", 0, m.start(1)) + 1))
    return res


def database(build):
    return json.load(open(os.path.join(build, "compile_commands.json")))


def cuda_files(db):
    return sorted({e["file"] for e in db if e["file"].endswith(".cu")})


def tree_stats(build):
    db = database(build)
    cu = cuda_files(db)
    kernels = {f: find_kernels(open(f, errors="replace").read()) for f in cu}
    return db, cu, kernels


def cmd_layout(a):
    w = work_paths(a.work)
    os.makedirs(w["work"], exist_ok=True)
    shutil.rmtree(w["src"], ignore_errors=True)
    missing = export_tree(a.mirror, a.commit, w["src"])
    changed, removed = patch_cmake(w["src"])
    configure(w["src"], w["build"])
    db, cu, kernels = tree_stats(w["build"])
    info = {"commit": a.commit, "missing_blobs": missing, "cmakelists_patched": changed,
            "excluded": EXCLUDED, "subdirectories_removed": removed, "database_entries": len(db),
            "cuda_files": len(cu), "kernels": sum(len(v) for v in kernels.values())}
    with open(os.path.join(w["work"], "layout.json"), "w") as fh:
        json.dump(info, fh, indent=1)
    print("layout: %s at %s; %d blobs absent from the snapshot (skipped): %s" % (
        w["src"], a.commit[:12], len(missing), ", ".join(missing)))
    print("layout: %d CMakeLists set to CMAKE_CUDA_ARCHITECTURES 90; %d add_subdirectory lines removed (%s)" % (
        changed, removed, ", ".join(EXCLUDED)))
    print("layout: configured %s: %d database entries, %d CUDA files, %d __global__ kernels defined in them" % (
        w["build"], info["database_entries"], info["cuda_files"], info["kernels"]))
    return 0


# ---- build-time --------------------------------------------------------------------
def cmd_build_time(a):
    w = work_paths(a.work)
    bt = os.path.join(w["work"], "build-time")
    configure(w["src"], bt)
    load0 = os.getloadavg()
    t0 = time.time()
    p = subprocess.run(["cmake", "--build", bt, "-j", str(a.j)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    dt = time.time() - t0
    res = {"command": "cmake --build build -j %d" % a.j, "rc": p.returncode, "wall_s": round(dt, 1),
           "loadavg_before": load0, "loadavg_after": os.getloadavg(), "cpus": os.cpu_count(),
           "tail": p.stdout.decode(errors="replace")[-2000:]}
    with open(os.path.join(w["work"], "build-time.json"), "w") as fh:
        json.dump(res, fh, indent=1)
    print("build-time: `%s` rc %d, %.1f s wall; load average before %s, after %s" % (
        res["command"], p.returncode, dt, "/".join("%.2f" % x for x in load0),
        "/".join("%.2f" % x for x in res["loadavg_after"])))
    if not a.keep:
        shutil.rmtree(bt)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("layout")
    s.add_argument("--mirror", required=True, help="bare git directory of NVIDIA/cuda-samples")
    s.add_argument("--commit", default=COMMIT)
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s = sub.add_parser("build-time")
    s.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "cuda-samples"))
    s.add_argument("-j", type=int, default=2)
    s.add_argument("--keep", action="store_true", help="keep the build folder")
    a = ap.parse_args()
    return {"layout": cmd_layout, "build-time": cmd_build_time}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
