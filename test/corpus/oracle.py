#!/usr/bin/env python3
"""The real-code oracle: every coarsened launch of hundreds of public CUDA programs checked against the original
on the GPU, with the programs' own data (tfuse -check, TFUSE_CHECK=1; see docs/check.md and docs/testing.md).

  oracle.py manifest [--mirrors /work/.mirror] [--work corpus-work/oracle] [--out test/corpus/oracle-manifest.json]
      Writes the oracle manifest from each program's own build description: HeCBench src/*-cuda (its Makefile:
      `make -n -B run ARCH=sm_90`: nvcc flags, sources, the run target's arguments), NVIDIA cuda-samples (the
      sample's .cu/.cpp files, Common/, the libraries of its CMakeLists), llm.c dev/cuda (each .cu file, the
      Makefile's compile line, one run per kernel version), Rodinia (yuhc/gpu-rodinia: the programs whose run
      script needs no data file).  Programs that cannot run here are listed with `skip` and the reason.
  oracle.py cpu --manifest M [--work corpus-work/oracle] [--pack corpus-work/oracle-pack] [-j 2] [--only A,B]
               [--variants block2,block8,thread2] [--verify N]
      Extracts the programs from the mirrors (corpus.py's extract), runs `tfuse -all-kernels -keep-going -check
      -factor K -mode M -report-json` per program and variant, records each kernel's decision, and writes the
      pack: PACK/pack.tar.xz (sources, the variants' files, oracle_gpu.py, the check runtime) and
      PACK/decisions.json.  --verify N compiles the original and the variants of N programs here with the
      pack's own build lines (oracle_gpu.py --dry-run).
  oracle.py carry --old OLD_PACK --new NEW_PACK --results R... --out CARRIED.jsonl
      The results of an earlier pack that stand for a new one (a tfuse that changed little): a build whose files
      are the same in both packs, with no launch that differed or faulted, keeps its record; the GPU stage with
      --done CARRIED.jsonl then runs only the rest, and report reads CARRIED.jsonl with the new results.
  oracle.py report --pack corpus-work/oracle-pack --results R.jsonl... [--append test/corpus/oracle-results.md]
               [--gpu NAME] [--commands TEXT]
      Merges the GPU stage's result files with tfuse's decisions: per program and kernel the launches
      identical / differing / not checked, the program's own verdict for the original and each variant; the
      kernels never launched or never checkable, with reasons; the summary line.
"""

import argparse
import concurrent.futures as cf
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import corpus  # noqa: E402  (extract, find_kernels, the tfuse reason classes)
from corpus import copy_source, find_kernels, reason_class  # noqa: E402
from gpu_run import run  # noqa: E402

VARIANTS = [("block", 2), ("block", 8), ("thread", 2)]
OPTIONAL_VARIANTS = [("block", 4)]
HEC = "zjin-lcf/HeCBench"
SAMPLES = "NVIDIA/cuda-samples"
LLMC = "karpathy/llm.c"
RODINIA = "yuhc/gpu-rodinia"
MAX_BLOB = 2 * 1024 * 1024  # files over this size are not packed (a program needing one is skipped)
# Libraries of the CUDA toolkit (and the system) that the GPU machine has.
TOOLKIT_LIBS = {"m", "cuda", "cudart", "cublas", "cublasLt", "curand", "cufft", "cusparse", "cusolver", "pthread",
                "dl", "rt", "stdc++", "gomp", "nvrtc", "nvJitLink", "cudadevrt", "cudart_static", "z"}
FOREIGN_INCLUDE_RE = re.compile(r"#\s*include\s*[<\"]\s*(mpi\.h|nccl\.h|cudnn\w*\.h|cutensor\w*\.h|nvshmem\w*\.h|"
                                r"cusparseLt\.h|cufile\.h|opencv2?/|boost/|gsl/|GL/|GLFW/|EGL/|vulkan|npp\w*\.h|"
                                r"nvjpeg\.h|nvml\.h|hip/|sycl|omp_target|tbb/|cudaProfiler|cupti|nvvm\.h|"
                                r"cuda/experimental|cub/experimental|mkl|hdf5|png\.h|jpeglib|X11/|Eigen/)")
REPEAT_RE = re.compile(r"\b(\w*(?:repeat|iter|iteration|iterations|iters|nIter|runs|loops?|reps|trials|"
                       r"ntimes|passes|numIterations|num_iterations|n_iter)\w*)\s*=\s*(?:\(\w+\)\s*)?"
                       r"(?:std::)?(?:atoi|atol|atoll|stoi|stol|strtol)\s*\(\s*argv\s*\[\s*(\d+)\s*\]", re.I)
REDUCED_REPEAT = 2


def vtag(mode, k):
    return "%s%d" % (mode, k)


def gitdir(mirrors, repo):
    return os.path.join(mirrors, repo.replace("/", "+"), "repo")


def git(mirrors, repo, *args):
    return subprocess.run(["git", "--git-dir", gitdir(mirrors, repo)] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=True).stdout.decode("utf-8", "replace")


def repo_head(mirrors, repo):
    return git(mirrors, repo, "rev-parse", "HEAD").strip()


def repo_blobs(mirrors, repo, commit, under=""):
    """{path: size} of every file of repo@commit (under a folder)."""
    res = {}
    args = ["ls-tree", "-r", "-l", commit] + (["--", under] if under else [])
    for line in git(mirrors, repo, *args).splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, obj, size = meta.split()
        if kind == "blob" and size.isdigit():  # a blob the snapshot lacks says BAD: left out
            res[path] = int(size)
    return res


def export(mirrors, repo, commit, paths, dst):
    """Writes the files `paths` of repo@commit under dst at their repository paths (one git cat-file --batch)."""
    p = subprocess.Popen(["git", "--git-dir", gitdir(mirrors, repo), "cat-file", "--batch"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    for path in paths:
        p.stdin.write(("%s:%s\n" % (commit, path)).encode())
        p.stdin.flush()
        hdr = p.stdout.readline().split()
        if len(hdr) < 3 or hdr[1] == b"missing":
            continue
        data = p.stdout.read(int(hdr[2]))
        p.stdout.read(1)
        out = os.path.join(dst, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as fh:
            fh.write(data)
    p.stdin.close()
    p.wait()


def src_entry(repo, commit, path):
    """A manifest source: repo@commit:path, copied to the same path under the program's root."""
    return {"repo": repo, "commit": commit, "path": path, "to": os.path.dirname(path) or "."}


def strip_comments(text):
    return re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)


def libs_ok(ldflags):
    """The first library that the GPU machine lacks, or None."""
    for f in ldflags:
        if f.startswith("-l") and f[2:] not in TOOLKIT_LIBS:
            return f
    return None


def foreign_include(texts):
    for t in texts:
        m = FOREIGN_INCLUDE_RE.search(strip_comments(t))
        if m:
            return m.group(1)
    return None


def reduce_repeat(args, texts):
    """Lowers the program's repeat-count argument (a variable named like repeat/iter read with atoi(argv[N]))
    to REDUCED_REPEAT; (args, reason or "")."""
    for t in texts:
        for m in REPEAT_RE.finditer(strip_comments(t)):
            i = int(m.group(2)) - 1
            if 0 <= i < len(args) and re.match(r"^\d+$", args[i]) and int(args[i]) > REDUCED_REPEAT:
                old = args[i]
                args = list(args)
                args[i] = str(REDUCED_REPEAT)
                return args, "repeat count argv[%d] (%s) lowered from %s to %d" % (i + 1, m.group(1), old,
                                                                                   REDUCED_REPEAT)
    return args, ""


PASS_CRIT = {"exit_code": 0, "fail_regex": r"(?i)\bFAIL(ED|URE)?\b|\bmismatch|incorrect|wrong result"}


# ---- HeCBench ----------------------------------------------------------------------------------------------------
FALLBACK_MK = "%::\n\t@:\n"  # makes a missing prerequisite (a header of another folder) not stop `make -n`


def hec_make(d):
    """`make -n -B run` in folder d: (compile lines, run lines, error)."""
    mk = os.path.join(d, ".oracle-fallback.mk")
    with open(mk, "w") as fh:
        fh.write(FALLBACK_MK)
    try:
        p = subprocess.run(["make", "-n", "-B", "-f", "Makefile", "-f", ".oracle-fallback.mk", "run", "ARCH=sm_90",
                            "CC=nvcc", "CXX=nvcc", "LAUNCHER=", "CUDA=yes", "GPU=yes"],
                           cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    finally:
        os.unlink(mk)
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        return [], [], (p.stderr.decode("utf-8", "replace").strip().splitlines() or ["make -n failed"])[-1][:200]
    builds, runs = [], []
    for line in out.splitlines():
        line = line.strip()
        if not line:
            continue
        first = line.split()[0]
        if os.path.basename(first) in ("nvcc", "g++", "gcc", "c++", "cc", "clang++"):
            builds.append(line)
        elif first.startswith("./") or first.startswith("$(") is False and "./" in first:
            runs.append(line)
    return builds, runs, ""


def split_words(line):
    """shlex.split, or a plain split where the line's quoting is not the shell's."""
    try:
        return shlex.split(line)
    except ValueError:
        return line.split()


def split_build(builds, d):
    """From make's compile and link lines: (nvcc flags, source files, link flags)."""
    cflags, sources, ldflags = None, [], []
    for line in builds:
        toks = split_words(line)[1:]
        if "-c" in toks:
            i = 0
            flags = []
            while i < len(toks):
                t = toks[i]
                if t == "-o":
                    i += 2
                    continue
                if t == "-c":
                    i += 1
                    continue
                if re.search(r"\.(cu|cpp|cc|cxx|c)$", t) and os.path.isfile(os.path.join(d, t)):
                    if t not in sources:
                        sources.append(t)
                else:
                    flags.append(t)
                i += 1
            if cflags is None or (sources and sources[-1].endswith(".cu") and not any(
                    s.endswith(".cu") for s in sources[:-1])):
                cflags = flags
        else:  # a link line, or a one-step build
            i = 0
            flags = []
            while i < len(toks):
                t = toks[i]
                if t == "-o":
                    i += 2
                    continue
                if re.search(r"\.(cu|cpp|cc|cxx|c)$", t) and os.path.isfile(os.path.join(d, t)):
                    if t not in sources:
                        sources.append(t)
                elif re.search(r"\.(o|a)$", t):
                    pass
                elif t.startswith("-l") or t.startswith("-L") or t.startswith("-Wl") or t == "-lineinfo":
                    ldflags.append(t)
                else:
                    flags.append(t)
                i += 1
            if cflags is None:
                cflags = flags
    cflags = [f for f in (cflags or []) if not re.match(r"^(-arch|--gpu-architecture|-gencode|--generate-code|"
                                                        r"-code)(=|$)", f)]
    # drop the value of a separate -arch/-gencode
    out, skip = [], False
    for f in cflags:
        if skip:
            skip = False
            continue
        if f in ("-arch", "-gencode", "--generate-code", "-code"):
            skip = True
            continue
        out.append(f)
    return out + ["-arch=sm_90"], sources, ldflags


def rel_deps(texts, d_repo, blobs):
    """Repository paths outside the program's folder that its Makefile, sources or run line name (`../x`):
    files, or every file of a folder."""
    res = set()
    for t in texts:
        for m in re.finditer(r"(?<![\w.])((?:\.\./)+[\w./+-]+)", t):
            p = os.path.normpath(os.path.join(d_repo, m.group(1).rstrip(".")))
            if p in blobs:
                res.add(p)
            else:
                pre = p.rstrip("/") + "/"
                for b in blobs:
                    if b.startswith(pre) and b.count("/") - pre.count("/") <= 1:
                        res.add(b)
    return res


def hec_programs(mirrors, work):
    commit = repo_head(mirrors, HEC)
    blobs = repo_blobs(mirrors, HEC, commit, "src")
    folders = sorted({p.split("/")[1] for p in blobs if re.match(r"^src/[^/]+-cuda/", p)})
    tree = os.path.join(work, "manifest-tree", "hec")
    export(mirrors, HEC, commit, [p for p in blobs if p.split("/")[1] in folders and blobs[p] <= MAX_BLOB], tree)
    progs = []
    for f in folders:
        try:
            progs.append(hec_program(f, commit, blobs, tree))
        except Exception as e:  # one program's odd Makefile stops no other
            progs.append({"name": "hec-" + f[:-5], "suite": "hecbench", "dir": "src/" + f,
                          "sources": [src_entry(HEC, commit, "src/" + f)],
                          "skip": "the manifest generator failed on it: %s" % str(e)[:200]})
    return progs


def hec_program(f, commit, blobs, tree):
    """The manifest entry of HeCBench's src/F (F ends in -cuda), from its Makefile."""
    if True:
        name = "hec-" + f[:-5]
        d_repo = "src/" + f
        d = os.path.join(tree, d_repo)
        p = {"name": name, "suite": "hecbench", "dir": d_repo, "pass": PASS_CRIT, "timeout": 120,
             "sources": [src_entry(HEC, commit, d_repo)]}
        p["sources"][0]["to"] = d_repo
        own = sorted(b for b in blobs if b.startswith(d_repo + "/"))
        big = [b for b in own if blobs[b] > MAX_BLOB]
        if not os.path.isfile(os.path.join(d, "Makefile")):
            p["skip"] = "no Makefile"
            return p
        builds, runs, err = hec_make(d)
        if err or not builds:
            p["skip"] = "make -n -B run fails: %s" % (err or "no compile line")
            return p
        if not runs:
            p["skip"] = "the Makefile's run target runs nothing"
            return p
        cflags, sources, ldflags = split_build(builds, d)
        if not any(s.endswith(".cu") for s in sources):
            p["skip"] = "no .cu source in the build"
            return p
        texts = [open(os.path.join(d, s), errors="replace").read() for s in sources]
        for h in os.listdir(d):
            if re.search(r"\.(h|hpp|cuh|inc|cu)$", h) and h not in sources and os.path.isfile(os.path.join(d, h)):
                texts.append(open(os.path.join(d, h), errors="replace").read())
        mk = open(os.path.join(d, "Makefile"), errors="replace").read()
        run_toks = split_words(runs[0])
        args = run_toks[1:]
        p.update({"sources_compiled": sources, "tfuse_files": [s for s in sources if s.endswith(".cu")],
                  "cflags": cflags, "ldflags": ldflags, "args": args,
                  "notes": "HeCBench %s; make -n -B run ARCH=sm_90: %s" % (d_repo, " | ".join(builds + runs[:1]))})
        if len(runs) > 1:
            p["notes"] += "; the run target has %d run lines, the first is taken" % len(runs)
        if run_toks[0] != "./" + os.path.basename(run_toks[0]) or re.search(r"[|<>;&]", runs[0]):
            p["skip"] = "the run line is not a plain ./PROGRAM ARGS: %s" % runs[0][:120]
            return p
        bad = libs_ok(ldflags)
        if bad:
            p["skip"] = "needs a library the GPU machine lacks: %s" % bad
            return p
        inc = foreign_include(texts)
        if inc:
            p["skip"] = "needs a library the GPU machine lacks: #include %s" % inc
            return p
        if not any(find_kernels(t) for t in texts):
            p["skip"] = "no __global__ function in its sources"
            return p
        deps = rel_deps([mk, runs[0]] + texts, d_repo, blobs)
        missing = []
        for a in args:
            if re.search(r"[/]|\.(txt|bin|dat|raw|bmp|ppm|pgm|png|jpg|csv|mtx|fa|fasta|graph|gr|mat|obj|ply|"
                         r"off|xyz|in|out|vtk|bz2|gz|tar|json|nii|wav|fasta)$", a, re.I):
                rp = os.path.normpath(os.path.join(d_repo, a))
                if rp not in blobs and not any(b.startswith(rp + "/") for b in blobs):
                    if not re.search(r"(result|output|out)\w*\.", a, re.I):  # an output file
                        missing.append(a)
                elif blobs.get(rp, 0) > MAX_BLOB:
                    missing.append(a + " (over 2 MiB)")
        needed_big = [b for b in big if any(os.path.basename(b) in t for t in [runs[0]] + texts)]
        if missing:
            p["skip"] = "needs data files absent from the repository: %s" % ", ".join(missing[:3])
            return p
        if needed_big:
            p["skip"] = "needs data files over 2 MiB: %s" % ", ".join(needed_big[:3])
            return p
        for dep in sorted(deps):
            if blobs.get(dep, 0) > MAX_BLOB:
                p["skip"] = "needs a file over 2 MiB outside its folder: %s" % dep
                return p
            p["sources"].append(src_entry(HEC, commit, dep))
        new, why = reduce_repeat(args, texts)
        if why:
            p["args"], p["reduced"] = new, why
    return p


# ---- cuda-samples ------------------------------------------------------------------------------------------------
SAMPLE_LIBS = {"CUDA::cublas": "-lcublas", "CUDA::cublasLt": "-lcublasLt", "CUDA::curand": "-lcurand",
               "CUDA::cufft": "-lcufft", "CUDA::cusparse": "-lcusparse", "CUDA::cusolver": "-lcusolver",
               "CUDA::cuda_driver": "-lcuda", "CUDA::nvrtc": "-lnvrtc", "CUDA::cudart": "", "CUDA::cudart_static": "",
               "CUDA::cudadevrt": "-lcudadevrt", "CUDA::nvJitLink": "-lnvJitLink"}
SAMPLE_FOREIGN_RE = re.compile(r"\b(OpenGL|GLUT|GLEW|EGL|Vulkan|X11|FreeImage|NPP|nvjpeg|MPI|nvvm|CUDA::nvml|"
                               r"CUDA::npp\w*|CUDA::cupti|CUDA::cufile|CUDA::OpenCL|OpenCL|NVSCI|nvsci\w*)\b")
SAMPLE_INPUT_RE = re.compile(r"sdkFindFilePath|sdkLoadPPM|sdkLoadPGM|fopen|ifstream|loadImage|cuModuleLoad|"
                             r"\.ptx\"|\.fatbin\"|\.cubin\"|getCmdLineArgumentString")


def sample_programs(mirrors, work):
    commit = repo_head(mirrors, SAMPLES)
    blobs = repo_blobs(mirrors, SAMPLES, commit)
    dirs = sorted({os.path.dirname(p) for p in blobs if re.match(r"^Samples/[^/]+/[^/]+/[^/]+\.cu$", p)})
    tree = os.path.join(work, "manifest-tree", "samples")
    common = sorted(p for p in blobs if re.match(r"^Common/[^/]+\.(h|hpp|cuh)$", p))
    want = common + [p for p in blobs if any(p.startswith(d + "/") for d in dirs) and blobs[p] <= MAX_BLOB]
    export(mirrors, SAMPLES, commit, want, tree)
    progs = []
    for dr in dirs:
        d = os.path.join(tree, dr)
        name = "cs-" + os.path.basename(dr)
        p = {"name": name, "suite": "cuda-samples", "dir": dr, "pass": dict(PASS_CRIT, waive_exit_code=2),
             "timeout": 120, "sources": [src_entry(SAMPLES, commit, dr)] +
             [src_entry(SAMPLES, commit, c) for c in common]}
        p["sources"][0]["to"] = dr
        progs.append(p)
        files = sorted(f for f in os.listdir(d) if os.path.isfile(os.path.join(d, f)))
        sources = [f for f in files if re.search(r"\.(cu|cpp|cc|c)$", f)]
        texts = [open(os.path.join(d, f), errors="replace").read() for f in files
                 if re.search(r"\.(cu|cpp|cc|c|h|hpp|cuh)$", f)]
        cm = open(os.path.join(d, "CMakeLists.txt"), errors="replace").read() \
            if os.path.isfile(os.path.join(d, "CMakeLists.txt")) else ""
        ldflags, cflags = [], ["-O3", "-std=c++17", "-I../../../Common", "-arch=sm_90"]
        for m in re.finditer(r"CUDA::\w+", cm):
            if SAMPLE_LIBS.get(m.group(0)):
                ldflags.append(SAMPLE_LIBS[m.group(0)])
        if re.search(r"CUDA_SEPARABLE_COMPILATION\s+ON", cm):
            cflags.append("-rdc=true")
        if re.search(r"--extended-lambda", cm):
            cflags.append("--extended-lambda")
        if re.search(r"OpenMP::OpenMP_CXX|find_package\(OpenMP", cm):
            cflags += ["-Xcompiler", "-fopenmp"]
            ldflags.append("-lgomp")
        p.update({"sources_compiled": sources, "tfuse_files": [s for s in sources if s.endswith(".cu")],
                  "cflags": cflags, "ldflags": sorted(set(ldflags), key=ldflags.index), "args": [],
                  "notes": "cuda-samples %s; no arguments" % dr})
        fm = SAMPLE_FOREIGN_RE.search(cm)
        if not cm:
            p["skip"] = "no CMakeLists.txt"
        elif "add_executable" not in cm:
            p["skip"] = "its CMakeLists.txt builds no executable of its own"
        elif fm:
            p["skip"] = "needs a library the GPU machine lacks or a display: %s" % fm.group(0)
        elif foreign_include(texts):
            p["skip"] = "needs a library the GPU machine lacks: #include %s" % foreign_include(texts)
        elif any(SAMPLE_INPUT_RE.search(strip_comments(t)) for t in texts):
            m = next(SAMPLE_INPUT_RE.search(strip_comments(t)) for t in texts if SAMPLE_INPUT_RE.search(
                strip_comments(t)))
            p["skip"] = "reads input or module files at run time (%s)" % m.group(0)
        elif len(re.findall(r"add_executable", cm)) > 1:
            p["skip"] = "its CMakeLists.txt builds several executables"
        elif not any(find_kernels(t) for t in texts):
            p["skip"] = "no __global__ function in its sources"
        elif re.search(r"cudaGetDeviceCount[^;]*;[^}]*<\s*2|requires? (at least )?(two|2|multiple) GPUs",
                       " ".join(texts)):
            p["skip"] = "needs several GPUs"
        elif re.search(r"\bmain\s*\(", " ".join(strip_comments(t) for t in texts)) is None:
            p["skip"] = "no main()"
    return progs


# ---- llm.c dev/cuda ----------------------------------------------------------------------------------------------
def llmc_programs(mirrors, work):
    commit = repo_head(mirrors, LLMC)
    blobs = repo_blobs(mirrors, LLMC, commit, "dev/cuda")
    tree = os.path.join(work, "manifest-tree", "llmc")
    export(mirrors, LLMC, commit, list(blobs), tree)
    mk = open(os.path.join(tree, "dev/cuda/Makefile"), errors="replace").read()
    import modern  # the kernel versions of a program's switch (kernel_num)
    progs = []
    for path in sorted(b for b in blobs if b.endswith(".cu")):
        stem = os.path.basename(path)[:-3]
        d = os.path.dirname(path)
        text = open(os.path.join(tree, path), errors="replace").read()
        cflags = ["-O3", "--use_fast_math", "-std=c++17", "-arch=sm_90"]
        own = re.search(r"^%s:.*\n\t(.*)$" % re.escape(stem), mk, re.M)
        if own and "-fopenmp" in own.group(1):
            cflags += ["-Xcompiler", "-fopenmp"]
        p = {"name": "llmc-" + stem, "suite": "llm.c", "dir": d, "pass": dict(PASS_CRIT, stdout_regex="All results match"),
             "timeout": 180, "sources": [src_entry(LLMC, commit, path), src_entry(LLMC, commit, d + "/common.h")],
             "sources_compiled": [os.path.basename(path)], "tfuse_files": [os.path.basename(path)],
             "cflags": cflags, "ldflags": ["-lcublas", "-lcublasLt"],
             "notes": "llm.c %s; the Makefile's line: $(NVCC) $(CFLAGS) $(NVCCFLAGS) %s (CFLAGS -O3 --use_fast_math,"
                      " NVCCFLAGS -lcublas -lcublasLt -std=c++17); one run per kernel version (argv[1])"
                      % (path, "-Xcompiler -fopenmp" if "-fopenmp" in cflags else "")}
        progs.append(p)
        if stem == "nccl_all_reduce":
            p["skip"] = "needs MPI and NCCL"
            continue
        clean = modern.without_comments(text)
        vers = modern.versions(clean, modern.function_bodies(clean), set(find_kernels(text)))
        p["runs"] = [[v] for v in sorted(vers, key=int)] or [[]]
        p["args"] = p["runs"][0]
    return progs


# ---- Rodinia (yuhc/gpu-rodinia) ----------------------------------------------------------------------------------
# The programs whose `run` script needs no input file (the repository holds none of Rodinia's data): folder,
# sources, flags of its Makefile, the run script's arguments.
RODINIA_PROGRAMS = [
    ("gaussian", ["gaussian.cu"], [], ["-s", "1024", "-q"]),
    ("lud/cuda", ["lud.cu", "lud_kernel.cu", "../common/common.c"], ["-I../common"], ["-s", "1024", "-v"]),
    ("nw", ["needle.cu"], [], ["2048", "10"]),
    ("pathfinder", ["pathfinder.cu"], [], ["100000", "100", "20"]),
    ("lavaMD", ["main.c", "./kernel/kernel_gpu_cuda_wrapper.cu", "./util/num/num.c", "./util/timer/timer.c",
                "./util/device/device.cu"], [], ["-boxes1d", "10"]),
    ("particlefilter", ["ex_particle_CUDA_float_seq.cu"], ["-use_fast_math"], ["-x", "128", "-y", "128", "-z", "10",
                                                                                "-np", "1000"]),
    ("streamcluster", ["streamcluster_cuda_cpu.cpp", "streamcluster_cuda.cu", "streamcluster_header.cu"], [],
     ["10", "20", "256", "65536", "65536", "1000", "none", "output.txt", "1"]),
    ("backprop", ["backprop.c", "facetrain.c", "imagenet.c", "backprop_cuda.cu"], [], ["65536"]),
    ("srad/srad_v2", ["srad.cu"], [], ["2048", "2048", "0", "127", "0", "127", "0.5", "2"]),
    ("hotspot3D", ["3D.cu"], [], []),
    ("myocyte", ["main.cu"], [], []),
    ("huffman", ["main_test_cu.cu"], [], []),
]


def rodinia_programs(mirrors, work):
    commit = repo_head(mirrors, RODINIA)
    blobs = repo_blobs(mirrors, RODINIA, commit, "cuda")
    progs = []
    for folder, sources, flags, args in RODINIA_PROGRAMS:
        d = "cuda/" + folder
        p = {"name": "rod-" + folder.replace("/", "-"), "suite": "rodinia", "dir": d, "pass": PASS_CRIT,
             "timeout": 120, "sources": [src_entry(RODINIA, commit, d)],
             "sources_compiled": sources, "tfuse_files": [s for s in sources if s.endswith(".cu")],
             "cflags": ["-O2", "-arch=sm_90"] + flags, "ldflags": ["-lm"], "args": args,
             "notes": "Rodinia %s (yuhc/gpu-rodinia); sources and flags of its Makefile, arguments of its run "
                      "script (or none where it reads a data file: then skipped)" % d}
        p["sources"][0]["to"] = d
        if any(s.startswith("../") for s in sources):
            p["sources"].append({"repo": RODINIA, "commit": commit, "path": os.path.normpath(d + "/../common"),
                                 "to": os.path.normpath(d + "/../common")})
        if not args:
            p["skip"] = "its run script reads a data file that the repository lacks"
        elif not all(os.path.normpath(d + "/" + s) in blobs for s in sources):
            p["skip"] = "a source of its Makefile is absent: %s" % ", ".join(
                s for s in sources if os.path.normpath(d + "/" + s) not in blobs)
        progs.append(p)
    return progs


def cmd_manifest(a):
    work = os.path.abspath(a.work)
    progs = []
    for fn in (hec_programs, sample_programs, llmc_programs, rodinia_programs):
        got = fn(a.mirrors, work)
        print("%s: %d programs, %d skipped" % (fn.__name__, len(got), sum(1 for p in got if p.get("skip"))))
        progs += got
    shutil.rmtree(os.path.join(work, "manifest-tree"), ignore_errors=True)
    names = set()
    for p in progs:
        assert p["name"] not in names, p["name"]
        names.add(p["name"])
        if "runs" not in p and "args" in p:
            p["runs"] = [p["args"]]
    with open(a.out, "w") as fh:
        fh.write('{"programs": [\n')
        fh.write(",\n".join(json.dumps(p, sort_keys=True) for p in progs))
        fh.write("\n]}\n")
    live = [p for p in progs if not p.get("skip")]
    print("%s: %d programs, %d to run, %d skipped, %d with reduced arguments" % (
        a.out, len(progs), len(live), len(progs) - len(live), sum(1 for p in live if p.get("reduced"))))
    return 0



# ---- cpu: tfuse -check per program and variant, the pack ----------------------------------------------------------
def live_programs(m, only):
    progs = [p for p in m["programs"] if not p.get("skip")]
    if only:
        want = set(only.split(","))
        progs = [p for p in progs if p["name"] in want]
    return progs


def extract_program(p, mirrors, src):
    """WORK/src/PROG: the program's files at their repository paths (corpus.py's copy_source, blob by blob)."""
    dst = os.path.join(src, p["name"])
    if os.path.isdir(dst):
        return ""
    tmp = dst + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        for s in p["sources"]:
            copy_source(mirrors, p["name"], s, tmp)
    except SystemExit as e:  # copy_source ends the program on a missing path
        return str(e)
    # large files are not packed: a program that needed one is skipped by the manifest
    for d, _, files in os.walk(tmp):
        for f in files:
            if os.path.getsize(os.path.join(d, f)) > MAX_BLOB:
                os.unlink(os.path.join(d, f))
    os.replace(tmp, dst)
    return ""


def tfuse_variant(p, root, out, tfuse, mode, k):
    """Runs tfuse -check for one variant: {"status", "kernels": [{kernel, file, decision, reason}], "files": [...]}."""
    tag = vtag(mode, k)
    vdir = os.path.join(out, tag)
    shutil.rmtree(vdir, ignore_errors=True)
    os.makedirs(vdir)
    rep = os.path.join(vdir, "report.json")
    files_dir = os.path.join(vdir, "files")
    cmd = [tfuse, "-all-kernels", "-keep-going", "-check", "-factor", str(k), "-mode", mode, "-timeout", "120",
           "-report-json", rep, "-root", root, "-out-dir", files_dir] + p["tfuse_files"] + ["--"] + p["cflags"]
    rc, so, se, dt = run(cmd, 300, cwd=os.path.join(root, p["dir"]))
    res = {"variant": tag, "rc": rc, "seconds": round(dt, 2), "kernels": [], "files": []}
    with open(os.path.join(vdir, "tfuse.txt"), "w") as fh:
        fh.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + so + se)
    if rc != 0 or not os.path.isfile(rep):
        res["status"] = "tfuse-failed"
        res["error"] = corpus.first_error(so + se) if rc is not None else "tfuse ran past 300 s"
        return res
    r = json.load(open(rep))
    res["status"] = "ok"
    for kr in r.get("kernels", []):
        res["kernels"].append({"kernel": kr["kernel"], "file": kr["file"], "line": kr.get("line"),
                               "decision": kr["decision"], "reason": kr.get("reason", ""),
                               "reason_class": reason_class(kr.get("reason", "")) if kr.get("reason") else ""})
    res["failed_files"] = [{"file": f["file"], "reason": f.get("reason", "")} for f in r.get("files", [])
                           if f.get("status") == "failed"]
    for d, _, files in os.walk(files_dir):
        for f in files:
            res["files"].append(os.path.relpath(os.path.join(d, f), files_dir))
    return res


GPU_FILES = [("test/corpus/oracle_gpu.py", "oracle_gpu.py"), ("test/corpus/corpus_gpu.py", "corpus_gpu.py"),
             ("test/fuzz/gpu_run.py", "gpu_run.py")]


def cmd_cpu(a):
    m = json.load(open(a.manifest))
    work = os.path.abspath(a.work)
    src, runs = os.path.join(work, "src"), os.path.join(work, "tfuse")
    os.makedirs(src, exist_ok=True)
    variants = [(v[:-1], int(v[-1])) for v in a.variants.split(",")]
    progs = live_programs(m, a.only)
    dec_path = os.path.join(work, "decisions.json")
    decisions = json.load(open(dec_path)) if os.path.isfile(dec_path) else {}
    t0 = time.time()

    def one(p):
        err = extract_program(p, a.mirrors, src)
        if err:
            return p["name"], {"error": "extract: " + err}
        root = os.path.join(src, p["name"])
        res = {"variants": {}}
        for mode, k in variants:
            res["variants"][vtag(mode, k)] = tfuse_variant(p, root, os.path.join(runs, p["name"]), a.tfuse, mode, k)
        return p["name"], res

    with cf.ThreadPoolExecutor(a.j) as ex:
        for i, (name, res) in enumerate(ex.map(one, progs)):
            decisions[name] = res
            v = res.get("variants", {})
            print("[%d/%d %ds] %s: %s" % (i + 1, len(progs), time.time() - t0, name, res.get("error") or " ".join(
                "%s %d/%d" % (t, sum(1 for k in r["kernels"] if k["decision"] == "coarsened"), len(r["kernels"]))
                if r["status"] == "ok" else "%s %s" % (t, r["status"]) for t, r in v.items())), flush=True)
            if (i + 1) % 20 == 0:
                json.dump(decisions, open(dec_path, "w"), indent=0)
    json.dump(decisions, open(dec_path, "w"), indent=0)
    return pack(m, decisions, work, a.pack, a.only)


def pack(m, decisions, work, pack_dir, only=None):
    """PACK/pack.tar.xz (pack/programs.json, pack/progs/PROG/{root,VARIANT}/..., the GPU stage's scripts, the check
    runtime) and PACK/decisions.json: the programs with a kernel that some variant coarsened."""
    pack_dir = os.path.abspath(pack_dir)
    os.makedirs(pack_dir, exist_ok=True)
    stage = os.path.join(work, "pack-stage", "pack")
    shutil.rmtree(os.path.dirname(stage), ignore_errors=True)
    os.makedirs(os.path.join(stage, "progs"))
    specs = []
    for p in live_programs(m, only):
        d = decisions.get(p["name"])
        if not d or d.get("error"):
            continue
        vs = [t for t, r in d["variants"].items() if r["status"] == "ok" and r["files"]
              and any(k["decision"] == "coarsened" for k in r["kernels"])]
        if not vs:
            continue
        pd = os.path.join(stage, "progs", p["name"])
        shutil.copytree(os.path.join(work, "src", p["name"]), os.path.join(pd, "root"), symlinks=False)
        for t in vs:
            shutil.copytree(os.path.join(work, "tfuse", p["name"], t, "files"), os.path.join(pd, t))
        spec = {k: p[k] for k in ("name", "suite", "dir", "sources_compiled", "cflags", "ldflags", "runs", "pass",
                                  "timeout") if k in p}
        spec["variants"] = vs
        specs.append(spec)
    with open(os.path.join(stage, "programs.json"), "w") as fh:
        json.dump({"programs": specs}, fh, indent=0)
    for src_rel, dst in GPU_FILES:
        shutil.copy(os.path.join(ROOT, src_rel), os.path.join(stage, dst))
    shutil.copytree(os.path.join(ROOT, "runtime"), os.path.join(stage, "runtime"),
                    ignore=shutil.ignore_patterns("*.o", "CMakeLists.txt"))
    tarball = os.path.join(pack_dir, "pack.tar.xz")
    tmp = tarball + ".tmp"
    subprocess.run(["tar", "-C", os.path.dirname(stage), "-cJf", tmp, "pack"], check=True,
                   env=dict(os.environ, XZ_OPT="-6 -T2"))
    os.replace(tmp, tarball)
    json.dump(decisions, open(os.path.join(pack_dir, "decisions.json"), "w"), indent=0)
    shutil.copy(os.path.join(ROOT, "test", "corpus", "oracle_gpu.py"), pack_dir)  # for reading; the pack has its own
    size = os.path.getsize(tarball)
    print("pack: %s, %.1f MiB, %d programs, %d builds (originals and variants)" % (
        tarball, size / 1048576.0, len(specs), sum(1 + len(s["variants"]) for s in specs)))
    if size > 60 * 1048576:
        print("pack: WARNING: over 60 MiB")
    return 0


def cmd_pack(a):
    m = json.load(open(a.manifest))
    work = os.path.abspath(a.work)
    return pack(m, json.load(open(os.path.join(work, "decisions.json"))), work, a.pack, a.only)



# ---- report ------------------------------------------------------------------------------------------------------
def ulp_note(fd):
    """For a first difference between two floats (the check runtime prints `value (0xBITS)`), how many units in
    the last place apart they are: a rounding difference (contraction, summation order) reads as a few, a wrong
    value as many.  "" where the element is not a float."""
    bits = []
    for side in ("original", "coarsened"):
        text = str((fd or {}).get(side, ""))
        m = re.search(r"^(\S+) \(0x([0-9a-fA-F]{8})\)$", text)
        if not m or not re.search(r"[.eEn]", m.group(1)):
            return ""  # an integer element (printed without a point)
        b = int(m.group(2), 16)
        bits.append(b if b < 0x80000000 else 0x80000000 - b)  # ordered like the floats they encode
    return " (the first by %d ULP)" % abs(bits[0] - bits[1])


def rejudge(r):
    """A run that the GPU stage judged `fail` for the check runtime's own summary ("0 mismatches" matched the
    fail pattern; oracle_gpu.py now leaves those lines out) is judged again from its kept output, where that
    output is whole (shorter than the kept tail): exit status 0, a PASS-like line and no failure text of the
    program's own make it `pass`."""
    runs = r.get("runs") or []
    changed = False
    for run in runs:
        tail = run.get("tail", "")
        if run.get("outcome") != "fail" or run.get("rc") != 0 or "--- stderr ---" not in tail:
            continue
        so, se = tail.split("\n--- stderr ---\n", 1)
        if len(so) >= 750 or len(se) >= 1500:
            continue  # cut: the kept output may not be the whole of it
        text = so + "\n" + "\n".join(l for l in se.splitlines() if not l.startswith("tfuse-check"))
        if re.search(PASS_CRIT["fail_regex"], text, re.M):
            continue
        run["outcome"] = "pass"
        changed = True
    if changed and all(run.get("outcome") == "pass" for run in runs):
        r["verdict"] = "pass"


NOFMA = "+nofma"  # a variant built again with -fmad=false (oracle_gpu.py --nofma-of)


def read_results(paths):
    """{(program, build): record} from result files or folders of them; a later record of a pair wins."""
    files = []
    for p in paths:
        files += sorted(glob.glob(os.path.join(p, "*.jsonl"))) if os.path.isdir(p) else [p]
    res = {}
    for f in files:
        for line in open(f, errors="replace"):
            try:
                r = json.loads(line)
                rejudge(r)
                res[(r["program"], r["build"])] = r
            except (ValueError, KeyError):
                pass
    return res


KNOWN = os.path.join(HERE, "oracle-known.json")


def read_known(path):
    """{(program, kernel): entry} of oracle-known.json: kernels whose original's result depends on the order
    threads run in, or has undefined behaviour, each with the line of source that shows it."""
    if not path or not os.path.exists(path):
        return {}
    return {(k["program"], k["kernel"]): k for k in json.load(open(path))["kernels"]}


def original_fault(lk):
    """Whether a kernel's faulting launches were the original kernel's (its own assert, or its second run under
    --twice): no fault of the coarsened kernel, which the check had not yet run."""
    return bool(lk.get("fault")) and all(re.match(r"(launch of )?the original\b", f or "")
                                         for f in lk.get("faults") or [""])


def cmd_report(a):
    m = {p["name"]: p for p in json.load(open(a.manifest))["programs"]}
    known = read_known(a.known)
    decisions = json.load(open(os.path.join(a.pack, "decisions.json")))
    res = read_results(a.results)
    progs = sorted({p for p, b in res if not b.endswith(NOFMA)})
    gpus = sorted({r.get("gpu", "?") for r in res.values()})
    L = C = D = F = R = 0
    out = ["| program | build | verdict | kernel | tfuse | identical | differs | not checked | fault |",
           "|---|---|---|---|---|---|---|---|---|"]
    differ, faults, rejects, never_launched, never_checked, orig_bad, crashes = [], [], [], [], [], [], []
    rounding = []  # launches the same within TFUSE_CHECK_ULP (the GPU stage's --ulp) but not bit for bit
    nondet = []  # launches whose original wrote something else when run again (the GPU stage's --twice)
    contraction = []  # kernels that differ in the default build and agree built with -fmad=false (--nofma-of)
    explained = []  # differing kernels whose original depends on the schedule or has undefined behaviour (KNOWN)
    orig_faults = []  # faults of the original kernel during a checked launch (not the coarsened kernel's)
    for pn in progs:
        orig = res.get((pn, "original"))
        ov = orig.get("verdict") if orig and orig.get("status") == "ran" else (orig or {}).get("status", "not run")
        if ov != "pass":
            orig_bad.append((pn, ov, (orig or {}).get("error", "")))
        out.append("| %s | original | %s | | | | | | |" % (pn, ov))
        for tag, vd in sorted(decisions.get(pn, {}).get("variants", {}).items()):
            r = res.get((pn, tag))
            if r is None:
                continue
            if r.get("status") == "build-failed":
                if orig and orig.get("status") != "build-failed":
                    R += 1
                    rejects.append((pn, tag, r.get("error", "")))
                out.append("| %s | %s | nvcc rejected: %s | | | | | | |" % (pn, tag, r.get("error", "")[:120]))
                continue
            v = r.get("verdict", r.get("status"))
            if v in ("crash", "timeout") and ov == "pass":
                crashes.append((pn, tag, v, (r.get("runs") or [{}])[-1].get("check_lines", [])[-1:]))
            out.append("| %s | %s | %s | | | | | | |" % (pn, tag, v))
            launches = r.get("launches", {})
            for kd in vd["kernels"]:
                k = kd["kernel"]
                lk = launches.get(k)
                dec = kd["decision"] if kd["decision"] == "coarsened" else "unchanged: " + kd["reason_class"][:80]
                if lk is None:
                    out.append("| | | | %s | %s | | | | |" % (k, dec))
                    if kd["decision"] == "coarsened":
                        never_launched.append((pn, tag, k, v))
                    continue
                rd = lk.get("rounding", 0)
                nd = lk.get("nondeterministic", 0)
                n = lk["identical"] + lk["differs"] + lk["not-checked"] + lk["fault"] + rd + nd
                if nd:
                    nondet.append((pn, tag, k, nd, n))
                L += n
                C += lk["identical"] + lk["differs"] + rd
                if rd:
                    rounding.append((pn, tag, k, rd, n, lk.get("max_ulp", 0)))
                nf = (res.get((pn, tag + NOFMA)) or {}).get("launches", {}).get(k)
                fused_only = bool(lk["differs"] and nf and not nf["differs"] and not nf["fault"] and
                                  nf["identical"] + nf.get("rounding", 0))
                why = known.get((pn, k)) if lk["differs"] and not fused_only else None
                if why:  # the original's own result varies: those launches are not compared
                    C -= lk["differs"]
                D += 0 if fused_only or why else lk["differs"]
                own = original_fault(lk)
                F += 0 if own else lk["fault"]
                out.append("| | | | %s | %s | %d | %d | %d | %d |" % (k, dec, lk["identical"], lk["differs"],
                                                                     lk["not-checked"], lk["fault"]))
                if fused_only:
                    contraction.append((pn, tag, k, lk["differs"], n, nf["identical"] + nf.get("rounding", 0)))
                elif why:
                    explained.append((pn, tag, k, lk["differs"], n, why["class"], why["where"], why["why"]))
                elif lk["differs"]:
                    differ.append((pn, tag, k, lk["differs"], n, lk.get("first_differ"),
                                   " (and built with -fmad=false: %d differ)" % nf["differs"] if nf else ""))
                if lk["fault"]:
                    (orig_faults if own else faults).append((pn, tag, k, lk["faults"][:1]))
                if lk["identical"] + lk["differs"] == 0 and lk["not-checked"]:
                    never_checked.append((pn, tag, k, lk["reasons"][:1]))
    summary = "oracle: %d programs, %d launches, %d checked (%.1f%%), %d differ, %d faults, %d nvcc rejects" % (
        len(progs), L, C, 100.0 * C / L if L else 0.0, D, F, R)
    lists = ["", "### Kernels whose coarsened launches differ from the original (%d)" % len(differ), ""]
    lists += ["- %s %s `%s`: %d of %d launches differ%s%s; first: %s" % (pn, t, k, d, n, ulp_note(fd), nf,
                                                                       json.dumps(fd))
              for pn, t, k, d, n, fd, nf in differ] or ["none"]
    if contraction:
        lists += ["", "### Kernels that differ only in contraction (%d; counted as checked, not as differing)" %
                  len(contraction), "",
                  "Their launches differ in the default build, and every launch agrees when the same -check build "
                  "(the original beside the coarsened kernel) is compiled with -fmad=false: the two kernels differ "
                  "only in where nvcc fused a multiply into an add.", ""]
        lists += ["- %s %s `%s`: %d of %d launches differ by default; built with -fmad=false, %d launches, all "
                  "agree" % x for x in contraction]
    if explained:
        lists += ["", "### Kernels whose original's result depends on the schedule or is undefined (%d; those "
                  "launches not compared)" % len(explained), "",
                  "Read from each program's source (test/corpus/oracle-known.json): the original itself computes "
                  "another result when its threads run in another order, or reads what nothing defined.", ""]
        lists += ["- %s %s `%s`: %d of %d launches differ; %s, %s: %s" % x for x in explained]
    if rounding:
        lists += ["", "### Kernels the same only within the ULP tolerance (%d; counted as checked, not as differing)"
                  % len(rounding), ""]
        lists += ["- %s %s `%s`: %d of %d launches, at most %d ULP apart" % x for x in rounding]
    if nondet:
        lists += ["", "### Kernels whose original is nondeterministic (%d; those launches not compared)" % len(nondet),
                  ""]
        lists += ["- %s %s `%s`: %d of %d launches" % x for x in nondet]
    lists += ["", "### CUDA faults during a checked launch (%d kernels)" % len(faults), ""]
    lists += ["- %s %s `%s`: %s" % (pn, t, k, "; ".join(x or "" for x in f)) for pn, t, k, f in faults] or ["none"]
    if orig_faults:
        lists += ["", "### Faults of the original kernel during a checked launch (%d kernels; the coarsened kernel "
                  "had not run, not counted as faults)" % len(orig_faults), ""]
        lists += ["- %s %s `%s`: %s" % (pn, t, k, "; ".join(x or "" for x in f)) for pn, t, k, f in orig_faults]
    lists += ["", "### Variant runs that crashed or timed out where the original passed (%d)" % len(crashes), ""]
    lists += ["- %s %s: %s %s" % c for c in crashes] or ["none"]
    lists += ["", "### nvcc rejects of a coarsened file (%d)" % len(rejects), ""]
    lists += ["- %s %s: %s" % (pn, t, e[:200]) for pn, t, e in rejects] or ["none"]
    lists += ["", "### Coarsened kernels never launched by the run (%d; the run line does not reach them, or the "
              "run ended first: the build's verdict is shown)" % len(never_launched), ""]
    lists += ["- %s %s `%s` (run: %s)" % x for x in never_launched] or ["none"]
    lists += ["", "### Coarsened kernels launched but never checkable (%d)" % len(never_checked), ""]
    lists += ["- %s %s `%s`: %s" % (pn, t, k, "; ".join(r or "" for r in rs)) for pn, t, k, rs in never_checked] \
        or ["none"]
    lists += ["", "### Programs whose original did not pass on the GPU (%d)" % len(orig_bad), ""]
    lists += ["- %s: %s %s" % (pn, v, e[:150]) for pn, v, e in orig_bad] or ["none"]
    skipped = [p for p in m.values() if p.get("skip")]
    full = ["# Real-code oracle: per program and kernel", "", summary, ""] + out + lists
    with open(os.path.join(a.pack, "report.md"), "w") as fh:
        fh.write("\n".join(full) + "\n")
    print("\n".join(lists))
    print("full table: %s" % os.path.join(a.pack, "report.md"))
    print(summary)
    if a.append:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                                universal_newlines=True).stdout.strip()
        sec = ["", "## %s, tfuse %s, %s" % (time.strftime("%Y-%m-%d"), commit, ", ".join(gpus)), "",
               "Manifest: %d programs, %d skipped (reasons in oracle-manifest.json), %d packed; %d ran on the GPU."
               % (len(m), len(skipped), len(decisions), len(progs)), "", "Commands:", ""]
        sec += ["    " + c for c in (a.commands or "").split("\n") if c.strip()] + ["", summary, ""] + lists[1:]
        with open(a.append, "a") as fh:
            fh.write("\n".join(sec) + "\n")
        print("appended to %s" % a.append)
    return 0


CHECK_HEADER = re.compile(rb"^#ifndef TFUSE_CHECK_H\n.*?^#endif /\* TFUSE_CHECK_H \*/\n", re.M | re.S)


def without_check_header(data):
    """A file's bytes without the check runtime's header that -check embeds: a change of the runtime alone (its
    comparisons, its categories) leaves a build whose launches were all identical identical."""
    return CHECK_HEADER.sub(b"", data)


def pack_digests(path):
    """{(program, build): digest of the files the build is made from} for a pack (its pack.tar.xz, or a folder
    holding it): an original is its root folder, a variant its root folder and its own files laid over it; and
    the digest of the pack's check runtime."""
    import hashlib
    tar = os.path.join(path, "pack.tar.xz") if os.path.isdir(path) else path
    files = {}
    with tarfile.open(tar) as t:
        for mem in t:
            if not mem.isfile():
                continue
            parts = mem.name.split("/")
            if len(parts) >= 4 and parts[1] == "progs":
                key = (parts[2], parts[3])
            elif len(parts) >= 3 and parts[1] == "runtime":
                key = ("", "runtime")
            else:
                continue
            h = hashlib.sha256(without_check_header(t.extractfile(mem).read())).hexdigest()
            files.setdefault(key, []).append("%s %s" % ("/".join(parts[4:] if key[0] else parts[2:]), h))
    part = {k: hashlib.sha256("\n".join(sorted(v)).encode()).hexdigest() for k, v in files.items()}
    out = {}
    for (prog, build), d in part.items():
        if prog and build != "root":
            out[(prog, build)] = d + part.get((prog, "root"), "")
    for (prog, build) in list(part):
        if prog and build == "root":
            out[(prog, "original")] = part[(prog, build)]
    return out, part.get(("", "runtime"))


def cmd_carry(a):
    """Result records of an earlier pack that stand for a new one: the same files for the build (the embedded
    check header aside) and no launch that differed or faulted, but in kernels whose original varies by itself
    (oracle-known.json: run again, the same files would say nothing new); the others run again, as do builds
    whose files changed and new ones."""
    old, old_rt = pack_digests(a.old)
    new, new_rt = pack_digests(a.new)
    res = read_results(a.results)
    known = read_known(a.known)
    carried = changed = again = nofma = 0
    with open(a.out + ".tmp", "w") as fh:
        for (prog, build), r in sorted(res.items()):
            base = build[:-len(NOFMA)] if build.endswith(NOFMA) else build
            if (prog, base) not in new or old.get((prog, base)) != new[(prog, base)]:
                if base != build:
                    continue
                changed += 1
                continue
            if base != build:  # a -fmad=false recheck of the same files stands as it is
                fh.write(json.dumps(dict(r, carried_from=a.old), sort_keys=True) + "\n")
                nofma += 1
                continue
            bad = any((v.get("differs") and (prog, k) not in known) or (v.get("fault") and not original_fault(v))
                      for k, v in r.get("launches", {}).items())
            if bad or r.get("status") not in ("ran", "build-failed"):
                again += 1
                continue
            fh.write(json.dumps(dict(r, carried_from=a.old), sort_keys=True) + "\n")
            carried += 1
    os.replace(a.out + ".tmp", a.out)
    print("carry: %d builds in the new pack, %d results carried (same files, nothing differed), %d whose files "
          "changed, %d run again (a launch differed or faulted outside oracle-known.json)%s; check runtime %s" % (
              len(new), carried, changed, again,
              ", %d -fmad=false rechecks of the same files" % nofma if nofma else "",
              "the same" if old_rt == new_rt else "changed"))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("manifest")
    m.add_argument("--mirrors", default="/work/.mirror")
    m.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "oracle"))
    m.add_argument("--out", default=os.path.join(HERE, "oracle-manifest.json"))
    for name in ("cpu", "pack"):
        c = sub.add_parser(name)
        c.add_argument("--manifest", default=os.path.join(HERE, "oracle-manifest.json"))
        c.add_argument("--mirrors", default="/work/.mirror")
        c.add_argument("--work", default=os.path.join(ROOT, "corpus-work", "oracle"))
        c.add_argument("--pack", default=os.path.join(ROOT, "corpus-work", "oracle-pack"))
        c.add_argument("--only", help="comma-separated program names")
        if name == "cpu":
            c.add_argument("--tfuse", default=os.path.join(ROOT, "build", "bin", "tfuse"))
            c.add_argument("-j", type=int, default=2)
            c.add_argument("--variants", default=",".join(vtag(*v) for v in VARIANTS),
                           help="e.g. block2,block8,thread2,block4")
    r = sub.add_parser("report")
    r.add_argument("--known", default=KNOWN, help="kernels whose original varies by itself, with the source line "
                   "that shows it (default: %(default)s; '' for none)")
    r.add_argument("--manifest", default=os.path.join(HERE, "oracle-manifest.json"))
    r.add_argument("--pack", default=os.path.join(ROOT, "corpus-work", "oracle-pack"))
    r.add_argument("--results", nargs="+", required=True, help="the GPU stage's result files, or folders of them")
    r.add_argument("--append", help="append a results section to this file (test/corpus/oracle-results.md)")
    r.add_argument("--commands", help="the commands of the sweep, for the appended section (lines)")
    c = sub.add_parser("carry")
    c.add_argument("--old", required=True, help="the earlier pack (its folder or pack.tar.xz)")
    c.add_argument("--new", required=True, help="the new pack (its folder or pack.tar.xz)")
    c.add_argument("--results", nargs="+", required=True, help="the earlier pack's result files, or folders of them")
    c.add_argument("--out", required=True, help="the carried records (a .jsonl file for --done and report)")
    c.add_argument("--known", default=KNOWN, help="kernels whose original varies by itself (default: %(default)s)")
    a = ap.parse_args()
    return {"manifest": cmd_manifest, "cpu": cmd_cpu, "pack": cmd_pack, "report": cmd_report,
            "carry": cmd_carry}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
