#!/usr/bin/env python3
"""`make bench-peers`: glslice's batch against Skia and libvips on one manifest.

Every renderer draws the same jobs: `glslice-bench plans` writes each job's
cells as glslice lays them out (the same per-axis mappings the CPU and GPU
backends sample), so the peers are timed on drawing and PNG encoding only.
Peers use every core through a process pool; glslice uses its own workers.

  Skia (skia-python), written for speed: each source decoded once to a raster
  image, each wrapped cell's subset and repeat shader made once per source;
  per piece either drawImageRect (strict constraint, linear or nearest) of the
  source rectangle that maps onto exactly that piece, or a rect filled with the
  cached shader under the piece's local matrix. No save/clip/restore, no
  per-piece makeSubset. PNG through Skia's encoder.
  libvips (pyvips): crop, resize or replicate, insert, then pngsave.

Prints one table from one run (glslice's rows, Skia's and the floor are the
median of RUNS=3 runs each, as their few seconds vary by ±20% on a small VM;
libvips runs once).
The floor comes in two parts, measured after each CPU run on its outputs:
encoding them again with no file made, and writing the same bytes into as many
new files; glslice's batch is compared with their sum.
Last, Skia's Python glue: its jobs run in one process whole and as calls only
(nothing drawn or encoded), which bounds what a C++ peer would gain (issue 71).
"""
import json
import math
import multiprocessing
import os
import re
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, ".build", "release")
# GLSLICE=path/to/glslice: that build's batch rows (an older commit's, for before-and-after tables).
GLSLICE = os.environ.get("GLSLICE", os.path.join(BIN, "glslice"))


def run_timed(args):
    """Runs a command under /usr/bin/time -v; returns (seconds, peak RSS MiB, stderr)."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v"] + args, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), proc.stderr[-2000:]))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1)) / 1024
    return seconds, rss, proc.stderr


def folder_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder) if f.endswith(".png"))


# --- Skia -------------------------------------------------------------------

_skia_sources = {}


def skia_source(path):
    """A source decoded once into a raster image, with a per-cell cache of its
    subset images and repeat/clamp shaders (what a user who wanted speed keeps)."""
    import skia
    source = _skia_sources.get(path)
    if source is None:
        source = (skia.Image.open(path).makeRasterImage(), {})
        _skia_sources[path] = source
    return source


def skia_job(args):
    plan, out = args
    return skia_render(plan, out)


def skia_render(plan, out, calls_only=False):
    """One job through Skia; `calls_only`: every Python object and call made as for the job, but
    no piece drawn and nothing encoded or written (what skia-python's glue costs, for
    `skia_python_share`)."""
    import skia
    image, shaders = skia_source(plan["input"])
    surface = skia.Surface.MakeRasterN32Premul(plan["width"], plan["height"])
    canvas = surface.getCanvas()
    canvas.clear(skia.ColorTRANSPARENT)
    linear = plan["linear"]
    sampling = skia.SamplingOptions(skia.FilterMode.kLinear if linear else skia.FilterMode.kNearest)
    paint = skia.Paint(BlendMode=skia.BlendMode.kSrc)
    tiled = skia.Paint(BlendMode=skia.BlendMode.kSrc)
    for piece in plan["pieces"]:
        x, y = piece["x"], piece["y"]
        dst = skia.Rect.MakeLTRB(x["dst"][0], y["dst"][0], x["dst"][1], y["dst"][1])
        if not x["wrap"] and not y["wrap"]:
            # u = s0 + (d + 0.5 - origin) * num / den: the source rectangle that maps
            # onto exactly this piece, so no clip is needed.
            src = skia.Rect.MakeLTRB(
                x["src"][0] + (x["dst"][0] - x["origin"]) * x["num"] / x["den"],
                y["src"][0] + (y["dst"][0] - y["origin"]) * y["num"] / y["den"],
                x["src"][0] + (x["dst"][1] - x["origin"]) * x["num"] / x["den"],
                y["src"][0] + (y["dst"][1] - y["origin"]) * y["num"] / y["den"])
            if not calls_only:
                canvas.drawImageRect(image, src, dst, sampling, paint, skia.Canvas.kStrict_SrcRectConstraint)
        else:
            key = (x["src"][0], x["src"][1], y["src"][0], y["src"][1], x["wrap"], y["wrap"], linear)
            shader = shaders.get(key)
            if shader is None:
                cell = image.makeSubset(skia.IRect.MakeLTRB(x["src"][0], y["src"][0], x["src"][1], y["src"][1]))
                shader = cell.makeShader(skia.TileMode.kRepeat if x["wrap"] else skia.TileMode.kClamp,
                                         skia.TileMode.kRepeat if y["wrap"] else skia.TileMode.kClamp, sampling)
                shaders[key] = shader
            matrix = skia.Matrix.Translate(x["origin"], y["origin"])
            matrix.preScale(x["den"] / x["num"], y["den"] / y["num"])
            tiled.setShader(shader.makeWithLocalMatrix(matrix))
            if not calls_only:
                canvas.drawRect(dst, tiled)
    if calls_only:
        return 0
    data = surface.makeImageSnapshot().encodeToData(skia.EncodedImageFormat.kPNG, 100)
    with open(out, "wb") as f:
        f.write(bytes(data))
    return data.size()


def skia_python_share(plans, folder, runs):
    """Skia's jobs in this one process, whole and as calls only (`skia_render`), alternated,
    medians: the glue's share of Skia's time bounds what the C++ API would gain (issue 71's peer:
    Skia's C++ symbols are hidden in skia-python's module and no Skia library can be fetched here).
    The calls-only pass still allocates and clears each surface, so the share is an upper bound."""
    for plan in plans:
        skia_source(plan["input"])
    os.makedirs(folder, exist_ok=True)
    whole, glue = [], []
    for run in range(runs):
        for calls_only in ((False, True) if run % 2 == 0 else (True, False)):
            began = time.perf_counter()
            for plan in plans:
                skia_render(plan, os.path.join(folder, plan["output"]), calls_only)
            (glue if calls_only else whole).append(time.perf_counter() - began)
    return median(whole), median(glue)


# --- libvips ----------------------------------------------------------------

_vips_images = {}


def vips_piece(image, x, y, kernel, zoomed_cells):
    """One piece of a cell: crop, resize, replicate for wrapped axes, crop to the piece."""
    dx0, dx1, dy0, dy1 = x["dst"][0], x["dst"][1], y["dst"][0], y["dst"][1]
    sx, sy = x["den"] / x["num"], y["den"] / y["num"]
    key = (x["src"][0], x["src"][1], y["src"][0], y["src"][1], sx, sy)
    zoomed = zoomed_cells.get(key)
    if zoomed is None:
        cell = image.crop(x["src"][0], y["src"][0], x["src"][1] - x["src"][0], y["src"][1] - y["src"][0])
        zoomed = cell.resize(sx, vscale=sy, kernel=kernel) if (sx != 1 or sy != 1) else cell
        zoomed_cells[key] = zoomed
    ox, oy = dx0 - x["origin"], dy0 - y["origin"]
    tile = zoomed
    if x["wrap"] or y["wrap"]:
        px = int(ox % zoomed.width) if x["wrap"] else 0
        py = int(oy % zoomed.height) if y["wrap"] else 0
        across = math.ceil((px + dx1 - dx0) / zoomed.width) if x["wrap"] else 1
        down = math.ceil((py + dy1 - dy0) / zoomed.height) if y["wrap"] else 1
        tile = zoomed.replicate(across, down)
        ox, oy = (px if x["wrap"] else ox), (py if y["wrap"] else oy)
    ox, oy = max(0, min(int(ox), tile.width - 1)), max(0, min(int(oy), tile.height - 1))
    w, h = min(dx1 - dx0, tile.width - ox), min(dy1 - dy0, tile.height - oy)
    return tile.crop(ox, oy, w, h) if w > 0 and h > 0 else None


def vips_job(args):
    import pyvips
    plan, out = args
    image = _vips_images.get(plan["input"])
    if image is None:
        image = pyvips.Image.new_from_file(plan["input"], access="random")
        if image.bands == 3:
            image = image.bandjoin(255)
        image = image.premultiply().cast("uchar").copy_memory()
        _vips_images[plan["input"]] = image
    kernel = "linear" if plan["linear"] else "nearest"
    # One image per cell: CSS `space` tiles become a replicated tile-plus-gap.
    cells = {}
    for piece in plan["pieces"]:
        x, y = piece["x"], piece["y"]
        if x["dst"][1] > x["dst"][0] and y["dst"][1] > y["dst"][0]:
            cells.setdefault((tuple(x["src"]), tuple(y["src"])), []).append(piece)
    zoomed_cells = {}
    canvas = pyvips.Image.black(plan["width"], plan["height"], bands=4).cast("uchar")
    for pieces in cells.values():
        xs = sorted({p["x"]["dst"][0]: p["x"] for p in pieces}.values(), key=lambda a: a["dst"][0])
        ys = sorted({p["y"]["dst"][0]: p["y"] for p in pieces}.values(), key=lambda a: a["dst"][0])
        tile = vips_piece(image, xs[0], ys[0], kernel, zoomed_cells)
        if tile is None:
            continue
        if len(xs) > 1:
            pitch = xs[1]["dst"][0] - xs[0]["dst"][0]
            tile = tile.embed(0, 0, pitch, tile.height).replicate(len(xs), 1)
            tile = tile.crop(0, 0, min(tile.width, xs[-1]["dst"][1] - xs[0]["dst"][0]), tile.height)
        if len(ys) > 1:
            pitch = ys[1]["dst"][0] - ys[0]["dst"][0]
            tile = tile.embed(0, 0, tile.width, pitch).replicate(1, len(ys))
            tile = tile.crop(0, 0, tile.width, min(tile.height, ys[-1]["dst"][1] - ys[0]["dst"][0]))
        canvas = canvas.insert(tile, xs[0]["dst"][0], ys[0]["dst"][0])
    canvas.unpremultiply().cast("uchar").pngsave(out, compression=6)
    return os.path.getsize(out)


def run_pool(function, plans, folder, processes):
    os.makedirs(folder, exist_ok=True)
    work = [(plan, os.path.join(folder, plan["output"])) for plan in plans]
    start = time.perf_counter()
    with multiprocessing.Pool(processes) as pool:
        sizes = pool.map(function, work, chunksize=16)
    return time.perf_counter() - start, sum(sizes)


def floor_parts(folder):
    """`glslice-bench floor`: (encode seconds, write-files seconds)."""
    text = subprocess.run([os.path.join(BIN, "glslice-bench"), "floor", folder],
                          capture_output=True, text=True, check=True).stdout
    encode = float(re.search(r"encode \d+ outputs in ([0-9.]+) s", text).group(1))
    files = float(re.search(r"files \(\d+ bytes\) in ([0-9.]+) s", text).group(1))
    return encode, files


def median(values):
    return sorted(values)[len(values) // 2]


def main():
    manifest, work = sys.argv[1], sys.argv[2]
    processes = os.cpu_count() or 1
    plans_path = os.path.join(work, "plans.jsonl")
    subprocess.run([os.path.join(BIN, "glslice-bench"), "plans", manifest, plans_path], check=True)
    plans = [json.loads(line) for line in open(plans_path)]
    n = len(plans)
    runs = int(os.environ.get("RUNS", "3"))
    # Every run writes into a fresh folder and nothing is deleted until the end:
    # on this VM's journal-less ext4, files created within minutes of deleting
    # thousands of others cost up to 5x more (the kernel skips recently freed
    # inodes), which would charge one run for the previous run's clean-up.
    for old in os.listdir(work):
        if old.startswith("run-"):
            subprocess.run(["rm", "-rf", os.path.join(work, old)])
    run_dir = os.path.join(work, "run-%d" % os.getpid())
    os.makedirs(run_dir)
    rows = []
    cpu_folders, floors = [], []
    # glslice's runs are a few seconds on a noisy 2-core VM: the median of `runs`,
    # each CPU run followed by the floor on its own outputs.
    # `--compression zlib` (zlib 6, the default before renderer 7, issue 51) is the same manifest
    # with every line saying so.
    zlib_manifest = os.path.join(work, "manifest-zlib.jsonl")
    with open(manifest) as src, open(zlib_manifest, "w") as out:
        for line in src:
            if line.strip():
                out.write(json.dumps(dict(json.loads(line), compression="zlib")) + "\n")
    for backend, name, jobs in (("cpu", "cpu", manifest), ("cpu", "cpu-zlib", zlib_manifest), ("gpu", "gpu", manifest)):
        timings = []
        for run in range(runs):
            out = os.path.join(run_dir, "glslice-%s-%d" % (name, run))
            timings.append(run_timed([GLSLICE, "batch", jobs, "--backend", backend,
                                      "--out-dir", out]))
            if name == "cpu":
                cpu_folders.append(out)
                floors.append(floor_parts(out))
        label = "glslice batch --backend " + backend + (" --compression zlib" if name == "cpu-zlib" else "")
        rows.append((label, median([t[0] for t in timings]),
                     folder_bytes(os.path.join(run_dir, "glslice-%s-0" % name)), max(t[1] for t in timings)))
    encode_seconds = median([f[0] for f in floors])
    files_seconds = median([f[1] for f in floors])
    floor_seconds = median([f[0] + f[1] for f in floors])
    # Skia, the peer the farm is held to, as many runs as glslice (their median: a single run of it
    # moved 3.3-4.3 s between calls); libvips, far behind, once.
    for name, function, peer_runs in (("Skia (skia-python %d procs)" % processes, skia_job, runs),
                                      ("libvips (pyvips %d procs)" % processes, vips_job, 1)):
        timings = []
        for run in range(peer_runs):
            folder = os.path.join(run_dir, "%s-%d" % (name.split()[0].lower(), run))
            seconds, size = run_pool(function, plans, folder, processes)
            timings.append(seconds)
        rows.append((name, median(timings), size, None))
    skia = next(r for r in rows if r[0].startswith("Skia"))
    vips = next(r for r in rows if r[0].startswith("libvips"))
    print()
    print("%d jobs, %d cores; GPU renderer: %s; glslice's and Skia's rows and the floor are medians of %d runs"
          % (n, processes, gpu_renderer(), runs))
    print("| renderer | time s | renders/s | output bytes | peak RSS MiB | vs Skia | vs libvips |")
    print("|---|---|---|---|---|---|---|")
    for name, seconds, size, rss in rows:
        print("| %s | %.2f | %.0f | %s | %s | %.2fx | %.2fx |" % (
            name, seconds, n / seconds, format(size, ","), "%.0f" % rss if rss else "-",
            skia[1] / seconds, vips[1] / seconds))
    print("| floor, part 1: encode glslice's outputs (no files) | %.2f | %.0f | - | - | - | - |"
          % (encode_seconds, n / encode_seconds))
    print("| floor, part 2: write their bytes into %d new files | %.2f | %.0f | - | - | - | - |"
          % (n, files_seconds, n / files_seconds))
    print("| floor (sum of both parts, per run) | %.2f | %.0f | - | - | - | - |" % (floor_seconds, n / floor_seconds))
    cpu, zlib6 = rows[0], rows[1]
    print()
    print("glslice cpu batch / floor = %.2f; CPU renders/s vs Skia = %.2fx; bytes vs Skia = %.3f"
          % (cpu[1] / floor_seconds, skia[1] / cpu[1], cpu[2] / skia[2]))
    print("with --compression zlib (zlib 6): CPU renders/s vs Skia = %.2fx; bytes vs Skia = %.3f"
          % (skia[1] / zlib6[1], zlib6[2] / skia[2]))
    whole, glue = skia_python_share(plans, os.path.join(run_dir, "skia-share"), runs)
    share = glue / whole
    print("Skia's Python glue (one process, calls made, nothing drawn or encoded): %.2f s of %.2f s, %.1f%%;"
          " a C++ peer making the same calls at most that much faster: CPU renders/s vs it >= %.2fx"
          % (glue, whole, 100 * share, skia[1] * (1 - share) / cpu[1]))
    subprocess.run(["rm", "-rf", run_dir])


def gpu_renderer():
    proc = subprocess.run([os.path.join(BIN, "glslice"), "doctor"], capture_output=True, text=True)
    match = re.search(r"GL_RENDERER: +(.*)", proc.stdout)
    return match.group(1) if match else "none"


if __name__ == "__main__":
    main()
