#!/usr/bin/env python3
"""Draw speedup against K, one panel per kernel, from the gpu-check results.

usage: python3 scripts/plot-speedup.py RESULTS.csv [-o speedup.png]
                                       [--title TEXT] [--no-matplotlib]

RESULTS.csv is the results.csv written by gpu-work/run.sh (see
docs/BENCHMARK.md); the columns used are kernel, variant, k, speedup and
check. Each panel is one kernel (sample), each line one variant
(mode.dim[.flags]) through its speedups over the original at K = 1, 2, 4,
8, 16 on a log2 K axis, with a dashed line at 1.0 (no change; K = 1 shows
the run-to-run noise). A point whose check is not PASS is drawn as a red
cross; a variant without a time (refused, compile failure) has no point.

Uses matplotlib when it can be imported; otherwise (or with
--no-matplotlib) a small built-in writer draws the same layout with zlib
and struct only, so a bare python3 suffices.
"""
import argparse
import csv
import math
import struct
import sys
import zlib
from collections import OrderedDict

PALETTE = [
    (31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40),
    (148, 103, 189), (140, 86, 75), (227, 119, 194), (127, 127, 127),
    (188, 189, 34), (23, 190, 207),
]


def read_results(path):
    """{kernel: {variant: [(k, speedup or None, check)]}} in file order."""
    data = OrderedDict()
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        missing = {"kernel", "variant", "k", "speedup"} - set(rows.fieldnames or [])
        if missing:
            sys.exit("plot-speedup: %s lacks the column(s) %s" % (path, ", ".join(sorted(missing))))
        for r in rows:
            try:
                k = int(r["k"])
            except ValueError:
                continue
            try:
                sp = float(r["speedup"])
                if not math.isfinite(sp) or sp <= 0:
                    sp = None
            except (TypeError, ValueError):
                sp = None
            var = data.setdefault(r["kernel"], OrderedDict()).setdefault(r["variant"], [])
            var.append((k, sp, (r.get("check") or "").strip()))
    for variants in data.values():
        for pts in variants.values():
            pts.sort()
    return data


def k_range(data):
    ks = [k for v in data.values() for pts in v.values() for k, _, _ in pts]
    lo, hi = (min(ks), max(ks)) if ks else (1, 16)
    lo, hi = min(lo, 1), max(hi, 16)
    ticks = []
    t = 1
    while t <= hi:
        if t >= lo:
            ticks.append(t)
        t *= 2
    return lo, hi, ticks


def panel_ymax(variants):
    sps = [sp for pts in variants.values() for _, sp, _ in pts if sp is not None]
    top = max(sps + [1.0])
    return nice_ceil(top * 1.08)


def nice_ceil(v):
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten >= v."""
    e = 10 ** math.floor(math.log10(v))
    for m in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * e >= v - 1e-12:
            return m * e
    return 10 * e


def y_ticks(ymax):
    for step in (0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25, 50, 100):
        if ymax / step <= 8:
            break
    n = int(math.floor(ymax / step + 1e-9))
    return [round(i * step, 6) for i in range(n + 1)]


def layout(n):
    cols = 1 if n <= 1 else 2 if n <= 4 else 3
    rows = (n + cols - 1) // cols
    return rows, cols


# ---- matplotlib ---------------------------------------------------------------

def plot_matplotlib(data, out, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lo, hi, ticks = k_range(data)
    rows, cols = layout(len(data))
    fig, axes = plt.subplots(rows, cols, figsize=(5.6 * cols, 4.2 * rows), squeeze=False)
    for idx, (kernel, variants) in enumerate(data.items()):
        ax = axes[idx // cols][idx % cols]
        for vi, (variant, pts) in enumerate(variants.items()):
            color = tuple(c / 255.0 for c in PALETTE[vi % len(PALETTE)])
            xs = [k for k, sp, _ in pts if sp is not None]
            ys = [sp for _, sp, _ in pts if sp is not None]
            ax.plot(xs, ys, marker="o", markersize=4, linewidth=1.6, color=color, label=variant)
            bad = [(k, sp) for k, sp, chk in pts if sp is not None and chk not in ("", "PASS")]
            if bad:
                ax.plot([b[0] for b in bad], [b[1] for b in bad], linestyle="none",
                        marker="x", markersize=9, markeredgewidth=2, color="red")
        ax.axhline(1.0, color="black", linestyle="--", linewidth=1)
        ax.set_xscale("log", base=2)
        ax.set_xlim(lo / 1.15, hi * 1.15)
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(t) for t in ticks])
        ax.set_ylim(0, panel_ymax(variants))
        ax.set_title(kernel)
        ax.set_xlabel("K (coarsening factor)")
        ax.set_ylabel("speedup over original")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=8, loc="best")
    for idx in range(len(data), rows * cols):
        axes[idx // cols][idx % cols].axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    plt.close(fig)


# ---- the dependency-free writer --------------------------------------------------

# 5x7 font (the classic "glcdfont"), ASCII 0x20..0x7E: five column bytes per
# character, bit 0 the top row.
FONT_HEX = (
    "0000000000" "00005f0000" "0007000700" "147f147f14" "242a7f2a12" "2313086462"
    "3649562050" "0008070300" "001c224100" "0041221c00" "2a1c7f1c2a" "08083e0808"
    "0080703000" "0808080808" "0000606000" "2010080402" "3e5149453e" "00427f4000"
    "7249494946" "2141494d33" "1814127f10" "2745454539" "3c4a494931" "4121110907"
    "3649494936" "464949291e" "0000140000" "0040340000" "0008142241" "1414141414"
    "0041221408" "0201590906" "3e415d594e" "7c1211127c" "7f49494936" "3e41414122"
    "7f4141413e" "7f49494941" "7f09090901" "3e41415173" "7f0808087f" "00417f4100"
    "2040413f01" "7f08142241" "7f40404040" "7f021c027f" "7f0408107f" "3e4141413e"
    "7f09090906" "3e4151215e" "7f09192946" "2649494932" "03017f0103" "3f4040403f"
    "1f2040201f" "3f4038403f" "6314081463" "0304780403" "6159494d43" "007f414141"
    "0204081020" "004141417f" "0402010204" "4040404040" "0003070800" "2054547840"
    "7f28444438" "3844444428" "384444287f" "3854545418" "00087e0902" "18a4a49c78"
    "7f08040478" "00447d4000" "2040403d00" "7f10284400" "00417f4000" "7c04780478"
    "7c08040478" "3844444438" "fc18242418" "18242418fc" "7c08040408" "4854545424"
    "04043f4424" "3c4040207c" "1c2040201c" "3c4030403c" "4428102844" "4c9090907c"
    "4464544c44" "0008364100" "0000770000" "0041360800" "0201020402"
)
FONT = [bytes.fromhex(FONT_HEX[i * 10:i * 10 + 10]) for i in range(len(FONT_HEX) // 10)]


class Canvas:
    def __init__(self, w, h, bg=(255, 255, 255)):
        self.w, self.h = w, h
        self.px = bytearray(bytes(bg) * (w * h))

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = (y * self.w + x) * 3
            self.px[i:i + 3] = bytes(c)

    def rect(self, x0, y0, x1, y1, c):
        for y in range(max(0, y0), min(self.h, y1 + 1)):
            i = (y * self.w + max(0, x0)) * 3
            n = min(self.w, x1 + 1) - max(0, x0)
            if n > 0:
                self.px[i:i + 3 * n] = bytes(c) * n

    def line(self, x0, y0, x1, y1, c, width=1, dash=0):
        """Bresenham with a square brush of the given width; dash > 0 draws
        dash pixels on, dash pixels off."""
        x0, y0, x1, y1 = int(round(x0)), int(round(y0)), int(round(x1)), int(round(y1))
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err, step, r = dx + dy, 0, width // 2
        while True:
            if not dash or (step // dash) % 2 == 0:
                self.rect(x0 - r, y0 - r, x0 - r + width - 1, y0 - r + width - 1, c)
            if x0 == x1 and y0 == y1:
                break
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy
            step += 1

    def disc(self, cx, cy, r, c):
        cx, cy = int(round(cx)), int(round(cy))
        for y in range(-r, r + 1):
            for x in range(-r, r + 1):
                if x * x + y * y <= r * r + r:
                    self.set(cx + x, cy + y, c)

    def text(self, x, y, s, c=(0, 0, 0), scale=1, vertical=False):
        """Draws s with its top-left corner at (x, y) (vertical: reading
        bottom to top, with (x, y) the bottom-left corner)."""
        for ch in s:
            o = ord(ch) - 32
            glyph = FONT[o] if 0 <= o < len(FONT) else FONT[ord("?") - 32]
            for col, bits in enumerate(glyph):
                for row in range(8):
                    if bits >> row & 1:
                        if vertical:
                            px, py = x + row * scale, y - (col + 1) * scale
                        else:
                            px, py = x + col * scale, y + row * scale
                        self.rect(px, py, px + scale - 1, py + scale - 1, c)
            if vertical:
                y -= 6 * scale
            else:
                x += 6 * scale

    def png(self, path):
        raw = bytearray()
        stride = self.w * 3
        for y in range(self.h):
            raw.append(0)
            raw += self.px[y * stride:(y + 1) * stride]

        def chunk(tag, body):
            return (struct.pack(">I", len(body)) + tag + body
                    + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n")
            f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)))
            f.write(chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
            f.write(chunk(b"IEND", b""))


def text_width(s, scale):
    return len(s) * 6 * scale - scale


def fmt_tick(v):
    return ("%g" % v)


def plot_builtin(data, out, title):
    lo, hi, ticks = k_range(data)
    rows, cols = layout(len(data))
    pw, ph = 600, 460          # one panel
    top = 50                   # the title band
    W, H = pw * cols, top + ph * rows
    cv = Canvas(W, H)
    S = 2                      # text scale: 10x14-pixel characters
    cv.text((W - text_width(title, S)) // 2, 16, title, scale=S)
    black, grey, light = (0, 0, 0), (110, 110, 110), (225, 225, 225)
    llo, lhi = math.log2(lo) - 0.15, math.log2(hi) + 0.15
    for idx, (kernel, variants) in enumerate(data.items()):
        ox, oy = (idx % cols) * pw, top + (idx // cols) * ph
        # plot area inside the panel
        ax0, ax1 = ox + 96, ox + pw - 20
        ay0, ay1 = oy + 34, oy + ph - 62
        ymax = panel_ymax(variants)

        def X(k):
            return ax0 + (math.log2(k) - llo) / (lhi - llo) * (ax1 - ax0)

        def Y(v):
            return ay1 - v / ymax * (ay1 - ay0)
        cv.text(ox + (pw - text_width(kernel, S)) // 2, oy + 8, kernel, scale=S)
        for t in y_ticks(ymax):
            y = int(round(Y(t)))
            cv.line(ax0, y, ax1, y, light)
            lab = fmt_tick(t)
            cv.text(ax0 - 8 - text_width(lab, S), y - 7, lab, scale=S)
        for t in ticks:
            x = int(round(X(t)))
            cv.line(x, ay0, x, ay1, light)
            cv.line(x, ay1, x, ay1 + 5, black)
            cv.text(x - text_width(str(t), S) // 2, ay1 + 10, str(t), scale=S)
        xl = "K (coarsening factor)"
        cv.text((ax0 + ax1 - text_width(xl, S)) // 2, ay1 + 32, xl, scale=S)
        yl = "speedup"
        cv.text(ox + 12, (ay0 + ay1 + text_width(yl, S)) // 2, yl, scale=S, vertical=True)
        y1 = int(round(Y(1.0)))
        cv.line(ax0, y1, ax1, y1, black, width=2, dash=8)
        for vi, (variant, pts) in enumerate(variants.items()):
            col = PALETTE[vi % len(PALETTE)]
            good = [(X(k), Y(sp)) for k, sp, _ in pts if sp is not None]
            for (xa, ya), (xb, yb) in zip(good, good[1:]):
                cv.line(xa, ya, xb, yb, col, width=3)
            for x, y in good:
                cv.disc(x, y, 4, col)
            for k, sp, chk in pts:
                if sp is not None and chk not in ("", "PASS"):
                    x, y = int(round(X(k))), int(round(Y(sp)))
                    cv.line(x - 7, y - 7, x + 7, y + 7, (220, 0, 0), width=3)
                    cv.line(x - 7, y + 7, x + 7, y - 7, (220, 0, 0), width=3)
        # the frame, drawn last
        cv.line(ax0, ay0, ax1, ay0, black)
        cv.line(ax0, ay1, ax1, ay1, black)
        cv.line(ax0, ay0, ax0, ay1, black)
        cv.line(ax1, ay0, ax1, ay1, black)
        # legend on a white box, in the corner of the plot area that covers
        # the fewest points of the lines
        names = list(variants)
        lw = max(text_width(n, S) for n in names) + 44 if names else 0
        lh = len(names) * 18 + 8
        samples = []
        for pts in variants.values():
            good = [(X(k), Y(sp)) for k, sp, _ in pts if sp is not None]
            for (xa, ya), (xb, yb) in zip(good, good[1:]):
                samples += [(xa + (xb - xa) * i / 20, ya + (yb - ya) * i / 20) for i in range(21)]
            samples += good
        corners = [(ax0 + 8, ay0 + 8), (ax1 - 8 - lw, ay0 + 8),
                   (ax0 + 8, ay1 - 8 - lh), (ax1 - 8 - lw, ay1 - 8 - lh)]

        def covered(c):
            return sum(1 for x, y in samples if c[0] - 6 <= x <= c[0] + lw + 6 and c[1] - 6 <= y <= c[1] + lh + 6)
        lx, ly = min(corners, key=covered)
        if names:
            cv.rect(lx, ly, lx + lw, ly + lh, (255, 255, 255))
            cv.line(lx, ly, lx + lw, ly, grey)
            cv.line(lx, ly + lh, lx + lw, ly + lh, grey)
            cv.line(lx, ly, lx, ly + lh, grey)
            cv.line(lx + lw, ly, lx + lw, ly + lh, grey)
        for vi, name in enumerate(names):
            col = PALETTE[vi % len(PALETTE)]
            yy = ly + 6 + vi * 18
            cv.line(lx + 6, yy + 7, lx + 30, yy + 7, col, width=3)
            cv.disc(lx + 18, yy + 7, 4, col)
            cv.text(lx + 38, yy, name, scale=S)
    cv.png(out)


def main():
    ap = argparse.ArgumentParser(description="Plot speedup against K from gpu-work/results.csv.")
    ap.add_argument("csv", help="results.csv written by gpu-work/run.sh")
    ap.add_argument("-o", "--output", default="speedup.png", help="the PNG to write (default speedup.png)")
    ap.add_argument("--title", default="tfuse: speedup over the original against K (red x: check failed)")
    ap.add_argument("--no-matplotlib", action="store_true", help="use the built-in PNG writer")
    a = ap.parse_args()
    try:
        data = read_results(a.csv)
    except OSError as e:
        sys.exit("plot-speedup: %s" % e)
    if not data:
        sys.exit("plot-speedup: no rows in %s" % a.csv)
    how = "built-in writer"
    if not a.no_matplotlib:
        try:
            import matplotlib  # noqa: F401
            how = "matplotlib"
        except ImportError:
            pass
    if how == "matplotlib":
        plot_matplotlib(data, a.output, a.title)
    else:
        plot_builtin(data, a.output, a.title)
    print("plot-speedup: wrote %s (%d kernels, %s)" % (a.output, len(data), how))


if __name__ == "__main__":
    main()
