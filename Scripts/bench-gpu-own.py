#!/usr/bin/env python3
"""`make bench-gpu-own`: issue 52's bound on the GL thread's own work, from one binary.

Per GPU-encoded output, the GL thread's `gpu-own` seconds (its encoding work outside GL calls)
against the CPU backend's draw + encode thread seconds per output, on 600 small outputs (the
bench manifest's first) and 40 HD ones (hd400's first), `default` compression. The GPU runs
force GPU encoding (GLSLICE_GPU_ENCODE=1), so llvmpipe does it too. RUNS runs (default 3) of
each, alternated, outputs on /dev/shm; prints medians, the ratio, the issue's goal, and the
dispatches and blocking waits a GPU encode call. Prints figures, not verdicts.

Usage: bench-gpu-own.py GLSLICE DIR   (DIR holds bench.jsonl and hd400.jsonl)"""
import json
import os
import shutil
import statistics
import subprocess
import sys

glslice, folder = sys.argv[1], sys.argv[2]
runs = int(os.environ.get("RUNS", "3"))
sets = [("600 small outputs", "bench.jsonl", 600, 4.2), ("40 HD outputs", "hd400.jsonl", 40, 17)]
scratch = "/dev/shm" if os.access("/dev/shm", os.W_OK) else folder
out = os.path.join(scratch, "glslice-bench-gpu-own-%d" % os.getpid())


def subset(name, count):
    path = os.path.join(folder, "gpu-own-" + name)
    with open(os.path.join(folder, name)) as src, open(path, "w") as dst:
        lines = [line for line in src if line.strip()][:count]
        dst.writelines(json.dumps(dict(json.loads(line), compression="default")) + "\n" for line in lines)
    return path


def batch(manifest, backend):
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, GLSLICE_GPU_ENCODE="1")
    done = subprocess.run([glslice, "batch", manifest, "--backend", backend, "--out-dir", out, "--stats", "--json"],
                          env=env, capture_output=True, text=True, check=True)
    shutil.rmtree(out, ignore_errors=True)
    summary = json.loads(done.stdout)
    stages = {s["stage"]: s for s in summary["stages"]}
    return summary, stages


print("| set | CPU draw + encode per output | `gpu-own` per GPU-encoded output | ratio | goal | GPU-encoded | dispatches a call | waits a call |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for label, name, count, goal in sets:
    manifest = subset(name, count)
    cpu, own, encoded, dispatches, waits = [], [], [], [], []
    for _ in range(runs):
        summary, stages = batch(manifest, "cpu")
        cpu.append((stages["draw"]["seconds"] + stages["encode"]["seconds"]) / summary["rendered"])
        summary, stages = batch(manifest, "gpu")
        items = stages["gpu-own"]["items"]
        encoded.append(items)
        own.append(stages["gpu-own"]["seconds"] / max(1, items))
        calls = max(1, summary["gpuEncodeCalls"])
        dispatches.append(summary["gpuEncodeGL"]["dispatches"] / calls)
        waits.append(summary["gpuEncodeGL"]["waits"] / calls)
    c, o = statistics.median(cpu), statistics.median(own)
    print(f"| {label} | {c * 1000:.3f} ms | {o * 1000:.3f} ms | 1/{c / o:.1f} | 1/{goal} | {min(encoded)} of {count} "
          f"| {statistics.median(dispatches):.1f} | {statistics.median(waits):.1f} |")
