#!/usr/bin/env python3
"""`make bench-compression`: `default` (glslice's own deflate, the plan's repeats: issues 42
and 51) against `zlib` (zlib 6, the default before renderer 7) and, with BEFORE=PATH, an older
glslice's `fast`, through whole
`glslice batch --backend cpu --stats --json` runs on the sets the issue names: the 2,400-job
bench manifest, 400 outputs of about 1920x1080 (the device kit's mix) and the three giants
(a 20,000² tiled texture, a 20,000² stretched panel, a 4,000 x 60,000 gradient). RUNS runs
(default 5) of each, alternated, into fresh folders; prints medians of the batch's wall time,
its encode and prepare stages' busy time (the repeat map is made as a job is prepared), the
encoder's CPU time, and the bytes written. Prints figures, not verdicts.

The encoder's CPU time (`cpu`) is the encode stage's CPU time (its threads', and the helper threads'
that compress a large output's pieces) plus what preparing a job
costs beyond zlib's side (the repeat map: planning is the same work on both sides, so it is
left out of both). Busy time also counts a thread waiting for a core, which moves with
whatever else runs (docs/BENCHMARKS-LOG.md).

Usage: bench-compression.py GLSLICE DIR [BEFORE]   (SETS="bench hd400" runs only those)"""
import json
import os
import shutil
import statistics
import subprocess
import sys

glslice, folder = sys.argv[1], sys.argv[2]
before = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
runs = int(os.environ.get("RUNS", "5"))
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fixture(name):
    return os.path.join(root, "Fixtures", name)


giants = [
    {"input": fixture("texture.png"), "output": "g1.png", "pixels": "20000x20000", "insets": "6,6,6,6", "mode": "tile"},
    {"input": fixture("panel.png"), "output": "g2.png", "pixels": "20000x20000", "insets": "8,8,8,8", "mode": "stretch"},
    {"input": fixture("bar.png"), "output": "g3.png", "pixels": "4000x60000"},
]
with open(os.path.join(folder, "giants.jsonl"), "w") as f:
    f.writelines(json.dumps(job) + "\n" for job in giants)


def manifest(name, compression):
    """The set with every line's compression set."""
    path = os.path.join(folder, f"{name}-{compression}.jsonl")
    with open(os.path.join(folder, f"{name}.jsonl")) as src, open(path, "w") as out:
        for line in src:
            if line.strip():
                out.write(json.dumps(dict(json.loads(line), compression=compression)) + "\n")
    return path


# Every run writes into a fresh folder, deleted only at the end: this VM's ext4 makes files
# created soon after thousands were deleted cost up to 5x more (docs/BENCHMARKS-LOG.md).
# On /dev/shm where there is one: on this VM's disk one run's thousands of files slowed the next
# run's encoding as well as its writing (the bench manifest's encode ratio 0.62-0.63x on disk, 0.59x here).
scratch = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else folder
runs_dir = os.path.join(scratch, "glslice-bench-compression-%d" % os.getpid())
shutil.rmtree(runs_dir, ignore_errors=True)
count = 0


def batch(binary, path):
    global count
    count += 1
    out = os.path.join(runs_dir, str(count))
    result = subprocess.run([binary, "batch", path, "--backend", "cpu", "--out-dir", out, "--stats", "--json"],
                            capture_output=True, text=True, check=True)
    summary = json.loads(result.stdout)
    stages = {s["stage"]: s for s in summary["stages"]}
    # The encode stage and the prepare stage together: glslice's deflate builds its repeat map as a
    # job is prepared (off the GPU thread, issue 52); planning, the rest of prepare, is alike for both.
    encode = stages["encode"]["seconds"] + stages["prepare"]["seconds"]
    cpu = (stages["encode"].get("cpuSeconds", stages["encode"]["seconds"]),
           stages["prepare"].get("cpuSeconds", stages["prepare"]["seconds"]))
    return summary["seconds"], encode, summary["bytes"], cpu


sides = [("zlib (zlib 6, old default)", glslice, "zlib"), ("default (glslice deflate)", glslice, "default")]
if before:
    sides.append(("before: fast (zlib 1)", before, "fast"))
print(f"bench-compression: {runs} alternated runs of each, medians; batch --backend cpu on {os.cpu_count()} cores")
for name in os.environ.get("SETS", "bench hd400 giants").split():
    paths = {label: manifest(name, compression) for label, _, compression in sides}
    figures = {label: [] for label, _, _ in sides}
    for run in range(runs):
        order = sides if run % 2 == 0 else list(reversed(sides))
        for label, binary, _ in order:
            figures[label].append(batch(binary, paths[label]))
    base = figures[sides[0][0]]
    base_wall = statistics.median(f[0] for f in base)
    base_encode = statistics.median(f[1] for f in base)
    base_bytes = base[0][2]
    planning = statistics.median(f[3][1] for f in base)
    base_cpu = statistics.median(f[3][0] for f in base)
    print(f"{name}:")
    for label, _, _ in sides:
        wall = statistics.median(f[0] for f in figures[label])
        encode = statistics.median(f[1] for f in figures[label])
        size = figures[label][0][2]
        cpu = statistics.median(f[3][0] for f in figures[label]) + statistics.median(f[3][1] for f in figures[label]) - planning
        print(f"  {label:24} {size:>11,} B ({size / base_bytes:.3f}x)  encode {encode:7.3f} s ({encode / base_encode:.2f}x)"
              f"  cpu {cpu:7.3f} s ({cpu / base_cpu:.2f}x)  wall {wall:6.2f} s ({base_wall / wall:.2f}x the speed)")
shutil.rmtree(runs_dir, ignore_errors=True)
