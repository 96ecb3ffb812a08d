#!/usr/bin/env python3
"""Random CUDA program generator for differential testing of tfuse.

    python3 test/fuzz/gen.py --seed S [--kernels N] [--profile NAME]
                             [--set key=value ...] -o FILE.cu

Writes one self-contained CUDA program, a pure function of the options
(random.Random(seed); the global RNG is never used).  The program follows
the contract of test/fuzz/README.md: every kernel under test follows a
`#pragma tfuse coarsen` line (with an optional `// tfuse-expect:` line
before it), main() draws its inputs from its own LCG, poisons the outputs,
launches every kernel several times, and prints one `hash LABEL HEX16` line
per output buffer (FNV-1a 64), or `cuda-error WHERE MSG` and exits 3.

Kernels are race-free and free of UB by construction:
  - every thread stores only to its own output element (or uses integer
    atomics, whose final values do not depend on the order);
  - integer arithmetic is unsigned (wraps), divisors are `| 1u`, shift
    counts are masked; floats use only +, -, * and exact conversions, so
    `-fmad=false` makes them bitwise deterministic;
  - shared arrays are used in phases: write, __syncthreads(), read,
    __syncthreads() before the next write;
  - every __syncthreads() is reached by the whole block.

The first line of the program is a machine-readable header that
campaign.py reads:
  // tfuse-fuzz: seed=S profile=P dims=D kernels=N thread-k=x:2,3,4,8;y:...;z:...
`thread-k` lists, per dimension, the factors that divide the block extent
of every launch in the program (thread mode along that dimension with
another factor stops at run time with tfuse's divisibility message).
"""

import argparse
import random
import sys

# Tunable probabilities and sizes; override with --set key=value.
PROBS = {
    # kernel kinds (relative weights)
    "w_elementwise": 5.0,
    "w_gridstride": 2.0,
    "w_stencil": 2.0,
    "w_reduce": 1.5,
    "w_histogram": 1.5,
    "w_atomics": 1.5,
    "w_template": 1.5,
    "w_struct": 1.0,
    "w_dynshared": 0.6,
    "w_shuffle": 0.6,
    "w_barrier_block": 0.4,
    "w_barrier_thread": 0.4,
    "w_barrier_both": 0.2,
    "w_uniform_switch": 0.4,
    # kinds that reach the coordinates and shared memory indirectly (profile `reach`)
    "w_defargs": 0.0,
    "w_asm": 0.0,
    "w_smemstruct": 0.0,
    "w_helpershared": 0.0,
    "w_warp": 0.0,
    "w_localmem": 0.0,
    # kinds of profile `modern`: cooperative groups, warp-level code, barriers
    # with a predicate, lambdas, function-pointer and dependent-member templates
    "w_cgmix": 0.0,
    "w_cgblock": 0.0,
    "w_cgtile": 0.0,
    "w_cgrow": 0.0,
    "w_warpx": 0.0,
    "w_syncpred": 0.0,
    "w_lambda": 0.0,
    "w_blockreduce": 0.0,
    "w_tmember": 0.0,
    # profile `coalesced`: coalesced groups after returns only some threads take
    "w_cgcoal": 0.0,
    # program shape
    "p_dims1": 0.45,
    "p_dims2": 0.35,  # the rest: 3-D
    "p_other_block": 0.08,  # a launch uses a block other than the program's own
    "p_odd_block": 0.15,  # the program's own block is not divisible by 24
    "max_launches": 3,
    "p_host_loop": 0.3,
    "p_stream": 0.3,
    "p_dim3_var": 0.5,
    "p_exact_domain": 0.3,  # domain exactly covers the grid (no tail)
    "p_m_zero": 0.1,  # a launch passes m = 0 (uniform early return)
    # statements in elementwise bodies
    "stmts_min": 3,
    "stmts_max": 7,
    "pad_helpers": 0,  # unused __device__ helpers, structs and templates before the kernels (input size)
    "max_depth": 2,
    "p_if": 0.25,
    "p_else": 0.5,
    "p_uniform_cond": 0.4,
    "p_loop": 0.2,
    "p_uniform_loop": 0.5,
    "p_while": 0.2,
    "p_switch": 0.1,
    "p_local_array": 0.3,
    "p_helper": 0.3,
    "p_float": 0.4,
    "p_early_return": 0.15,
    "p_bounds_return": 0.6,  # `if (outside) return;` instead of wrapping in if
    "p_devglobal": 0.3,
    "p_ternary": 0.15,
    "p_break": 0.3,
    "p_continue": 0.3,
    "p_owner_index": 0.5,
    "p_brace_init": 0.3,  # struct local initialized with braces (guarded per element)  # stencil: tile indexed by threadIdx (promotion)
}

PROFILES = {
    "default": {},
    "small": {"stmts_max": 4, "max_launches": 2},
    "refuse": {"w_dynshared": 2.0, "w_shuffle": 2.0, "w_barrier_block": 2.0,
               "w_barrier_thread": 2.0, "w_barrier_both": 1.0, "w_uniform_switch": 1.0},
    "shared": {"w_stencil": 5.0, "w_reduce": 4.0, "w_histogram": 4.0, "w_elementwise": 1.0},
    "control": {"p_if": 0.45, "p_loop": 0.35, "p_switch": 0.25, "p_early_return": 0.3,
                "max_depth": 3, "stmts_max": 9},
    # Files the size of real ones with heavy headers: thousands of symbols
    # that every table of the parser must hold.
    "large": {"pad_helpers": 6000},
    # Coordinates and shared memory reached indirectly: default arguments,
    # inline PTX, SharedMemory<T>, helpers' static shared arrays, warp
    # reductions.  Shared arrays are at most 3 KiB, so that K = 16 replicas
    # fit the 48 KiB a block may hold.
    "reach": {"w_defargs": 3.0, "w_asm": 2.5, "w_smemstruct": 2.0, "w_helpershared": 1.5, "w_warp": 3.0,
              "w_elementwise": 1.0, "w_gridstride": 0.5, "w_atomics": 0.5, "w_template": 0.3, "w_struct": 0.3,
              "w_stencil": 0.0, "w_reduce": 0.0, "w_histogram": 0.0, "w_dynshared": 0.0, "w_shuffle": 0.0,
              "w_barrier_block": 0.0, "w_barrier_thread": 0.0, "w_barrier_both": 0.0, "w_uniform_switch": 0.0},
    # Code as written today: cooperative groups (the block, tiles of 4 to 32
    # threads, their collectives, cg::reduce and the scans, a tile per row),
    # warp intrinsics, __syncthreads_count/and/or, lambdas, a block reduction
    # templated on a function pointer, member calls on a template parameter,
    # mixed with the plain statements; blocks of whole warps, x mostly a
    # multiple of 32 * K for thread mode's factors.
    "modern": {"w_cgmix": 4.0, "w_cgblock": 1.0, "w_cgtile": 1.5, "w_cgrow": 2.0, "w_warpx": 1.0,
               "w_syncpred": 1.0, "w_lambda": 1.0, "w_blockreduce": 1.5, "w_tmember": 1.0, "w_warp": 0.5,
               "w_dynshared": 0.6, "w_smemstruct": 0.6, "w_elementwise": 0.5, "w_gridstride": 0.3,
               "w_atomics": 0.3, "w_stencil": 0.0, "w_reduce": 0.0, "w_histogram": 0.0, "w_template": 0.0,
               "w_struct": 0.0, "w_shuffle": 0.0, "w_barrier_block": 0.0, "w_barrier_thread": 0.0,
               "w_barrier_both": 0.0, "w_uniform_switch": 0.0},
    # Coalesced groups (`cg::coalesced_threads()`, their queries and
    # collectives) after a return that only some threads take, which block
    # mode writes out per logical block (fuse.c emit_copy_tail); the other
    # kinds of `modern` around them.  Draws of `modern` stay as they were.
    # Locals written through pointers made from them: rows of 2-D and 3-D
    # arrays cast to vector types, element addresses, pointer locals,
    # arithmetic on the flattened array, helpers taking a row.
    "memory": {"w_localmem": 4.0, "w_elementwise": 1.0, "w_atomics": 0.3, "w_stencil": 0.3, "w_reduce": 0.0,
               "w_histogram": 0.0, "w_shuffle": 0.0, "w_barrier_block": 0.0, "w_barrier_thread": 0.0,
               "w_barrier_both": 0.0, "w_uniform_switch": 0.0},
    "coalesced": {"w_cgcoal": 4.0, "w_cgtile": 1.5, "w_warpx": 0.5, "w_elementwise": 0.5, "w_gridstride": 0.0,
                  "w_stencil": 0.0, "w_reduce": 0.0, "w_histogram": 0.0, "w_atomics": 0.0, "w_template": 0.0,
                  "w_struct": 0.0, "w_dynshared": 0.0, "w_shuffle": 0.0, "w_barrier_block": 0.0,
                  "w_barrier_thread": 0.0, "w_barrier_both": 0.0, "w_uniform_switch": 0.0},
}

# Factors tried in thread mode (the header's thread-k lists those that divide
# every launch's block), per profile.
THREAD_FACTORS = {"reach": (2, 3, 4, 8, 16), "modern": (2, 3, 4, 8), "coalesced": (2, 3, 4, 8)}

DIMS = "xyz"
REACH_KINDS = ("defargs", "asm", "smemstruct", "helpershared", "warp", "localmem")
MODERN_KINDS = ("cgmix", "cgblock", "cgtile", "cgrow", "warpx", "syncpred", "lambda", "blockreduce", "tmember",
                "cgcoal")
MODERN_PROFILES = ("modern", "coalesced")  # blocks of whole warps, cooperative groups' headers
NIN = 4096  # elements of each input array
BINS_CHOICES = [8, 16, 32, 37, 64]


def pick_weighted(rng, items):
    total = sum(w for _, w in items)
    r = rng.random() * total
    for item, w in items:
        r -= w
        if r < 0:
            return item
    return items[-1][0]


class Launch:
    def __init__(self, grid, block):
        self.grid = grid  # tuple of 3
        self.block = block


class Kernel:
    """One generated kernel: its source, expectation, and host code."""

    def __init__(self, name, kind):
        self.name = name
        self.kind = kind
        self.expect = "accept"
        self.src = []  # kernel text lines (pragma and expect line included)
        self.outputs = []  # (host var, device var, ctype, count, label)
        self.devglobals = []  # (symbol, ctype, count)
        self.host = []  # host statements (launches)
        self.blocks = []  # block shapes launched (for thread-k)


class Gen:
    def __init__(self, seed, nkernels, profile, overrides):
        self.seed = seed
        self.rng = random.Random(seed)
        self.p = dict(PROBS)
        self.p.update(PROFILES[profile])
        self.p.update(overrides)
        self.profile = profile
        r = self.rng
        if nkernels is None:
            nkernels = r.randint(4, 8)
        self.nkernels = nkernels
        u = r.random()
        self.dims = 1 if u < self.p["p_dims1"] else 2 if u < self.p["p_dims1"] + self.p["p_dims2"] else 3
        self.base_block = self.random_block(odd=r.random() < self.p["p_odd_block"])
        self.helpers = []  # helper function sources, by name
        self.helper_names = set()
        self.structs = set()
        self.kernels = []
        self.devglobal_src = []
        self.uid = 0

    # ---- shapes ---------------------------------------------------------
    def random_block(self, odd=False):
        r = self.rng
        if self.profile in MODERN_PROFILES:
            return self.modern_block(odd)
        if self.dims == 1:
            good = [24, 48, 72, 96, 120, 144, 192, 240, 288, 384]
            bad = [20, 32, 36, 40, 64, 100, 128, 56]
            return (r.choice(bad if odd else good), 1, 1)
        if self.dims == 2:
            good = [(24, 24), (24, 8), (48, 8), (24, 16), (48, 16), (96, 8), (8, 24), (16, 24), (24, 12),
                    (48, 12)]
            bad = [(32, 8), (16, 16), (20, 6), (12, 10), (64, 4), (36, 4), (40, 3)]
            x, y = r.choice(bad if odd else good)
            return (x, y, 1)
        good = [(24, 8, 4), (8, 8, 8), (24, 4, 8), (8, 4, 24), (4, 24, 8), (24, 2, 8), (8, 24, 2),
                (48, 2, 8), (16, 8, 8), (24, 8, 2)]
        bad = [(12, 6, 6), (6, 6, 24), (10, 4, 4), (32, 4, 2), (5, 8, 8), (12, 12, 3)]
        return r.choice(bad if odd else good)

    def launch_block(self):
        if self.rng.random() < self.p["p_other_block"]:
            return self.random_block(odd=self.rng.random() < 0.3)
        return self.base_block

    def launch_grid(self):
        r = self.rng
        g = [r.choice([1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 16, 17])]
        if self.dims >= 2:
            g.append(r.choice([1, 2, 3, 4, 5, 7, 9]))
        else:
            g.append(1)
        if self.dims >= 3:
            g.append(r.choice([1, 2, 3, 5, 6]))
        else:
            g.append(1)
        return tuple(g)

    def fresh(self, stem):
        self.uid += 1
        return "%s%d" % (stem, self.uid)

    # ---- expressions (unsigned int) ----------------------------------------
    def leaf(self, ctx, uniform):
        r = self.rng
        pool = [v for v, vary in ctx["vars"] if (not vary or not uniform)]
        c = r.random()
        if pool and c < 0.55:
            return r.choice(pool)
        if c < 0.7:
            return "%du" % r.choice([1, 2, 3, 5, 7, 13, 31, 255, 1021, 40503, 2654435761])
        if c < 0.8:
            return r.choice(["m", "s"] if ctx.get("has_ms", True) else ["3u"])
        d = DIMS[r.randrange(self.dims)]
        if uniform:
            return r.choice(["blockDim.%s" % d, "gridDim.%s" % d])
        return r.choice(["threadIdx.%s" % d, "blockIdx.%s" % d, "blockDim.%s" % d, "gridDim.%s" % d])

    def expr(self, ctx, depth=2, uniform=False):
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(ctx, uniform)
        c = r.random()
        a = self.expr(ctx, depth - 1, uniform)
        if c < 0.5:
            op = r.choice(["+", "-", "*", "^", "|", "&", "+", "^"])
            return "(%s %s %s)" % (a, op, self.expr(ctx, depth - 1, uniform))
        if c < 0.6:
            return "(%s %s %du)" % (a, r.choice(["<<", ">>"]), r.randrange(1, 9))
        if c < 0.68:
            return "(%s %s (%s | 1u))" % (a, r.choice(["/", "%"]), self.expr(ctx, depth - 1, uniform))
        if c < 0.68 + self.p["p_ternary"]:
            return "(%s ? %s : %s)" % (self.cond(ctx, uniform), a, self.expr(ctx, depth - 1, uniform))
        if not uniform and ctx.get("in") and c < 0.93:
            return "%s[(%s) %% (unsigned int)nin]" % (ctx["in"], a)
        if ctx.get("helpers", True) and r.random() < self.p["p_helper"]:
            return "%s(%s, %s)" % (self.helper_value(), a, self.expr(ctx, depth - 1, uniform))
        return "(%s * %du)" % (a, r.choice([3, 5, 9, 33, 65599]))

    def cond(self, ctx, uniform=False):
        r = self.rng
        a = self.expr(ctx, 1, uniform)
        c = r.random()
        if c < 0.35:
            return "((%s & %du) == 0u)" % (a, r.choice([1, 2, 3, 4, 7]))
        if c < 0.7:
            return "(%s < %s)" % (a, self.expr(ctx, 1, uniform))
        if c < 0.85:
            return "(%s %% %du != 0u)" % (a, r.choice([3, 5, 6]))
        return "(%s > %du)" % (a, r.choice([100, 1000, 70000, 2147483648]))

    # ---- helpers --------------------------------------------------------
    def helper_value(self):
        name = "h_mix"
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(
                "__device__ unsigned int h_mix(unsigned int a, unsigned int b) {\n"
                "  unsigned int h = a * 2654435761u;\n"
                "  h ^= (b << 7) | (b >> 25);\n"
                "  return h + (a >> 3);\n"
                "}\n")
        return name

    def helper_ref(self):
        name = "h_accum"
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(
                "__device__ void h_accum(unsigned int &acc, unsigned int v) {\n"
                "  acc = acc * 31u + v;\n"
                "  if (v & 1u)\n"
                "    acc ^= 0x9e3779b9u;\n"
                "}\n")
        return name

    def helper_ptr(self):
        name = "h_store2"
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(
                "__device__ void h_store2(unsigned int *p, unsigned int a, unsigned int b) {\n"
                "  p[0] = a + b;\n"
                "  p[1] = a ^ b;\n"
                "}\n")
        return name

    def helper_loop(self):
        name = "h_steps"
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(
                "__device__ unsigned int h_steps(unsigned int x, int n) {\n"
                "  for (int k = 0; k < n; ++k) {\n"
                "    if (x & 1u)\n"
                "      x = 3u * x + 1u;\n"
                "    else\n"
                "      x >>= 1;\n"
                "  }\n"
                "  return x;\n"
                "}\n")
        return name

    # ---- statements -----------------------------------------------------
    def stmts(self, ctx, n, depth, ind):
        out = []
        saved = list(ctx["vars"])
        for _ in range(n):
            out += self.stmt(ctx, depth, ind)
        ctx["vars"] = saved
        return out

    def assignable(self, ctx):
        return [v for v, _ in ctx["vars"] if v in ctx["locals"]]

    def stmt(self, ctx, depth, ind):
        r = self.rng
        p = self.p
        sp = "  " * ind
        c = r.random()
        lv = self.assignable(ctx)
        if depth < p["max_depth"]:
            if c < p["p_if"]:
                return self.if_stmt(ctx, depth, ind)
            c -= p["p_if"]
            if c < p["p_loop"]:
                return self.loop_stmt(ctx, depth, ind)
            c -= p["p_loop"]
            if c < p["p_switch"] and ctx.get("gid"):
                return self.switch_stmt(ctx, depth, ind)
            c -= p["p_switch"]
        if ctx["loop"] and r.random() < 0.15:
            kw = "break" if r.random() < p["p_break"] / (p["p_break"] + p["p_continue"]) else "continue"
            return ["%sif %s" % (sp, self.cond(ctx)), "%s  %s;" % (sp, kw)]
        if ctx.get("can_return") and r.random() < p["p_early_return"] / 3:
            # a varying early return that still writes this thread's element
            return ["%sif %s {" % (sp, self.cond(ctx)),
                    "%s  out[i] = %s;" % (sp, self.expr(ctx, 1)),
                    "%s  return;" % sp,
                    "%s}" % sp]
        c = r.random()
        if c < 0.35 or not lv:
            v = self.fresh("v")
            line = "%sunsigned int %s = %s;" % (sp, v, self.expr(ctx))
            ctx["vars"].append((v, True))
            ctx["locals"].add(v)
            return [line]
        if c < 0.7:
            op = r.choice(["=", "+=", "^=", "*=", "|=", "-="])
            return ["%s%s %s %s;" % (sp, r.choice(lv), op, self.expr(ctx))]
        if c < 0.8:
            return ["%s%s(%s, %s);" % (sp, self.helper_ref(), r.choice(lv), self.expr(ctx, 1))]
        if c < 0.88 and ctx.get("float"):
            f = ctx["float"]
            e = r.choice(["%s * 0.5f" % f, "%s + (float)(%s & 1023u)" % (f, self.expr(ctx, 1)),
                          "%s - 1.25f" % f, "%s * %s" % (f, f),
                          "(%s ? %s * 2.0f : %s + 0.75f)" % (self.cond(ctx), f, f),
                          "%s + fin[(%s) %% (unsigned int)nin]" % (f, self.expr(ctx, 1))])
            return ["%s%s = %s;" % (sp, f, e)]
        if c < 0.94:
            v = r.choice(lv)
            return ["%s%s = %s(%s, (int)(%s & 7u));" % (sp, v, self.helper_loop(), v, self.expr(ctx, 1))]
        return ["%s%s++;" % (sp, r.choice(lv))]

    def if_stmt(self, ctx, depth, ind):
        r = self.rng
        sp = "  " * ind
        uniform = r.random() < self.p["p_uniform_cond"]
        lines = ["%sif %s {" % (sp, self.cond(ctx, uniform))]
        lines += self.stmts(ctx, r.randint(1, 3), depth + 1, ind + 1)
        if r.random() < self.p["p_else"]:
            lines.append("%s} else {" % sp)
            lines += self.stmts(ctx, r.randint(1, 2), depth + 1, ind + 1)
        lines.append("%s}" % sp)
        return lines

    def loop_stmt(self, ctx, depth, ind):
        r = self.rng
        sp = "  " * ind
        j = self.fresh("j")
        uniform = r.random() < self.p["p_uniform_loop"]
        saved_loop = ctx["loop"]
        ctx["loop"] = True
        saved = list(ctx["vars"])
        if r.random() < self.p["p_while"]:
            lines = ["%sint %s = 0;" % (sp, j)]
            if uniform:
                lines.append("%swhile (%s < (int)(m & 7u)) {" % (sp, j))
            else:
                lines.append("%swhile (%s < (int)(%s %% 6u)) {" % (sp, j, self.expr(ctx, 1)))
            lines.append("%s  ++%s;" % (sp, j))
            ctx["vars"].append(("(unsigned int)%s" % j, not uniform))
            lines += self.stmts(ctx, r.randint(1, 3), depth + 1, ind + 1)
            lines.append("%s}" % sp)
        else:
            if uniform:
                bound = r.choice(["(int)(m & 7u)", "%d" % r.randint(1, 6), "(int)(blockDim.x & 3u) + 1"])
            else:
                bound = "(int)(%s %% 5u)" % self.expr(ctx, 1)
            lines = ["%sfor (int %s = 0; %s < %s; ++%s) {" % (sp, j, j, bound, j)]
            ctx["vars"].append(("(unsigned int)%s" % j, not uniform))
            lines += self.stmts(ctx, r.randint(1, 3), depth + 1, ind + 1)
            lines.append("%s}" % sp)
        ctx["vars"] = saved
        ctx["loop"] = saved_loop
        return lines

    def switch_stmt(self, ctx, depth, ind):
        r = self.rng
        sp = "  " * ind
        # The selector mixes in gid, the global thread id over all three
        # dimensions, so it differs between the copies in every variant: a
        # switch on a uniform value with per-copy cases is a documented refusal.
        lines = ["%sswitch ((%s + (unsigned int)gid) %% 4u) {" % (sp, self.expr(ctx, 1))]
        saved_loop = ctx["loop"]
        ctx["loop"] = False  # break inside a switch leaves the switch
        for case in ["case 0:", "case 1:", "case 2:", "default:"]:
            lines.append("%s%s {" % (sp, case))
            lines += self.stmts(ctx, r.randint(0, 2), depth + 1, ind + 1)
            if case == "case 1:" and r.random() < 0.4:
                lines.append("%s}" % sp)
                lines.append("%s  /* fall through */" % sp)
            else:
                lines.append("%s  break;" % sp)
                lines.append("%s}" % sp)
        lines.append("%s}" % sp)
        ctx["loop"] = saved_loop
        return lines

    # ---- common kernel pieces -------------------------------------------
    def coord_lines(self, ind=1):
        """Global coordinates gx, gy, gz, and i, the linear index."""
        sp = "  " * ind
        lines = []
        for d in DIMS[:self.dims]:
            lines.append("%sint g%s = blockIdx.%s * blockDim.%s + threadIdx.%s;" % (sp, d, d, d, d))
        if self.dims == 1:
            lines.append("%sint i = gx;" % sp)
            inside = "gx < nx"
        elif self.dims == 2:
            lines.append("%sint i = gy * nx + gx;" % sp)
            inside = "gx < nx && gy < ny"
        else:
            lines.append("%sint i = (gz * ny + gy) * nx + gx;" % sp)
            inside = "gx < nx && gy < ny && gz < nz"
        return lines, inside

    def linear_thread(self):
        if self.dims == 1:
            return "int t = threadIdx.x;", "int nt = blockDim.x;"
        if self.dims == 2:
            return "int t = threadIdx.y * blockDim.x + threadIdx.x;", "int nt = blockDim.x * blockDim.y;"
        return ("int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;",
                "int nt = blockDim.x * blockDim.y * blockDim.z;")

    def linear_block(self):
        if self.dims == 1:
            return "blockIdx.x"
        if self.dims == 2:
            return "(blockIdx.y * gridDim.x + blockIdx.x)"
        return "((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x)"

    def extent_params(self):
        return ", ".join("int n%s" % d for d in DIMS[:self.dims])

    def new_ctx(self, uin="in"):
        return {"vars": [("s", False), ("m", False)], "locals": set(), "loop": False, "in": uin,
                "can_return": False, "float": None}

    def header(self, k, params, template=None):
        lines = []
        if k.expect != "accept":
            lines.append("// tfuse-expect: %s" % k.expect)
        lines.append("#pragma tfuse coarsen")
        if template:
            lines.append(template)
        lines.append("__global__ void %s(%s) {" % (k.name, params))
        return lines

    def whole_warps(self, block):
        """block, or a block of whole warps: warp-wide calls need every lane."""
        if (block[0] * block[1] * block[2]) % 32 == 0:
            return block
        return {1: (96, 1, 1), 2: (24, 8, 1), 3: (8, 8, 8)}[self.dims]

    # ---- host launches ----------------------------------------------------
    def domain_for(self, grid, block):
        """Logical extents (nx, ny, nz) for a launch: the grid's coverage or less."""
        r = self.rng
        ext = []
        for d in range(self.dims):
            cover = grid[d] * block[d]
            if r.random() < self.p["p_exact_domain"]:
                ext.append(cover)
            else:
                ext.append(max(1, cover - r.randrange(0, block[d] + 1)))
        return ext

    def emit_launches(self, k, make_args, outputs_per_launch, shmem=None, block_filter=None,
                      template_args=""):
        """Appends launches of k to k.host.  make_args(launch_no, domain, off) -> argument text.
        outputs_per_launch(domain, grid) -> elements each launch writes in its region (0: shared
        accumulator).  Returns the total number of elements of the output buffer."""
        r = self.rng
        nl = r.randint(1, self.p["max_launches"])
        total = 0
        host = k.host
        for ln in range(nl):
            block = self.launch_block()
            if block_filter:
                block = block_filter(block)
            grid = self.launch_grid()
            dom = self.domain_for(grid, block)
            k.blocks.append(block)
            gtxt = self.dim3_text(grid)
            btxt = self.dim3_text(block)
            sh = ""
            if shmem:
                sh = ", %s" % shmem(block)
            elif r.random() < self.p["p_stream"]:
                sh = ", 0, stream"
            loop = r.random() < self.p["p_host_loop"]
            reps = r.randint(2, 3) if loop else 1
            per = outputs_per_launch(dom, grid, block)
            name = k.name + template_args
            if r.random() < self.p["p_dim3_var"] and self.dims > 1 or r.random() < 0.3:
                gv, bv = self.fresh("grid"), self.fresh("block")
                host.append("  {")
                host.append("    dim3 %s%s;" % (gv, self.dim3_ctor(grid)))
                host.append("    dim3 %s%s;" % (bv, self.dim3_ctor(block)))
                g_use, b_use, ind = gv, bv, "    "
            else:
                host.append("  {")
                g_use, b_use, ind = gtxt, btxt, "    "
            if loop:
                host.append("%sfor (int rep = 0; rep < %d; ++rep) {" % (ind, reps))
                args = make_args(ln, dom, "%d + rep * %d" % (total, per) if per else "0", "rep")
                host.append("%s  %s<<<%s, %s%s>>>(%s);" % (ind, name, g_use, b_use, sh, args))
                host.append("%s  CK(cudaGetLastError(), \"launch-%s-%d\");" % (ind, k.name, ln))
                host.append("%s}" % ind)
            else:
                args = make_args(ln, dom, "%d" % total if per else "0", "%du" % r.randrange(0, 4))
                host.append("%s%s<<<%s, %s%s>>>(%s);" % (ind, name, g_use, b_use, sh, args))
                host.append("%sCK(cudaGetLastError(), \"launch-%s-%d\");" % (ind, k.name, ln))
            host.append("  }")
            total += per * reps
        return max(total, 1)

    def dim3_text(self, v):
        if self.dims == 1 and self.rng.random() < 0.5:
            return "%d" % v[0]
        if self.dims <= 2 and v[2] == 1:
            return "dim3(%d, %d)" % (v[0], v[1])
        return "dim3(%d, %d, %d)" % v

    def dim3_ctor(self, v):
        if self.dims == 1:
            return "(%d)" % v[0]
        if self.dims == 2:
            return "(%d, %d)" % (v[0], v[1])
        return "(%d, %d, %d)" % v

    def m_value(self):
        if self.rng.random() < self.p["p_m_zero"]:
            return "0u"
        return "%du" % self.rng.randint(1, 6)

    def add_output(self, k, label, ctype, count):
        dv = "d_%s" % label
        k.outputs.append((dv, ctype, count, label))
        return dv

    def ext_args(self, dom):
        return ", ".join(str(x) for x in dom)

    # ---- kernel kinds -------------------------------------------------------
    def k_elementwise(self, k, template=False, use_struct=False):
        r = self.rng
        p = self.p
        ctx = self.new_ctx()
        use_float = r.random() < p["p_float"]
        T = "unsigned int"
        tmpl = None
        targs = ""
        if template:
            T = r.choice(["unsigned int", "unsigned long long"])
            S = r.randint(1, 4)
            tmpl = "template <typename T, int S>"
            targs = "<%s, %d>" % (T, S)
            params = "T *out, const unsigned int *in, %s, int nin, unsigned int m, unsigned int s" % \
                self.extent_params()
        else:
            params = "unsigned int *out, %sconst unsigned int *in, const float *fin, %s, int nin, " \
                     "unsigned int m, unsigned int s" % ("float *fout, " if use_float else "",
                                                          self.extent_params())
        dg = None
        if r.random() < p["p_devglobal"]:
            dg = "g_%s" % k.name
            op = r.choice(["atomicAdd", "atomicMax", "atomicOr", "atomicXor", "atomicMin"])
            self.devglobal_src.append("__device__ unsigned int %s[4];" % dg)
            k.devglobals.append((dg, "unsigned int", 4))
        lines = []  # the header goes on last: k.expect may change
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  int gid = ((blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x) *")
        lines.append("                (blockDim.x * blockDim.y * blockDim.z) +")
        lines.append("            (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;")
        ctx["gid"] = True
        bounds_return = r.random() < p["p_bounds_return"]
        body_ind = 1
        if bounds_return:
            lines.append("  if (!(%s))" % inside)
            lines.append("    return;")
        else:
            lines.append("  if (%s) {" % inside)
            body_ind = 2
        sp = "  " * body_ind
        ctx["vars"] += [("(unsigned int)i", True), ("(unsigned int)gx", True)]
        v0 = self.fresh("v")
        lines.append("%sunsigned int %s = in[i %% nin] + %s;" % (sp, v0, self.expr(ctx, 1)))
        ctx["vars"].append((v0, True))
        ctx["locals"].add(v0)
        if use_float and not template:
            f = self.fresh("f")
            lines.append("%sfloat %s = fin[(i + 7) %% nin];" % (sp, f))
            ctx["float"] = f
        if template:
            lines.append("%sT wide = (T)%s;" % (sp, v0))
            lines.append("%sfor (int r = 0; r < S; ++r)" % sp)
            lines.append("%s  wide = wide * (T)%du + (T)in[(i + r) %% nin];" % (sp, r.choice([3, 5, 17])))
        if use_struct:
            self.structs.add("Pair")
            if r.random() < p["p_brace_init"]:
                # under a predicate fuse.c guards each element of the list
                lines.append("%sPair pa = {%s, %s};" % (sp, v0, self.expr(ctx, 1)))
            else:
                lines.append("%sPair pa;" % sp)
                lines.append("%spa.a = %s;" % (sp, v0))
                lines.append("%spa.b = %s;" % (sp, self.expr(ctx, 1)))
            lines.append("%sPair pb;" % sp)
            lines.append("%spb = pa;" % sp)
            lines.append("%spb.mix(%s);" % (sp, self.expr(ctx, 1)))
            lines.append("%sif %s" % (sp, self.cond(ctx)))
            lines.append("%s  pa.mix(pb.b);" % sp)
            ctx["vars"] += [("pa.sum()", True), ("pb.a", True)]
        arr = None
        if r.random() < p["p_local_array"]:
            arr = self.fresh("loc")
            L = r.choice([4, 8])
            lines.append("%sunsigned int %s[%d];" % (sp, arr, L))
            lines.append("%sfor (int q = 0; q < %d; ++q)" % (sp, L))
            lines.append("%s  %s[q] = in[(i * %d + q) %% nin] ^ (unsigned int)q;" % (sp, arr, L))
            ctx["vars"] += [("%s[%s %% %du]" % (arr, v0, L), True), ("%s[m & %du]" % (arr, L - 1), True)]
            if r.random() < 0.5:
                lines.append("%s%s[(i + (int)s) %% %d] += %s;" % (sp, arr, L, self.expr(ctx, 1)))
        if r.random() < 0.3:
            pp = self.fresh("pr")
            lines.append("%sunsigned int %s[2];" % (sp, pp))
            lines.append("%s%s(%s, %s, %s);" % (sp, self.helper_ptr(), pp, v0, self.expr(ctx, 1)))
            ctx["vars"] += [("%s[0]" % pp, True), ("%s[1]" % pp, True)]
        ctx["can_return"] = not template and not use_struct and dg is None
        n = r.randint(p["stmts_min"], p["stmts_max"])
        lines += self.stmts(ctx, n, 0, body_ind)
        res = " ^ ".join(self.rng.sample([v for v, _ in ctx["vars"] if v not in ("s", "m")],
                                         min(3, len(ctx["vars"]) - 2)))
        if template:
            lines.append("%sout[i] = wide + (T)(%s);" % (sp, res))
        else:
            lines.append("%sout[i] = %s;" % (sp, res))
        if use_float and not template:
            lines.append("%sfout[i] = %s;" % (sp, ctx["float"]))
        if dg:
            lines.append("%s%s(&%s[%s & 3u], %s);" % (sp, op, dg, v0, res))
        if not bounds_return:
            lines.append("  }")
        lines.append("}")
        k.src = self.header(k, params, tmpl) + lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned long long" if T == "unsigned long long" else
                            "unsigned int", 0)
        fo = self.add_output(k, "%s_fout" % k.name, "float", 0) if use_float and not template else None

        def args(ln, dom, off, mval):
            a = ["%s + %s" % (o, off)]
            if fo:
                a.append("%s + %s" % (fo, off))
            a.append("d_in")
            if not template:
                a.append("d_fin")
            a.append(self.ext_args(dom))
            a += ["%d" % NIN, self.m_value(), "%du" % r.randrange(1 << 16)]
            return ", ".join(a)

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        total = self.emit_launches(k, args, per, template_args=targs)
        self.set_count(k, total)

    def set_count(self, k, total):
        k.outputs = [(dv, ct, total if c == 0 else c, lb) for dv, ct, c, lb in k.outputs]

    def k_gridstride(self, k):
        r = self.rng
        ctx = self.new_ctx()
        lines = self.header(k, "unsigned int *out, const unsigned int *in, int n, int nin, unsigned int m, "
                               "unsigned int s")
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        lines.append("  int stride = nt * %s;" % " * ".join("gridDim.%s" % d for d in DIMS[:self.dims]))
        lines.append("  int first = %s * nt + t;" % self.linear_block())
        lines.append("  for (int i = first; i < n; i += stride) {")
        ctx["vars"] += [("(unsigned int)i", True)]
        ctx["loop"] = True
        v0 = self.fresh("v")
        lines.append("    unsigned int %s = in[i %% nin];" % v0)
        ctx["vars"].append((v0, True))
        ctx["locals"].add(v0)
        if r.random() < 0.5:
            lines.append("    if ((%s & %du) == 0u) {" % (v0, r.choice([3, 7])))
            lines.append("      out[i] = %s;" % v0)
            lines.append("      continue;")
            lines.append("    }")
        lines += self.stmts(ctx, r.randint(2, 5), 1, 2)
        res = " + ".join(v for v, _ in ctx["vars"][-2:])
        lines.append("    out[i] = %s;" % res)
        lines.append("  }")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            n = dom[0] * (dom[1] if self.dims > 1 else 1) * (dom[2] if self.dims > 2 else 1)
            n = n * r.choice([1, 2, 3]) + r.randrange(0, 50)
            return "%s + %s, d_in, %d, %d, %s, %du" % (o, off, n, NIN, self.m_value(), r.randrange(1 << 16))

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n * 3 + 50

        total = self.emit_launches(k, args, per)
        self.set_count(k, total)

    def smem_size(self, k):
        return 1024

    def k_stencil(self, k):
        r = self.rng
        ctx = self.new_ctx()
        owner = r.random() < self.p["p_owner_index"]
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        if owner and self.dims == 2:
            ext = ["32", "32"]
            # tile[ty][tx] (2-D) or tile[tz][ty][tx] (3-D): the owner's index
            idx_rev = ["threadIdx.%s" % d for d in reversed(DIMS[:self.dims])]
            decl = "  __shared__ unsigned int tile%s;" % "".join("[%s]" % e for e in ext)
            own = "tile" + "".join("[%s]" % x for x in idx_rev)
            nb_idx = list(idx_rev)
            nb_idx[-1] = "(threadIdx.x + 1) % blockDim.x"
            nb = "tile" + "".join("[%s]" % x for x in nb_idx)
            nb_idx2 = list(idx_rev)
            nb_idx2[0] = "(blockDim.%s - 1 - threadIdx.%s)" % (DIMS[self.dims - 1], DIMS[self.dims - 1])
            nb2 = "tile" + "".join("[%s]" % x for x in nb_idx2)
        elif owner and self.dims == 1:
            decl = "  __shared__ unsigned int tile[1024];"
            own = "tile[threadIdx.x]"
            nb = "tile[(threadIdx.x + 1) % blockDim.x]"
            nb2 = "tile[blockDim.x - 1 - threadIdx.x]"
        else:
            decl = "  __shared__ unsigned int tile[1024];"
            own = "tile[t]"
            nb = "tile[(t + 1) % nt]"
            nb2 = "tile[(t + nt - 1) % nt]"
        lines.append(decl)
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  bool inside = %s;" % inside)
        lines.append("  if (m == 0u)")
        lines.append("    return;")
        lines.append("  %s = inside ? in[i %% nin] : s;" % own)
        lines.append("  __syncthreads();")
        lines.append("  unsigned int v = %s + %s * 3u;" % (nb, nb2))
        ctx["vars"] += [("v", True), ("(unsigned int)t", True)]
        ctx["locals"].add("v")
        ctx["helpers"] = False
        lines += self.stmts(ctx, r.randint(0, 2), 1, 1)
        lines.append("  for (int r = 0; r < (int)m; ++r) {")
        lines.append("    __syncthreads();")
        lines.append("    %s %s v;" % (own, r.choice(["+=", "^=", "-=", "|="])))
        lines.append("    __syncthreads();")
        lines.append("    v = v * 5u + %s;" % r.choice([nb, nb2]))
        lines.append("  }")
        lines.append("  if (inside)")
        lines.append("    out[i] = v;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %s, %du" % (o, off, self.ext_args(dom), NIN, self.m_value(),
                                                       r.randrange(1 << 16))

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        def bf(block):
            if owner and self.dims == 2 and max(block) > 32:
                return self.base_block if max(self.base_block) <= 32 else (24, 8, 1)
            return block

        total = self.emit_launches(k, args, per, block_filter=bf)
        self.set_count(k, total)

    def k_reduce(self, k):
        """A block-wide tree sum or inclusive scan in shared memory, any block size."""
        r = self.rng
        lines = self.header(k, "unsigned int *out, unsigned int *acc, const unsigned int *in, %s, int nin, "
                               "unsigned int m" % self.extent_params())
        lines.append("  __shared__ unsigned int sh[1024];")
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  unsigned int x = (%s) ? in[i %% nin] * (m | 1u) : 0u;" % inside)
        lines.append("  sh[t] = x;")
        lines.append("  __syncthreads();")
        scan = r.random() < 0.5
        if not scan:
            op = r.choice(["+=", "^="])
            lines.append("  for (int w = 1; w < nt; w *= 2) {")
            lines.append("    if (t % (2 * w) == 0 && t + w < nt)")
            lines.append("      sh[t] %s sh[t + w];" % op)
            lines.append("    __syncthreads();")
            lines.append("  }")
            lines.append("  if (t == 0) {")
            lines.append("    out[%s] = sh[0];" % self.linear_block())
            lines.append("    atomicAdd(&acc[%s %% 8u], sh[0]);" % self.linear_block())
            lines.append("  }")
        else:
            lines.append("  for (int w = 1; w < nt; w *= 2) {")
            lines.append("    unsigned int y = sh[t];")
            lines.append("    if (t >= w)")
            lines.append("      y += sh[t - w];")
            lines.append("    __syncthreads();")
            lines.append("    sh[t] = y;")
            lines.append("    __syncthreads();")
            lines.append("  }")
            lines.append("  if (%s)" % inside)
            lines.append("    out[i] = sh[t];")
            lines.append("  if (t == nt - 1)")
            lines.append("    atomicAdd(&acc[%s %% 8u], sh[t]);" % self.linear_block())
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)
        acc = "d_%s_acc" % k.name
        k.outputs.append((acc, "unsigned int", 8, "%s_acc" % k.name))

        def args(ln, dom, off, mval):
            return "%s + %s, %s, d_in, %s, %d, %du" % (o, off, acc, self.ext_args(dom), NIN, r.randint(1, 9))

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return max(n, grid[0] * grid[1] * grid[2])

        total = self.emit_launches(k, args, per)
        k.outputs = [(dv, ct, total if lb.endswith("_out") else c, lb) for dv, ct, c, lb in k.outputs]
        k.zero = "0"

    def k_histogram(self, k):
        r = self.rng
        bins = r.choice(BINS_CHOICES)
        dg = "g_%s_max" % k.name
        self.devglobal_src.append("__device__ unsigned int %s;" % dg)
        k.devglobals.append((dg, "unsigned int", 1))
        lines = self.header(k, "unsigned int *hist, const unsigned int *in, %s, int nin" % self.extent_params())
        lines.append("  __shared__ unsigned int bins[%d];" % bins)
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  for (int j = t; j < %d; j += nt)" % bins)
        lines.append("    bins[j] = 0u;")
        lines.append("  __syncthreads();")
        lines.append("  if (%s) {" % inside)
        lines.append("    unsigned int d = in[i % nin];")
        lines.append("    atomicAdd(&bins[d %% %du], 1u);" % bins)
        if r.random() < 0.5:
            lines.append("    atomicMax(&%s, d ^ (unsigned int)i);" % dg)
        else:
            lines.append("    atomicOr(&%s, 1u << (d & 31u));" % dg)
        lines.append("  }")
        lines.append("  __syncthreads();")
        lines.append("  for (int j = t; j < %d; j += nt)" % bins)
        lines.append("    if (bins[j] != 0u)")
        lines.append("      atomicAdd(&hist[j], bins[j]);")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_hist" % k.name, "unsigned int", bins)
        k.zero = "0"

        def args(ln, dom, off, mval):
            return "%s, d_in, %s, %d" % (o, self.ext_args(dom), NIN)

        self.emit_launches(k, args, lambda d, g, b: 0)

    def k_atomics(self, k):
        r = self.rng
        ctx = self.new_ctx()
        M = r.choice([4, 8, 16, 13])
        lines = self.header(k, "unsigned int *acc, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  if (!(%s))" % inside)
        lines.append("    return;")
        ctx["vars"] += [("(unsigned int)i", True)]
        lines.append("  unsigned int v = in[i % nin] ^ s;")
        ctx["vars"].append(("v", True))
        ctx["locals"].add("v")
        lines += self.stmts(ctx, r.randint(1, 3), 1, 1)
        lines.append("  unsigned int key = (v >> 4) %% %du;" % M)
        ops = r.sample(["atomicAdd", "atomicMax", "atomicMin", "atomicOr", "atomicAnd", "atomicXor"],
                       r.randint(2, 4))
        for n_op, op in enumerate(ops):
            val = "v" if n_op == 0 else self.expr(ctx, 1)
            if op == "atomicAdd" and r.random() < 0.5:
                lines.append("  if ((v & 3u) != 0u)")
                lines.append("    atomicAdd(&acc[%d * %d + key], %s);" % (n_op, M, val))
            else:
                lines.append("  %s(&acc[%d * %d + key], %s);" % (op, n_op, M, val))
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_acc" % k.name, "unsigned int", len(ops) * M)
        k.zero = "0x5A"

        def args(ln, dom, off, mval):
            return "%s, d_in, %s, %d, %s, %du" % (o, self.ext_args(dom), NIN, self.m_value(),
                                                  r.randrange(1 << 16))

        self.emit_launches(k, args, lambda d, g, b: 0)

    # A local written through a pointer made from it (memory, not names):
    # an array of rank 1 to 3 (or a struct's member array) written through
    # a row's decay cast to a vector type, `&a[..][0]` cast, a pointer local
    # made from a row, pointer arithmetic on the flattened array, or a
    # helper taking the row; then read back at uniform and varying indices.
    def k_localmem(self, k):
        r = self.rng
        ctx = self.new_ctx()
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        coord, inside = self.coord_lines()
        lines += coord
        rank = r.choice([1, 2, 2, 3])
        cols = r.choice([4, 8])
        shape = {1: [cols], 2: [r.choice([2, 3]), cols], 3: [2, r.choice([2, 3]), cols]}[rank]
        in_struct = r.random() < 0.25 and rank <= 2
        dims = "".join("[%d]" % x for x in shape)
        if in_struct:
            sname = self.fresh("LM")
            self.helpers.append("struct %s {\n  unsigned int tag;\n  __align__(16) unsigned int a%s;\n};" %
                                (sname, dims))
            lines.append("  %s f;" % sname)
            lines.append("  f.tag = s;")
            arr = "f.a"
        else:
            lines.append("  __align__(16) unsigned int a%s;" % dims)
            arr = "a"
        total = 1
        for x in shape:
            total *= x
        lines.append("  for (int e = 0; e < %d; e++)" % total)
        lines.append("    (&%s%s)[e] = s + (unsigned int)e;" % (arr, "[0]" * rank))
        lines.append("  unsigned int v = %s ? in[i %% nin] : m;" % inside)
        ctx["vars"] += [("v", True), ("(unsigned int)i", True)]
        ctx["locals"].add("v")
        lines += self.stmts(ctx, r.randint(1, 2), 1, 1)
        rows = shape[0] if rank >= 2 else 1
        row = lambda j: "%s[%s]" % (arr, j) if rank == 2 else ("%s[%s][1]" % (arr, j) if rank == 3 else arr)
        form = r.choice(["vec4", "vec2", "elemaddr", "rowptr", "flat", "helper"])
        if form == "helper":
            h = self.fresh("lm_fill")
            self.helpers.append("__device__ void %s(unsigned int *p, unsigned int x, int n) {\n"
                                "  for (int c = 0; c < n; c++)\n    p[c] = x * (unsigned int)(c + 3);\n}" % h)
        uniform_row = r.random() < 0.5
        lines.append("  for (int j = 0; j < %d; j++) {" % rows)
        val = "v + (unsigned int)j * 7u" if not uniform_row else "s ^ (unsigned int)j"
        cond = "  if ((v & 1u) == 0u) " if r.random() < 0.4 else "  "
        if form == "vec4":
            for c0 in range(0, cols, 4):
                lines.append("  %s*reinterpret_cast<uint4 *>(%s + %d) = make_uint4(%s, %s + 1u, v, %s * 3u);" %
                             (cond, row("j"), c0, val, val, val))
        elif form == "vec2":
            for c0 in range(0, cols, 2):
                lines.append("  %s*(uint2 *)(%s + %d) = make_uint2(%s, v ^ %du);" % (cond, row("j"), c0, val, c0))
        elif form == "elemaddr":
            lines.append("  %s*(uint2 *)&%s[2] = make_uint2(%s, v);" % (cond, row("j"), val))
        elif form == "rowptr":
            lines.append("    unsigned int *q = %s;" % row("j"))
            lines.append("  %sq[j %% %d] += %s;" % (cond, cols, val))
        elif form == "flat":
            lines.append("    unsigned int *q = &%s%s + j * %d;" % (arr, "[0]" * rank, cols))
            lines.append("  %s*(q + 1) = %s;" % (cond, val))
        else:
            lines.append("  %s%s(%s, %s, %d);" % (cond, h, row("j"), val, cols))
        lines.append("  }")
        lines.append("  unsigned int acc = 0u;")
        lines.append("  for (int e = 0; e < %d; e++)" % total)
        lines.append("    acc = acc * 31u + (&%s%s)[e];" % (arr, "[0]" * rank))
        idx = "(v %% %du)" % cols if r.random() < 0.5 else "%d" % r.randrange(cols)
        lines.append("  acc ^= %s[%s];" % (row("0") if rank >= 2 else arr, idx))
        lines.append("  if (%s)" % inside)
        lines.append("    out[i] = acc;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %s, %du" % (o, off, self.ext_args(dom), NIN, self.m_value(),
                                                      r.randrange(1 << 16))

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        total = self.emit_launches(k, args, per)
        self.set_count(k, total)

    def k_dynshared(self, k):
        r = self.rng
        k.expect = "accept"  # block mode divides the dynamic shared memory among the logical blocks
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int s"
                            % self.extent_params())
        lines.append("  extern __shared__ unsigned int dyn[];")
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  bool inside = %s;" % inside)
        # the block index along every dimension: replicated in every block-mode variant
        lines.append("  dyn[t] = inside ? in[i % nin] + blockIdx.x * 3u + blockIdx.y * 5u + blockIdx.z : s;")
        lines.append("  __syncthreads();")
        lines.append("  unsigned int v = dyn[(t + 1) % nt] ^ dyn[nt - 1 - t];")
        lines.append("  if (inside)")
        lines.append("    out[i] = v;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %du" % (o, off, self.ext_args(dom), NIN, r.randrange(1 << 16))

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        total = self.emit_launches(k, args, per,
                                   shmem=lambda b: "%d * sizeof(unsigned int)" % (b[0] * b[1] * b[2]))
        self.set_count(k, total)

    # Warp-synchronous code in thread mode: kept only where copies of a
    # physical warp are whole logical warps (the stride mapping along x
    # alone); refused along y and z and with the consecutive mapping.
    WARP_THREAD_EXPECT = "refuse-thread@yz,refuse-thread.consecutive,may-refuse-thread"

    def k_shuffle(self, k):
        r = self.rng
        k.expect = self.WARP_THREAD_EXPECT
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin"
                            % self.extent_params())
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  bool inside = %s;" % inside)
        lines.append("  unsigned int v = inside ? in[i % nin] : 0u;")
        lines.append("  v += __shfl_down_sync(0xffffffffu, v, %d);" % r.choice([1, 2, 4]))
        if r.random() < 0.5:
            lines.append("  v ^= __shfl_xor_sync(0xffffffffu, v, %d);" % r.choice([1, 8, 16]))
        lines.append("  if (inside)")
        lines.append("    out[i] = v;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d" % (o, off, self.ext_args(dom), NIN)

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        total = self.emit_launches(k, args, per, block_filter=self.whole_warps)
        self.set_count(k, total)

    def k_barrier(self, k, which):
        """A barrier under control that is uniform in the block but differs between the copies."""
        r = self.rng
        # "block": the condition depends on blockIdx only, the same for every thread of a logical
        # block, so block mode accepts it (the barrier runs once for the merged block).
        k.expect = {"block": "accept", "thread": "refuse-thread", "both": "refuse"}[which]
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin"
                            % self.extent_params())
        lines.append("  __shared__ unsigned int sh[1024];")
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  bool inside = %s;" % inside)
        lines.append("  unsigned int v = inside ? in[i % nin] : 1u;")
        bsum = " + ".join("blockIdx.%s" % d for d in DIMS)
        tsum = " + ".join("threadIdx.%s" % d for d in DIMS)
        if which == "block":
            c = "((%s) %% 2u == 0u)" % bsum
        elif which == "thread":
            c = "(%s < 4096u)" % tsum  # always true: uniform in the block
        else:
            c = "(%s + %s < 1000000u)" % (tsum, bsum)
        if r.random() < 0.5:
            lines.append("  if %s {" % c)
            lines.append("    sh[t] = v;")
            lines.append("    __syncthreads();")
            lines.append("    v += sh[(t + 1) % nt];")
            lines.append("  }")
        else:
            lines.append("  for (unsigned int r = 0; r < %s; ++r) {" %
                         ("(%s) %% 3u" % bsum if which == "block" else "(%s ? 2u : 0u)" % c))
            lines.append("    sh[t] = v;")
            lines.append("    __syncthreads();")
            lines.append("    v = v * 3u + sh[(t + 1) % nt];")
            lines.append("    __syncthreads();")
            lines.append("  }")
        lines.append("  if (inside)")
        lines.append("    out[i] = v;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d" % (o, off, self.ext_args(dom), NIN)

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        total = self.emit_launches(k, args, per)
        self.set_count(k, total)

    def k_uniform_switch(self, k):
        """A switch on a kernel parameter whose cases store per-thread values."""
        r = self.rng
        k.expect = "may-refuse"  # DESIGN-NOTES: a uniform switch whose cases differ between copies
        ctx = self.new_ctx()
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  if (!(%s))" % inside)
        lines.append("    return;")
        lines.append("  unsigned int v = in[i % nin];")
        ctx["vars"] += [("v", True), ("(unsigned int)i", True)]
        ctx["locals"].add("v")
        lines.append("  switch (m % 3u) {")
        for case in ["case 0:", "case 1:", "default:"]:
            lines.append("  %s" % case)
            lines.append("    v = %s;" % self.expr(ctx, 2))
            lines.append("    break;")
        lines.append("  }")
        lines.append("  out[i] = v;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %du, %du" % (o, off, self.ext_args(dom), NIN, r.randrange(0, 6),
                                                        r.randrange(1 << 16))

        def per(dom, grid, block):
            n = 1
            for x in dom:
                n *= x
            return n

        total = self.emit_launches(k, args, per)
        self.set_count(k, total)

    # ---- kinds of profile `reach`: coordinates and shared memory reached indirectly ----
    def add_helper(self, name, text):
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(text)
        return name

    def elements(self, dom, grid, block):
        n = 1
        for x in dom:
            n *= x
        return n

    def dg_helpers(self, d):
        """Helpers whose default arguments read the builtins along d."""
        self.add_helper("dg_gid_%s" % d,
                        "__device__ unsigned int dg_gid_%s(unsigned int b = blockIdx.%s, unsigned int n = blockDim.%s,\n"
                        "                               unsigned int t = threadIdx.%s) {\n"
                        "  return b * n + t;\n"
                        "}\n" % (d, d, d, d))
        self.add_helper("dg_span_%s" % d,
                        "__device__ unsigned int dg_span_%s(unsigned int g = gridDim.%s, unsigned int n = blockDim.%s) {\n"
                        "  return g * n;\n"
                        "}\n" % (d, d, d))
        # a prototype carries the default, the definition follows
        self.add_helper("dg_shift_%s" % d,
                        "__device__ unsigned int dg_shift_%s(unsigned int s, unsigned int b = blockIdx.%s * 2u + 1u);\n"
                        "__device__ unsigned int dg_shift_%s(unsigned int s, unsigned int b) { return s * 3u + b; }\n"
                        % (d, d, d))

    def dg_gid(self, d):
        """The global index along d, spelled through dg_gid_d's defaults or not."""
        c = self.rng.random()
        if c < 0.4:
            return "dg_gid_%s()" % d
        if c < 0.55:
            return "dg_gid_%s(blockIdx.%s)" % (d, d)
        if c < 0.7:
            return "dg_gid_%s(blockIdx.%s, blockDim.%s)" % (d, d, d)
        if c < 0.8:
            return "dg_gid_%s(blockIdx.%s, blockDim.%s, threadIdx.%s)" % (d, d, d, d)
        return "blockIdx.%s * blockDim.%s + threadIdx.%s" % (d, d, d)

    def index_lines(self, gids, ind=1):
        """Coordinates from the given expressions of gx, gy, gz, and i, the linear index."""
        sp = "  " * ind
        lines = ["%sint g%s = (int)(%s);" % (sp, d, g) for d, g in zip(DIMS, gids)]
        _, inside = self.coord_lines()
        lines.append("%sint i = %s;" % (sp, {1: "gx", 2: "gy * nx + gx", 3: "(gz * ny + gy) * nx + gx"}[self.dims]))
        return lines, inside

    def k_defargs(self, k):
        """Helpers whose default arguments read blockIdx/threadIdx/blockDim/gridDim, called with and without them."""
        r = self.rng
        ctx = self.new_ctx()
        ctx["gid"] = False
        for d in DIMS[:self.dims]:
            self.dg_helpers(d)
        self.add_helper("dg_lin", "__device__ unsigned int dg_lin(unsigned int t = threadIdx.x + blockDim.x * "
                        "(threadIdx.y + blockDim.y * threadIdx.z)) {\n  return t & 31u;\n}\n")
        self.add_helper("dg_via", "__device__ unsigned int dg_via(unsigned int s) { return dg_gid_x() * 5u + "
                        "dg_shift_x(s); }\n")
        self.add_helper("DgBase", "struct DgBase {\n  unsigned int o;\n"
                        "  __device__ unsigned int at(unsigned int b = blockIdx.x, unsigned int g = gridDim.x) const "
                        "{ return o + b * 3u + g; }\n};\n")
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        coord, inside = self.index_lines([self.dg_gid(d) for d in DIMS[:self.dims]])
        lines += coord
        if r.random() < 0.6:
            lines.append("  if (!(%s))" % inside)
            lines.append("    return;")
            sp, close = "  ", False
        else:
            lines.append("  if (%s) {" % inside)
            sp, close = "    ", True
        lines.append("%sDgBase base{s};" % sp)
        d = DIMS[r.randrange(self.dims)]
        lines.append("%sunsigned int v = in[i %% nin] + dg_shift_%s(m) + base.at()%s;" %
                     (sp, d, r.choice(["", " * dg_lin()", " ^ dg_span_%s()" % d])))
        ctx["vars"] += [("v", True), ("(unsigned int)i", True), ("dg_span_%s()" % d, False),
                        ("dg_span_%s(gridDim.%s)" % (d, d), False), ("dg_lin()", True), ("dg_lin(%du)" %
                        r.randrange(64), False), ("dg_via(v)", True), ("base.at(%du)" % r.randrange(9), False),
                        ("base.at(blockIdx.%s, 2u)" % d, True), ("dg_shift_%s(s, 5u)" % d, False),
                        ("dg_gid_%s()" % d, True)]
        ctx["locals"].add("v")
        lines += self.stmts(ctx, r.randint(2, 5), 0, len(sp) // 2)
        res = " ^ ".join(r.sample([x for x, _ in ctx["vars"] if x not in ("s", "m")], 3))
        lines.append("%sout[i] = %s;" % (sp, res))
        if close:
            lines.append("  }")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %s, %du" % (o, off, self.ext_args(dom), NIN, self.m_value(),
                                                       r.randrange(1 << 16))

        self.set_count(k, self.emit_launches(k, args, self.elements))

    def asm_reg(self, reg, d=None):
        """A helper reading one PTX special register (%tid.x...) through inline assembly."""
        name = "pa_%s%s" % (reg, "_" + d if d else "")
        full = "%s.%s" % (reg, d) if d else reg
        return self.add_helper(name, "__device__ unsigned int %s() {\n  unsigned int r;\n"
                               "  asm%s(\"mov.u32 %%0, %%%%%s;\" : \"=r\"(r));\n  return r;\n}\n"
                               % (name, " volatile" if self.rng.random() < 0.5 else "", full))

    def k_asm(self, k):
        """Coordinates read through inline PTX in helpers: refused where the variant changes the register."""
        r = self.rng
        ctx = self.new_ctx()
        ctx["gid"] = False
        refuse = set()  # (mode, dim or None)
        gids = []
        for d in DIMS[:self.dims]:
            c = r.random()
            if c < 0.25:
                gids.append("blockIdx.%s * blockDim.%s + threadIdx.%s" % (d, d, d))
                continue
            if c < 0.45:
                # one helper reading all three registers
                name = "pa_gid_%s" % d
                self.add_helper(name, "__device__ unsigned int %s() { return %s() * %s() + %s(); }\n" %
                                (name, self.asm_reg("ctaid", d), self.asm_reg("ntid", d), self.asm_reg("tid", d)))
                gids.append("%s()" % name)
                refuse |= {("block", d), ("thread", d)}
                continue
            b = "%s()" % self.asm_reg("ctaid", d) if r.random() < 0.5 else "blockIdx.%s" % d
            n = "%s()" % self.asm_reg("ntid", d) if r.random() < 0.5 else "blockDim.%s" % d
            t = "%s()" % self.asm_reg("tid", d) if r.random() < 0.5 else "threadIdx.%s" % d
            if "pa_" in b:
                refuse.add(("block", d))
            if "pa_" in n or "pa_" in t:
                refuse.add(("thread", d))
            gids.append("%s * %s + %s" % (b, n, t))
        extra = []
        if r.random() < 0.4:
            extra.append(("%s()" % self.asm_reg("laneid"), True))
            refuse.add(("thread", None))
        if r.random() < 0.4:
            d = DIMS[r.randrange(self.dims)]
            extra.append(("%s()" % self.asm_reg("nctaid", d), False))
            refuse.add(("block", d))
        if not refuse and not extra:
            # every such kernel reads at least one register through assembly
            extra.append(("%s()" % self.asm_reg("tid", "x"), True))
            refuse.add(("thread", "x"))
        if r.random() < 0.3:
            # registers no variant changes along a dimension the program does not use
            for d in DIMS[self.dims:]:
                reg = r.choice(["tid", "ctaid"])
                extra.append(("%s()" % self.asm_reg(reg, d), True))
                refuse.add(("thread" if reg == "tid" else "block", d))
        clauses = []
        for mode in ("block", "thread"):
            if (mode, None) in refuse:
                clauses.append("refuse-" + mode)
            else:
                ds = "".join(d for d in DIMS if (mode, d) in refuse)
                if ds:
                    clauses.append("refuse-%s@%s" % (mode, ds))
        k.expect = ",".join(clauses) or "accept"
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        coord, inside = self.index_lines(gids)
        lines += coord
        lines.append("  if (!(%s))" % inside)
        lines.append("    return;")
        lines.append("  unsigned int v = in[i %% nin] ^ %s;" % " ^ ".join([x for x, _ in extra] or ["s"]))
        ctx["vars"] += [("v", True), ("(unsigned int)i", True)] + extra
        ctx["locals"].add("v")
        lines += self.stmts(ctx, r.randint(1, 4), 0, 1)
        pool = [x for x, _ in ctx["vars"] if x not in ("s", "m", "v")]
        res = " ^ ".join(r.sample(pool, min(2, len(pool))))
        lines.append("  out[i] = v + (%s);" % res)
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %s, %du" % (o, off, self.ext_args(dom), NIN, self.m_value(),
                                                       r.randrange(1 << 16))

        self.set_count(k, self.emit_launches(k, args, self.elements))

    def k_smemstruct(self, k):
        """cuda-samples' SharedMemory<T>: the conversion operator returns an extern __shared__ array; a tree
        reduction or a stencil over the dynamic shared memory the launch gives."""
        r = self.rng
        self.add_helper("SharedMemory", "template <class T> struct SharedMemory {\n"
                        "  __device__ inline operator T *() {\n"
                        "    extern __shared__ int __smem[];\n"
                        "    return (T *)__smem;\n"
                        "  }\n"
                        "  __device__ inline operator const T *() const {\n"
                        "    extern __shared__ int __smem[];\n"
                        "    return (T *)__smem;\n"
                        "  }\n"
                        "};\n")
        # 8-byte elements only where a block holds at most 384 threads: K = 16 shares fit in 48 KiB
        template = r.random() < 0.6
        T = r.choice(["unsigned int", "unsigned long long"]) if self.dims == 1 else "unsigned int"
        if self.profile in MODERN_PROFILES:
            T = "unsigned int"  # its blocks hold up to 512 threads: K = 8 shares of 8-byte elements fill 32 KiB
        P = "T" if template else T
        lines = self.header(k, "%s *out, unsigned int *acc, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % (P, self.extent_params()),
                            "template <class T>" if template else None)
        lines.append("  %s *sdata = SharedMemory<%s>();" % (P, P))
        t, nt = self.linear_thread()
        lines.append("  %s" % t)
        lines.append("  %s" % nt)
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  bool inside = %s;" % inside)
        if r.random() < 0.3:
            lines.append("  if (m == 0u)")
            lines.append("    return;")
        lines.append("  sdata[t] = inside ? (%s)in[i %% nin] * (%s)(m | 1u) : (%s)s;" % (P, P, P))
        lines.append("  __syncthreads();")
        reduce = r.random() < 0.5
        if reduce:
            lines.append("  for (int w = 1; w < nt; w *= 2) {")
            lines.append("    if (t % (2 * w) == 0 && t + w < nt)")
            lines.append("      sdata[t] %s sdata[t + w];" % r.choice(["+=", "^=", "|="]))
            lines.append("    __syncthreads();")
            lines.append("  }")
            lines.append("  if (t == 0) {")
            lines.append("    out[%s] = sdata[0];" % self.linear_block())
            lines.append("    atomicAdd(&acc[%s %% 8u], (unsigned int)sdata[0]);" % self.linear_block())
            lines.append("  }")
        else:
            lines.append("  %s v = sdata[(t + 1) %% nt] + sdata[nt - 1 - t] * (%s)3;" % (P, P))
            lines.append("  for (unsigned int r = 0; r < (m & 3u); ++r) {")
            lines.append("    __syncthreads();")
            lines.append("    sdata[t] %s v;" % r.choice(["+=", "^=", "-="]))
            lines.append("    __syncthreads();")
            lines.append("    v = v * (%s)5 + sdata[(t + nt - 1) %% nt];" % P)
            lines.append("  }")
            lines.append("  if (inside)")
            lines.append("    out[i] = v;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, T, 0)
        acc = "d_%s_acc" % k.name
        k.outputs.append((acc, "unsigned int", 8, "%s_acc" % k.name))
        k.zero = "0"

        def args(ln, dom, off, mval):
            return "%s + %s, %s, d_in, %s, %d, %s, %du" % (o, off, acc, self.ext_args(dom), NIN, self.m_value(),
                                                           r.randrange(1 << 16))

        def per(dom, grid, block):
            return max(self.elements(dom, grid, block), grid[0] * grid[1] * grid[2])

        def shmem(b):
            return "%d * sizeof(%s)%s" % (b[0] * b[1] * b[2], T, ", stream" if r.random() < 0.3 else "")

        total = self.emit_launches(k, args, per, shmem=shmem, template_args="<%s>" % T if template else "")
        k.outputs = [(dv, ct, total if lb.endswith("_out") else c, lb) for dv, ct, c, lb in k.outputs]

    def k_helpershared(self, k):
        """Static __shared__ arrays declared in __device__ helpers and member functions."""
        r = self.rng
        form = r.choice(["view", "member", "own"])
        # block mode replicates a shared array written per copy and refuses the function that declares it:
        # a call storing to shared memory is emitted per copy along any dimension, a store through the view
        # only where its value reads the block index along the coarsened one; a helper holding a barrier
        # and writing shared memory is refused in thread mode
        k.expect = {"view": "refuse-block@%s" % DIMS[:self.dims], "own": "refuse-block", "member": "refuse"}[form]
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        t, nt = self.linear_thread()
        body = ["  %s" % t, "  %s" % nt]
        coord, inside = self.coord_lines()
        body += coord
        body.append("  bool inside = %s;" % inside)
        body.append("  unsigned int v = inside ? in[i % nin] : s;")
        if form == "view":
            # the helper returns its array: a stencil over it across barriers
            self.add_helper("hs_scratch", "__device__ unsigned int *hs_scratch() {\n"
                            "  __shared__ unsigned int buf[768];\n  return buf;\n}\n")
            body.append("  unsigned int *tile = hs_scratch();")
            body.append("  for (unsigned int r = 0; r < (m & 3u) + 1u; ++r) {")
            body.append("    tile[t] = v;")
            body.append("    __syncthreads();")
            body.append("    v = v * %du + tile[(t + %d) %% nt];" % (r.choice([3, 5, 7]), r.randint(1, 5)))
            body.append("    __syncthreads();")
            body.append("  }")
        elif form == "member":
            # a member function exchanging through its own array, between barriers
            self.add_helper("HsExchange", "struct HsExchange {\n  unsigned int key;\n"
                            "  __device__ unsigned int swap(int t, int nt, unsigned int v) {\n"
                            "    __shared__ unsigned int buf[768];\n"
                            "    buf[t] = v ^ key;\n"
                            "    __syncthreads();\n"
                            "    unsigned int w = buf[(t + 1) % nt];\n"
                            "    __syncthreads();\n"
                            "    return w;\n"
                            "  }\n};\n")
            body.append("  HsExchange ex{s};")
            body.append("  v += ex.swap(t, nt, v * %du);" % r.choice([3, 5, 7]))
        else:
            # each thread its own slot: no barrier needed
            self.add_helper("hs_own", "__device__ unsigned int hs_own(int t, unsigned int v) {\n"
                            "  __shared__ unsigned int slot[768];\n"
                            "  slot[t] = v * 3u + 1u;\n"
                            "  return slot[t] ^ (v >> 2);\n}\n")
            body.append("  v = hs_own(t, v) + m;")
        body.append("  if (inside)")
        body.append("    out[i] = v;")
        body.append("}")
        k.src = lines + body
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %s, %du" % (o, off, self.ext_args(dom), NIN, self.m_value(),
                                                       r.randrange(1 << 16))

        self.set_count(k, self.emit_launches(k, args, self.elements))

    WARP_REDUCE = ("add", "min", "max", "and", "or", "xor")

    def warp_stmt(self, ctx):
        """One statement with warp-wide calls, every lane of the warp reaching it (full mask)."""
        r = self.rng
        e = self.expr(ctx, 1)
        c = r.randrange(8)
        if c == 0:
            op = r.choice(self.WARP_REDUCE)
            w = self.fresh("w")
            ctx["vars"].append((w, True))
            ctx["locals"].add(w)
            return ["  unsigned int %s = __reduce_%s_sync(0xffffffffu, %s);" % (w, op, e)]
        if c == 1:
            return ["  acc %s __reduce_%s_sync(0xffffffffu, %s);" % (r.choice(["+=", "^=", "="]),
                                                                     r.choice(self.WARP_REDUCE), e)]
        if c == 2:
            return ["  acc += (unsigned int)__popc(__match_any_sync(0xffffffffu, (%s) & %du)) * %du;" %
                    (e, r.choice([1, 3, 7]), r.choice([3, 5, 1021]))]
        if c == 3:
            pr, mm = self.fresh("pred"), self.fresh("mm")
            return ["  int %s;" % pr,
                    "  unsigned int %s = __match_all_sync(0xffffffffu, (%s) %s, &%s);" %
                    (mm, e, r.choice(["& 0u", "& 1u", ">> 31"]), pr),
                    "  acc = acc * 3u + %s + (unsigned int)%s;" % (mm, pr)]
        if c == 4:
            return ["  acc ^= __shfl_xor_sync(0xffffffffu, %s, %d);" % (e, r.choice([1, 2, 4, 8, 16]))]
        if c == 5:
            return ["  acc += __ballot_sync(0xffffffffu, %s);" % self.cond(ctx)]
        if c == 6:
            self.add_helper("w_sum", "__device__ unsigned int w_sum(unsigned int v) {\n"
                            "  for (int o = 16; o > 0; o >>= 1)\n"
                            "    v += __shfl_xor_sync(0xffffffffu, v, o);\n"
                            "  return v;\n}\n")
            return ["  acc = acc * 7u + w_sum(%s);" % e]
        if r.random() < 0.5:
            return ["  for (int q = 0; q < (int)(m & 3u); ++q)",
                    "    acc += __reduce_%s_sync(0xffffffffu, acc ^ (unsigned int)q);" % r.choice(self.WARP_REDUCE)]
        return ["  if (%s)" % self.cond(ctx, uniform=True),
                "    acc = __reduce_%s_sync(0xffffffffu, acc + %s);" % (r.choice(self.WARP_REDUCE), e)]

    def k_warp(self, k):
        """Warp reductions, matches, votes and shuffles with a full mask, reached by every lane; block mode
        evaluates them per copy, where a copy's guard is its logical block's."""
        r = self.rng
        k.expect = self.WARP_THREAD_EXPECT
        ctx = self.new_ctx()
        ctx["helpers"] = True
        lines = self.header(k, "unsigned int *out, const unsigned int *in, %s, int nin, unsigned int m, "
                               "unsigned int s" % self.extent_params())
        coord, inside = self.coord_lines()
        lines += coord
        lines.append("  bool inside = %s;" % inside)
        if r.random() < 0.3:
            lines.append("  if (m == 0u)")
            lines.append("    return;")
        lines.append("  unsigned int v = inside ? in[i % nin] : s;")
        lines.append("  unsigned int acc = v;")
        ctx["vars"] += [("v", True), ("acc", True), ("(unsigned int)i", True)]
        ctx["locals"] |= {"v", "acc"}
        for _ in range(r.randint(3, 7)):
            lines += self.warp_stmt(ctx)
        lines.append("  if (inside)")
        lines.append("    out[i] = acc ^ %s;" % r.choice([x for x, _ in ctx["vars"] if x not in ("s", "m", "acc")]))
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, d_in, %s, %d, %s, %du" % (o, off, self.ext_args(dom), NIN, self.m_value(),
                                                       r.randrange(1 << 16))

        self.set_count(k, self.emit_launches(k, args, self.elements, block_filter=self.whole_warps))

    # ---- kinds of profile `modern`: cooperative groups, warp-level code, lambdas, templates ----
    def modern_block(self, odd):
        """Blocks of whole warps; x a multiple of 32 * K for thread mode's factors (odd: of 32 only)."""
        r = self.rng
        # at most 512 threads: a kernel compiled without launch bounds may use 128 registers a thread
        if self.dims == 1:
            return (r.choice([96, 160, 192, 320, 64] if odd else [256, 512, 384, 256, 512]), 1, 1)
        if self.dims == 2:
            x, y = r.choice([(96, 2), (64, 4), (160, 2), (32, 8)] if odd else [(256, 2), (256, 2), (128, 4), (192, 2)])
            return (x, y, 1)
        return r.choice([(96, 2, 2), (64, 2, 2), (32, 4, 2)] if odd else [(128, 2, 2), (256, 1, 2), (64, 2, 4),
                                                                          (128, 1, 4)])

    # features of the kernels of profile `modern`; those whose meaning rests on
    # the warps (tile collectives and queries, warp intrinsics, a block
    # reduction with shuffles) keep it in thread mode only with whole warps
    MODERN_FEATURES = ("cgblock", "cgtile", "warpx", "syncpred", "lambda", "blockreduce", "tmember")
    MODERN_WARP_FEATURES = ("cgtile", "warpx", "blockreduce")

    def k_cgmix(self, k):
        r = self.rng
        feats = [f for f in self.MODERN_FEATURES if r.random() < 0.45]
        self.k_modern(k, feats or [r.choice(self.MODERN_FEATURES)])

    def k_cgblock(self, k):
        self.k_modern(k, ["cgblock"])

    def k_cgtile(self, k):
        self.k_modern(k, ["cgtile"])

    def k_warpx(self, k):
        self.k_modern(k, ["warpx"])

    def k_syncpred(self, k):
        self.k_modern(k, ["syncpred"])

    def k_lambda(self, k):
        self.k_modern(k, ["lambda"])

    def k_blockreduce(self, k):
        self.k_modern(k, ["blockreduce"])

    def k_tmember(self, k):
        self.k_modern(k, ["tmember"])

    def modern_pred(self, ctx):
        """A predicate for __syncthreads_count/and/or and the votes: on data or on the coordinates."""
        r = self.rng
        d = DIMS[r.randrange(self.dims)]
        c = r.randrange(6)
        if c == 0:
            return "inside"
        if c == 1:
            return "(v & %du) == 0u" % r.choice([1, 3, 7])
        if c == 2:
            return "threadIdx.%s < %du" % (d, r.choice([1, 17, 40, 100, 300]))
        if c == 3:
            return "(threadIdx.%s + blockIdx.%s) %% 3u == 0u" % (d, d)
        if c == 4:
            return "(acc ^ blockIdx.%s) > 2147483648u" % d
        return self.cond(ctx)

    def cg_block_stmt(self, ctx, shared):
        r = self.rng
        # every form reads the block's queries, refused in thread mode without whole warps
        # (legality.c cg_thread_query_obstacle)
        ctx["refuse"] |= {"refuse-thread@yz", "refuse-thread.consecutive"}
        e = self.expr(ctx, 1)
        c = r.randrange(7)
        if c == 0:
            return ["  acc += (unsigned int)block.thread_rank() * %du;" % r.choice([3, 5, 65599])]
        if c == 1:
            return ["  acc ^= (unsigned int)block.size() + %s;" % e]
        if c == 2:
            d = DIMS[r.randrange(self.dims)]
            return ["  acc = acc * 7u + block.thread_index().%s + block.thread_index().x * %du;" % (d, r.choice([3, 9]))]
        if c == 3:
            d = DIMS[r.randrange(self.dims)]
            return ["  acc ^= block.group_dim().%s * %du + block.group_dim().x;" % (d, r.choice([7, 13]))]
        # an exchange through shared memory between the block's barriers
        shared.add("cx")
        sync = r.choice(["block.sync();", "cg::sync(block);"])
        return ["  cx[block.thread_rank()] = %s;" % e,
                "  %s" % sync,
                "  acc += cx[(block.thread_rank() + %du) %% block.size()];" % r.randint(1, 40),
                "  %s" % r.choice(["block.sync();", "cg::sync(block);"])]

    CG_OPS = ("plus", "less", "greater", "bit_and", "bit_or", "bit_xor")

    def cg_tile_stmt(self, ctx, n):
        r = self.rng
        e = "(unsigned int)(%s)" % self.expr(ctx, 1)
        c = r.randrange(11)
        if c == 0:
            return ["  acc += tile.shfl(%s, (tile.thread_rank() + %du) %% %du);" % (e, r.randint(1, n - 1), n)]
        if c == 1:
            return ["  acc ^= tile.shfl(%s, %du);" % (e, r.randrange(n))]
        if c == 2:
            return ["  acc += tile.%s(%s, %du);" % (r.choice(["shfl_down", "shfl_up"]), e, r.randint(1, n - 1))]
        if c == 3:
            return ["  acc ^= tile.shfl_xor(%s, %du);" % (e, r.choice([x for x in (1, 2, 4, 8, 16) if x < n]))]
        if c == 4:
            return ["  acc += tile.ballot(%s) * %du;" % (self.modern_pred(ctx), r.choice([1, 3, 7]))]
        if c == 5:
            return ["  acc = acc * 3u + (unsigned int)tile.any(%s) + (unsigned int)tile.all(%s) * 2u;" %
                    (self.modern_pred(ctx), self.modern_pred(ctx))]
        if c == 6:
            w = self.fresh("w")
            ctx["vars"].append((w, True))
            ctx["locals"].add(w)
            if self.profile == "coalesced" and r.random() < 0.35:
                # the program's own function as the operator (llm.c's softmax_forward_online_kernel2)
                h = self.add_helper("tile_op", "__device__ unsigned int tile_op(unsigned int a, unsigned int b) {\n"
                                    "  unsigned int t = a ^ (b * 2654435761u);\n  return t + (a < b ? a : b);\n}\n")
                return ["  unsigned int %s = cg::reduce(tile, %s, %s);" % (w, e, h)]
            if self.profile == "coalesced" and r.random() < 0.4:
                # through a template helper whose operator's class depends on T (cuda-samples' cg_reduce_n);
                # its dependent cg::reduce may be a tile of several warps' (a barrier): no return before it
                op = r.choice(["plus", "bit_xor", "greater"])
                h = self.add_helper("tile_reduce_" + op,
                                    "template <typename T, typename Group> __device__ T tile_reduce_%s(T v, "
                                    "Group &g) {\n  return cg::reduce(g, v, cg::%s<T>());\n}\n" % (op, op))
                return ["  unsigned int %s = %s(%s, tile);" % (w, h, e)]
            if r.random() < 0.3:
                return ["  unsigned int %s = (unsigned int)cg::reduce(tile, (int)(%s & 0xffffu), cg::%s<int>());" %
                        (w, e, r.choice(["plus", "less", "greater"]))]
            return ["  unsigned int %s = cg::reduce(tile, %s, cg::%s<unsigned int>());" % (w, e, r.choice(self.CG_OPS))]
        if c == 7:
            scan = r.choice(["inclusive_scan", "exclusive_scan"])
            if r.random() < 0.5:
                return ["  acc ^= cg::%s(tile, %s);" % (scan, e)]
            return ["  acc += cg::%s(tile, %s, cg::%s<unsigned int>());" % (scan, e, r.choice(["bit_xor", "bit_or", "plus"]))]
        if c == 8:
            return ["  acc += tile.thread_rank() * %du + tile.size();" % r.choice([3, 5, 31])]
        if c == 9:
            return ["  acc ^= tile.meta_group_rank() * %du + tile.meta_group_size();" % r.choice([7, 33, 1021])]
        if ctx.get("float"):
            return ["  f += cg::reduce(tile, f * 0.5f, cg::plus<float>());"]
        return ["  tile.sync();", "  acc += tile.shfl_down(acc, 1u);"]

    def warpx_stmt(self, ctx):
        r = self.rng
        e = self.expr(ctx, 1)
        c = r.randrange(5)
        if c == 0:
            return ["  acc += (unsigned int)__reduce_%s_sync(0xffffffffu, (int)((%s) & 0xffffu) - 30000);" %
                    (r.choice(["add", "min", "max"]), e)]
        if c == 1:
            w = self.fresh("w")
            ctx["vars"].append((w, True))
            ctx["locals"].add(w)
            return ["  unsigned int %s = __reduce_%s_sync(0xffffffffu, %s);" % (w, r.choice(["add", "min", "max"]), e)]
        if c == 2:
            return ["  acc ^= __match_any_sync(0xffffffffu, (%s) & %du);" % (e, r.choice([1, 3, 7]))]
        if c == 3:
            return ["  acc += __shfl_%s_sync(0xffffffffu, %s, %du);" % (r.choice(["down", "up", "xor"]), e,
                                                                      r.choice([1, 2, 4, 8, 16]))]
        return self.warp_stmt(ctx)

    def syncpred_stmt(self, ctx):
        r = self.rng
        self.add_helper("sp_votes", "__device__ unsigned int sp_votes(unsigned int v, bool p) {\n"
                        "  unsigned int c = (unsigned int)__syncthreads_count(p && (v & 1u) != 0u);\n"
                        "  int a = __syncthreads_and(p || threadIdx.x % 2u == 0u);\n"
                        "  int o = __syncthreads_or((v ^ blockIdx.x) % 7u == 0u);\n"
                        "  return c * 3u + (unsigned int)a * 5u + (unsigned int)o;\n}\n")
        c = r.randrange(5)
        if c == 4:
            # thread mode: one call of the helper per copy would combine only that copy's threads
            # (legality.c check_fn)
            ctx["refuse"].add("refuse-thread")
        # c = 0, 2, 3 in a statement written once per copy (acc, or a count's local that a later statement
        # makes differ between the copies): thread mode computes the combination once before it (fuse.c
        # hoist_block_reductions); the call is the condition of `?:` or an operand of `+`, always evaluated
        if c == 0:
            w = self.fresh("cnt")
            ctx["vars"].append((w, True))
            ctx["locals"].add(w)
            return ["  unsigned int %s = (unsigned int)__syncthreads_count(%s);" % (w, self.modern_pred(ctx))]
        if c == 1:
            return ["  if (__syncthreads_and(%s))" % self.modern_pred(ctx),
                    "    acc += %du;" % r.choice([1, 5, 77])]
        if c == 2:
            return ["  acc ^= __syncthreads_or(%s) ? %du : %du;" % (self.modern_pred(ctx), r.randrange(9), r.randrange(9))]
        if c == 3:
            return ["  acc = acc * 5u + (unsigned int)__syncthreads_count(%s) + (unsigned int)__syncthreads_and(%s);"
                    % (self.modern_pred(ctx), self.modern_pred(ctx))]
        return ["  acc += sp_votes(%s, %s);" % (self.expr(ctx, 1), self.modern_pred(ctx))]

    def lambda_stmt(self, ctx):
        r = self.rng
        lam = self.fresh("lam")
        d = DIMS[r.randrange(self.dims)]
        c = r.randrange(3)
        if c == 0:
            lines = ["  auto %s = [=](unsigned int a) { return a * %du + threadIdx.%s + blockIdx.%s * %s; };" %
                     (lam, r.choice([3, 5, 33]), d, d, r.choice(["v", "(unsigned int)i"]))]
            if r.random() < 0.5:
                return lines + ["  acc ^= %s(%s);" % (lam, self.expr(ctx, 1))]
            return lines + ["  for (int q = 0; q < (int)(m & 3u) + 1; ++q)",
                            "    acc += %s(acc + (unsigned int)q);" % lam]
        if c == 1:
            lines = ["  auto %s = [&](unsigned int a) { acc = acc * 31u + a + blockIdx.%s + threadIdx.%s; };" %
                     (lam, d, DIMS[r.randrange(self.dims)])]
        else:
            # a capture list naming a variable: renamed per copy with it (fuse.c, collect's N_LAMBDA)
            lines = ["  auto %s = [=, &acc](unsigned int a) { acc ^= a * %s + blockDim.%s * threadIdx.x; };" %
                     (lam, r.choice(["v", "s"]), d)]
        if r.random() < 0.5:
            return lines + ["  %s(%s);" % (lam, self.expr(ctx, 1))]
        return lines + ["  for (int q = 0; q < %s; ++q)" % r.choice(["(int)(m & 3u)", "3", "(int)(v % 4u)"]),
                        "    %s((unsigned int)q * %du);" % (lam, r.choice([1, 7, 13]))]

    def blockreduce_stmt(self, ctx):
        r = self.rng
        self.add_helper("warpSum", "__device__ float warpSum(float v) {\n"
                        "  for (int o = 16; o > 0; o >>= 1)\n"
                        "    v += __shfl_xor_sync(0xffffffffu, v, o);\n"
                        "  return v;\n}\n")
        self.add_helper("warpMax", "__device__ float warpMax(float v) {\n"
                        "  for (int o = 16; o > 0; o >>= 1)\n"
                        "    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));\n"
                        "  return v;\n}\n")
        # llm.c's blockReduce, over the linear thread index: each warp's lane 0 stores
        # its warp's value, a barrier, every warp reduces the warps' values
        self.add_helper("blockReduce", "template <float (*op)(float)>\n"
                        "__device__ float blockReduce(float v, bool final_sync, float oob) {\n"
                        "  __shared__ float shared_val[32];\n"
                        "  const int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
                        "  const int lane = t % 32;\n"
                        "  const int warp = t / 32;\n"
                        "  const int nwarps = blockDim.x * blockDim.y * blockDim.z / 32;\n"
                        "  float w = op(v);\n"
                        "  if (lane == 0)\n"
                        "    shared_val[warp] = w;\n"
                        "  __syncthreads();\n"
                        "  w = lane < nwarps ? shared_val[lane] : oob;\n"
                        "  float b = op(w);\n"
                        "  if (final_sync)\n"
                        "    __syncthreads();\n"
                        "  return b;\n}\n"
                        "template <float (*op)(float)>\n"
                        "__device__ float blockReduce(float v) {\n"
                        "  return blockReduce<op>(v, true, 0.0f);\n}\n")
        # block mode: the helper names shared_val, which the kernel replicates (legality.c check_fn_body);
        # thread mode: the helper holds barriers and writes memory (legality.c check_barrier_call)
        ctx["refuse"].add("refuse")
        c = r.randrange(3)
        if c == 0:
            return ["  f += blockReduce<warpSum>(f * 0.5f);"]
        if c == 1:
            return ["  f = f * 0.25f + blockReduce<warpMax>(f, true, -1.0e30f);"]
        return ["  f -= blockReduce<warpSum>((float)(%s & 1023u), true, 0.0f);" % self.expr(ctx, 1)]

    def tmember_stmt(self, ctx):
        r = self.rng
        self.add_helper("TmBits", "struct TmBits {\n  unsigned int w;\n"
                        "  __device__ unsigned int bits() const { return (w * 2654435761u) ^ (w >> 13); }\n};\n")
        self.add_helper("TmHere", "struct TmHere {\n  unsigned int w;\n"
                        "  __device__ unsigned int bits() const { return w + threadIdx.x * 7u + blockIdx.x; }\n};\n")
        self.add_helper("tm_store", "template <class V> __device__ void tm_store(V &v) { v.w = v.bits(); }\n"
                        "template <class V> __device__ unsigned int tm_get(const V &v) { return v.bits() ^ 5u; }\n")
        o = self.fresh("tm")
        T = r.choice(["TmBits", "TmHere"])
        lines = ["  %s %s{%s};" % (T, o, self.expr(ctx, 1))]
        store = r.random() < 0.6
        if store:
            lines.append("  tm_store(%s);" % o)
        # TmHere::bits reads blockIdx.x and threadIdx.x, and a member function is not cloned per copy
        # (legality.c clone_obstacle): refused where x is coarsened.  tm_store's dependent call v.bits() is
        # taken to reach it whatever T is, tm_get's in some programs only
        m = "" if store or T == "TmHere" else "may-"
        ctx["refuse"] |= {m + "refuse-block@x", m + "refuse-thread@x"}
        lines.append("  acc ^= tm_get(%s)%s;" % (o, r.choice(["", " + %s.w" % o])))
        return lines

    def k_modern(self, k, feats):
        """Statements of the given features, in random order, between the plain statements; every
        collective and barrier at the top level, reached by every thread of the block (no early
        return but the uniform `m == 0`)."""
        r = self.rng
        ctx = self.new_ctx()
        ctx["gid"] = False
        ctx["refuse"] = set()  # clauses of the forms written that tfuse refuses by design
        coord, inside = self.coord_lines()
        body = coord + ["  bool inside = %s;" % inside]
        if r.random() < 0.3:
            body += ["  if (m == 0u)", "    return;"]
        n = 32
        if "cgblock" in feats or "cgtile" in feats:
            body.append("  cg::thread_block block = cg::this_thread_block();")
        if "cgtile" in feats:
            n = r.choice([4, 8, 16, 32])
            body.append("  cg::thread_block_tile<%d> tile = cg::tiled_partition<%d>(block);" % (n, n))
        body.append("  unsigned int v = inside ? in[i % nin] : s;")
        body.append("  unsigned int acc = v ^ m;")
        body.append("  float f = inside ? fin[i % nin] : 0.0f;")
        ctx["vars"] += [("v", True), ("acc", True), ("(unsigned int)i", True)]
        ctx["locals"] |= {"v", "acc"}
        ctx["float"] = "f"
        shared = set()
        used = set()
        for _ in range(r.randint(3, 7)):
            ft = r.choice(feats)
            used.add(ft)
            if ft == "cgblock":
                body += self.cg_block_stmt(ctx, shared)
            elif ft == "cgtile":
                body += self.cg_tile_stmt(ctx, n)
            elif ft == "warpx":
                body += self.warpx_stmt(ctx)
            else:
                body += getattr(self, ft + "_stmt")(ctx)
            if r.random() < 0.5:
                body += self.stmts(ctx, r.randint(1, 2), 1, 1)
        if "cx" in shared:
            body.insert(0, "  __shared__ unsigned int cx[512];")
        pool = [x for x, _ in ctx["vars"] if x not in ("s", "m", "acc")]
        body.append("  if (inside) {")
        body.append("    out[i] = acc ^ %s;" % r.choice(pool))
        body.append("    fout[i] = f;")
        body.append("  }")
        body.append("}")
        # a tile declared and never used is no warp-level code: the expectation follows the statements written
        warp = self.WARP_THREAD_EXPECT.split(",") if used & set(self.MODERN_WARP_FEATURES) else []
        clauses = warp + sorted(ctx["refuse"] - set(warp))
        k.expect = "refuse" if "refuse" in clauses else ",".join(clauses) or "accept"
        self.modern_io(k, body)

    def modern_io(self, k, body):
        """The kernel's text (its header and body) and host side: the outputs `out` and `fout` and the
        launches of the modern kinds' signature."""
        r = self.rng
        k.src = self.header(k, "unsigned int *out, float *fout, const unsigned int *in, const float *fin, %s, "
                               "int nin, unsigned int m, unsigned int s" % self.extent_params()) + body
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)
        fo = self.add_output(k, "%s_fout" % k.name, "float", 0)

        def args(ln, dom, off, mval):
            return "%s + %s, %s + %s, d_in, d_fin, %s, %d, %s, %du" % (o, off, fo, off, self.ext_args(dom), NIN,
                                                                       self.m_value(), r.randrange(1 << 16))

        self.set_count(k, self.emit_launches(k, args, self.elements))

    def k_cgcoal(self, k):
        """A return that only some threads take, then coalesced groups at the top level: their
        queries, votes, shuffles, cg::reduce, a later return and a group made again after it.  Thread
        mode refuses coalesced groups; block mode writes the rest of the kernel per logical block,
        where every variable it writes varies along the variant's dimensions (with several, one
        that varies along fewer keeps the refusal)."""
        r = self.rng
        ctx = self.new_ctx()
        ctx["gid"] = False
        coord, inside = self.coord_lines()
        body = coord + ["  bool inside = %s;" % inside,
                        "  unsigned int v = inside ? in[i % nin] : s;",
                        "  unsigned int acc = v ^ m;",
                        "  float f = inside ? fin[i % nin] : 0.0f;"]
        ctx["vars"] += [("v", True), ("acc", True), ("(unsigned int)i", True)]
        ctx["locals"] |= {"v", "acc"}
        ctx["float"] = "f"
        body += self.stmts(ctx, r.randint(0, 2), 1, 1)
        body += ["  if (%s)" % r.choice(["!inside", "!inside || (v & %du) == %du" % (7, r.randrange(7)),
                                          "!inside || (acc % 5u) == 1u"]),
                 "    return;"]
        body += self.stmts(ctx, r.randint(0, 1), 1, 1)
        groups = ["act"]
        body.append("  cg::coalesced_group act = cg::coalesced_threads();")
        for _ in range(r.randint(2, 5)):
            g = groups[-1]
            e = "(unsigned int)(%s)" % self.expr(ctx, 1)
            c = r.randrange(9)
            if c == 0:
                body.append("  acc += %s.thread_rank() * %du + %s.size();" % (g, r.choice([3, 5, 31]), g))
            elif c == 1:
                body.append("  acc ^= %s.ballot(%s) * %du;" % (g, self.modern_pred(ctx), r.choice([1, 3])))
            elif c == 2:
                body.append("  acc += %s.shfl(%s, %s);" % (g, e, r.choice(["0", "%s.size() - 1" % g])))
            elif c == 3:
                body.append("  acc ^= %s.%s(%s, 1u);" % (g, r.choice(["shfl_down", "shfl_up"]), e))
            elif c == 4:
                body.append("  acc = acc * 3u + (unsigned int)%s.any(%s) + (unsigned int)%s.all(%s) * 2u;" %
                            (g, self.modern_pred(ctx), g, self.modern_pred(ctx)))
            elif c == 5:
                w = self.fresh("w")
                ctx["vars"].append((w, True))
                ctx["locals"].add(w)
                body.append("  unsigned int %s = cg::reduce(%s, %s, cg::%s<unsigned int>());" %
                            (w, g, e, r.choice(["plus", "bit_xor", "greater"])))
            elif c == 6:
                body.append("  acc += cg::%s(%s, %s);" % (r.choice(["inclusive_scan", "exclusive_scan"]), g, e))
            elif c == 7 and len(groups) < 3:
                # a later return, and the group of the threads left
                body += ["  if ((%s & %du) == %du)" % (e, r.choice([3, 7]), r.randrange(3)), "    return;"]
                groups.append("act%d" % len(groups))
                body.append("  cg::coalesced_group %s = cg::coalesced_threads();" % groups[-1])
            else:
                body.append("  acc ^= (%s.thread_rank() == 0 ? %s : 0u) + %s.meta_group_size();" % (g, e, g))
            if r.random() < 0.4:
                body += self.stmts(ctx, 1, 1, 1)
        pool = [x for x, _ in ctx["vars"] if x not in ("s", "m", "acc")]
        body += ["  out[i] = acc ^ %s;" % r.choice(pool), "  fout[i] = f;", "}"]
        k.expect = "refuse-thread,may-refuse-block@yz"
        self.modern_io(k, body)

    def k_cgrow(self, k):
        """One tile per row (llm.c's layernorm and softmax): the row is the tile's index among all the
        grid's tiles; the tile's lanes stride along the row and combine with cg::reduce or a scan; the
        number of rows is a multiple of the tiles of a warp, so a warp leaves whole."""
        r = self.rng
        k.expect = self.WARP_THREAD_EXPECT
        ctx = self.new_ctx()
        ctx["gid"] = False
        n = r.choice([4, 8, 16, 32, 32])
        lines = self.header(k, "unsigned int *out, unsigned int *rows, const unsigned int *in, int nrows, "
                               "int ncols, int nin, unsigned int m, unsigned int s")
        lines.append("  cg::thread_block block = cg::this_thread_block();")
        lines.append("  cg::thread_block_tile<%d> tile = cg::tiled_partition<%d>(block);" % (n, n))
        lines.append("  int row = %s * tile.meta_group_size() + tile.meta_group_rank();" % self.linear_block())
        lines.append("  if (row >= nrows)")
        lines.append("    return;")
        lines.append("  unsigned int acc = s;")
        lines.append("  for (int c = tile.thread_rank(); c < ncols; c += tile.size())")
        lines.append("    acc %s in[(row * ncols + c) %% nin] * %du;" % (r.choice(["+=", "^="]), r.choice([1, 3, 5])))
        ctx["vars"] += [("acc", True), ("(unsigned int)row", False), ("tile.thread_rank()", True)]
        ctx["locals"].add("acc")
        lines += self.stmts(ctx, r.randint(0, 2), 1, 1)
        op = r.choice(["plus", "plus", "greater", "bit_xor", "less"])
        lines.append("  unsigned int total = cg::reduce(tile, acc, cg::%s<unsigned int>());" % op)
        if r.random() < 0.5:
            lines.append("  unsigned int pre = cg::%s(tile, acc);" % r.choice(["inclusive_scan", "exclusive_scan"]))
        else:
            lines.append("  unsigned int pre = tile.shfl_xor(acc, %du) + tile.ballot((acc & 1u) != 0u);" %
                         r.choice([x for x in (1, 2, 4, 8, 16) if x < n]))
        ctx["vars"] += [("total", True), ("pre", True)]
        lines += self.stmts(ctx, r.randint(0, 2), 1, 1)
        lines.append("  for (int c = tile.thread_rank(); c < ncols; c += tile.size())")
        lines.append("    out[row * ncols + c] = in[(row * ncols + c) % nin] ^ total;")
        lines.append("  if (tile.thread_rank() == %du)" % r.choice([0, n - 1]))
        lines.append("    rows[row] = total + pre * 3u;")
        lines.append("}")
        k.src = lines
        o = self.add_output(k, "%s_out" % k.name, "unsigned int", 0)
        ro = "d_%s_rows" % k.name
        k.outputs.append((ro, "unsigned int", 0, "%s_rows" % k.name))
        shape = []  # (rows, cols) of the launch being made: per() runs before args()

        def per(dom, grid, block):
            tiles = grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2] // n
            nrows = max(32 // n, tiles - r.randrange(0, 4) * (32 // n))
            shape.append((nrows, r.choice([1, 7, 32, 45, 100])))
            return nrows * shape[-1][1]

        def args(ln, dom, off, mval):
            # the row sums go to the launch's region of a buffer as large as the elements'
            nrows, ncols = shape[-1]
            return "%s + %s, %s + %s, d_in, %d, %d, %d, %s, %du" % (o, off, ro, off, nrows, ncols, NIN,
                                                                   self.m_value(), r.randrange(1 << 16))

        total = self.emit_launches(k, args, per)
        k.outputs = [(dv, ct, total if c == 0 else c, lb) for dv, ct, c, lb in k.outputs]

    # ---- program ---------------------------------------------------------------
    def generate(self):
        p = self.p
        kinds = [("elementwise", p["w_elementwise"]), ("gridstride", p["w_gridstride"]),
                 ("stencil", p["w_stencil"]), ("reduce", p["w_reduce"]), ("histogram", p["w_histogram"]),
                 ("atomics", p["w_atomics"]), ("template", p["w_template"]), ("struct", p["w_struct"]),
                 ("dynshared", p["w_dynshared"]), ("shuffle", p["w_shuffle"]),
                 ("barrier_block", p["w_barrier_block"]), ("barrier_thread", p["w_barrier_thread"]),
                 ("barrier_both", p["w_barrier_both"]), ("uniform_switch", p["w_uniform_switch"])]
        # the kinds of profile `reach` join only where weighted, so that the
        # other profiles draw exactly as before
        kinds += [(kd, p["w_" + kd]) for kd in REACH_KINDS + MODERN_KINDS if p["w_" + kd] > 0]
        for n in range(self.nkernels):
            kind = pick_weighted(self.rng, kinds)
            k = Kernel("k%d_%s" % (n, kind), kind)
            k.zero = None  # memset value of the outputs; None: poison with 0xAB
            if kind == "elementwise":
                self.k_elementwise(k)
            elif kind == "template":
                self.k_elementwise(k, template=True)
            elif kind == "struct":
                self.k_elementwise(k, use_struct=True)
            elif kind == "gridstride":
                self.k_gridstride(k)
            elif kind == "stencil":
                self.k_stencil(k)
            elif kind == "reduce":
                self.k_reduce(k)
            elif kind == "histogram":
                self.k_histogram(k)
            elif kind == "atomics":
                self.k_atomics(k)
            elif kind == "dynshared":
                self.k_dynshared(k)
            elif kind == "shuffle":
                self.k_shuffle(k)
            elif kind.startswith("barrier_"):
                self.k_barrier(k, kind[len("barrier_"):])
            elif kind == "uniform_switch":
                self.k_uniform_switch(k)
            else:
                getattr(self, "k_" + kind)(k)
            self.kernels.append(k)
        return self.render()

    def thread_k(self):
        parts = []
        for d in range(3):
            # profile `modern`: thread mode keeps warps whole where blockDim.x / K is a multiple of 32
            unit = 32 if d == 0 and self.profile in MODERN_PROFILES else 1
            ks = [K for K in THREAD_FACTORS.get(self.profile, (2, 3, 4, 8)) if all(b[d] % (unit * K) == 0 for k in self.kernels for b in k.blocks)]
            parts.append("%s:%s" % (DIMS[d], ",".join(str(K) for K in ks) or "-"))
        return ";".join(parts)

    def render(self):
        out = []
        out.append("// tfuse-fuzz: seed=%d profile=%s dims=%d kernels=%d thread-k=%s" %
                   (self.seed, self.profile, self.dims, len(self.kernels), self.thread_k()))
        out.append("// Generated by test/fuzz/gen.py; see test/fuzz/README.md.")
        out.append("#include <cstdio>")
        out.append("#include <cstdint>")
        out.append("#include <cstring>")
        out.append("#include <cstdlib>")
        out.append("#include <cuda_runtime.h>")
        if self.profile in MODERN_PROFILES:
            out.append("#include <cooperative_groups.h>")
            out.append("#include <cooperative_groups/reduce.h>")
            out.append("#include <cooperative_groups/scan.h>")
            out.append("")
            out.append("namespace cg = cooperative_groups;")
        out.append("")
        out.append("#define CK(call, where)                                                  \\")
        out.append("  do {                                                                   \\")
        out.append("    cudaError_t err_ = (call);                                           \\")
        out.append("    if (err_ != cudaSuccess) {                                           \\")
        out.append("      printf(\"cuda-error %s %s\\n\", where, cudaGetErrorString(err_));    \\")
        out.append("      return 3;                                                          \\")
        out.append("    }                                                                    \\")
        out.append("  } while (0)")
        out.append("")
        for i in range(int(self.p["pad_helpers"])):
            r = i % 3
            if r == 0:
                out.append("__device__ unsigned int pad_h%d(unsigned int x) { return x * %du + %du; }" %
                           (i, 2 * i + 1, i))
            elif r == 1:
                out.append("struct PadS%d { unsigned int v; __device__ unsigned int get() const { return v + %du; } };"
                           % (i, i))
            else:
                out.append("template <class T> __device__ T pad_t%d(T x) { return x + T(%d); }" % (i, i % 97))
        if self.p["pad_helpers"]:
            out.append("")
        if "Pair" in self.structs:
            out.append("struct Pair {")
            out.append("  unsigned int a, b;")
            out.append("  __device__ void mix(unsigned int v) {")
            out.append("    a = a * 33u + v;")
            out.append("    b ^= a >> 3;")
            out.append("  }")
            out.append("  __device__ unsigned int sum() const { return a + b; }")
            out.append("};")
            out.append("")
        for g in self.devglobal_src:
            out.append(g)
        if self.devglobal_src:
            out.append("")
        for h in self.helpers:
            out.append(h)
        for k in self.kernels:
            out += k.src
            out.append("")
        # host
        out.append("static uint32_t lcg_state = %du;" % (self.seed * 2654435761 % (1 << 32) | 1))
        out.append("static uint32_t lcg() {")
        out.append("  lcg_state = lcg_state * 1664525u + 1013904223u;")
        out.append("  return lcg_state >> 8;")
        out.append("}")
        out.append("")
        out.append("static void print_hash(const char *label, const void *p, size_t n) {")
        out.append("  const unsigned char *b = (const unsigned char *)p;")
        out.append("  uint64_t h = 14695981039346656037ull;")
        out.append("  for (size_t k = 0; k < n; ++k) {")
        out.append("    h ^= b[k];")
        out.append("    h *= 1099511628211ull;")
        out.append("  }")
        out.append("  printf(\"hash %s %016llx\\n\", label, (unsigned long long)h);")
        out.append("}")
        out.append("")
        out.append("int main() {")
        out.append("  const int nin = %d;" % NIN)
        out.append("  unsigned int *h_in = (unsigned int *)malloc(nin * sizeof(unsigned int));")
        out.append("  float *h_fin = (float *)malloc(nin * sizeof(float));")
        out.append("  for (int k = 0; k < nin; ++k) {")
        out.append("    h_in[k] = lcg();")
        out.append("    h_fin[k] = (float)(int)(lcg() % 4001u - 2000) / 64.0f;")
        out.append("  }")
        out.append("  unsigned int *d_in;")
        out.append("  float *d_fin;")
        out.append("  CK(cudaMalloc(&d_in, nin * sizeof(unsigned int)), \"malloc-in\");")
        out.append("  CK(cudaMalloc(&d_fin, nin * sizeof(float)), \"malloc-fin\");")
        out.append("  CK(cudaMemcpy(d_in, h_in, nin * sizeof(unsigned int), cudaMemcpyHostToDevice), \"copy-in\");")
        out.append("  CK(cudaMemcpy(d_fin, h_fin, nin * sizeof(float), cudaMemcpyHostToDevice), \"copy-fin\");")
        out.append("  cudaStream_t stream;")
        out.append("  CK(cudaStreamCreate(&stream), \"stream\");")
        for k in self.kernels:
            for dv, ct, cnt, lb in k.outputs:
                out.append("  %s *%s;" % (ct, dv))
                out.append("  CK(cudaMalloc(&%s, %d * sizeof(%s)), \"malloc-%s\");" % (dv, cnt, ct, lb))
                out.append("  CK(cudaMemset(%s, %s, %d * sizeof(%s)), \"poison-%s\");" %
                           (dv, k.zero or "0xAB", cnt, ct, lb))
        out.append("")
        for k in self.kernels:
            out.append("  // %s (%s)" % (k.name, k.kind))
            out += k.host
        out.append("  CK(cudaDeviceSynchronize(), \"sync\");")
        out.append("")
        for k in self.kernels:
            for dv, ct, cnt, lb in k.outputs:
                hv = "h_" + lb
                out.append("  {")
                out.append("    %s *%s = (%s *)malloc(%d * sizeof(%s));" % (ct, hv, ct, cnt, ct))
                out.append("    CK(cudaMemcpy(%s, %s, %d * sizeof(%s), cudaMemcpyDeviceToHost), \"copy-%s\");"
                           % (hv, dv, cnt, ct, lb))
                out.append("    print_hash(\"%s\", %s, %d * sizeof(%s));" % (lb, hv, cnt, ct))
                out.append("    free(%s);" % hv)
                out.append("  }")
            for sym, ct, cnt in k.devglobals:
                out.append("  {")
                out.append("    %s h_%s[%d];" % (ct, sym, cnt))
                out.append("    CK(cudaMemcpyFromSymbol(h_%s, %s, sizeof(h_%s)), \"copy-%s\");" %
                           (sym, sym, sym, sym))
                out.append("    print_hash(\"%s\", h_%s, sizeof(h_%s));" % (sym, sym, sym))
                out.append("  }")
        out.append("  return 0;")
        out.append("}")
        return "\n".join(out) + "\n"


def parse_set(items):
    res = {}
    for it in items or []:
        if "=" not in it:
            sys.exit("gen.py: --set wants key=value, got %r" % it)
        k, v = it.split("=", 1)
        if k not in PROBS:
            sys.exit("gen.py: unknown key %r (known: %s)" % (k, ", ".join(sorted(PROBS))))
        res[k] = type(PROBS[k])(float(v)) if isinstance(PROBS[k], (int, float)) else v
    return res


def generate(seed, kernels=None, profile="default", overrides=None):
    return Gen(seed, kernels, profile, overrides or {}).generate()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--kernels", type=int)
    ap.add_argument("--profile", default="default", choices=sorted(PROFILES))
    ap.add_argument("--set", action="append", metavar="KEY=VALUE")
    ap.add_argument("-o", dest="out", default="-")
    a = ap.parse_args()
    text = generate(a.seed, a.kernels, a.profile, parse_set(a.set))
    if a.out == "-":
        sys.stdout.write(text)
    else:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
