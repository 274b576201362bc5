#!/usr/bin/env python3
"""`make bench-hybrid` (issue 68): the hybrid against the CPU backend, and the scheduler with a device double.

1. `glslice batch --backend cpu` and `--backend hybrid`, alternated, RUNS runs each (default 3), on 600
   small outputs (the bench manifest's first) and 40 HD ones (hd400's first), with GPU encoding forced
   (GLSLICE_GPU_ENCODE=1) and off (=0), outputs on /dev/shm: median renders/s of each, their ratio, what
   the GPU side did, and whether every hybrid file equals the CPU's byte for byte.
2. `glslice-bench hybrid`: the product's scheduler with a device double at 0.1x, 1x and 10x a CPU core,
   makespan against the ideal n / (CPU rate + GPU rate).
Prints figures, not verdicts.

Usage: bench-hybrid.py GLSLICE GLSLICE-BENCH DIR   (DIR holds bench.jsonl and hd400.jsonl)"""
import filecmp
import json
import os
import shutil
import statistics
import subprocess
import sys

glslice, bench, folder = sys.argv[1], sys.argv[2], sys.argv[3]
runs = int(os.environ.get("RUNS", "3"))
scratch = "/dev/shm" if os.access("/dev/shm", os.W_OK) else folder
out = os.path.join(scratch, "glslice-bench-hybrid-%d" % os.getpid())


def subset(name, count):
    path = os.path.join(folder, "hybrid-" + name)
    with open(os.path.join(folder, name)) as src, open(path, "w") as dst:
        dst.writelines([line for line in src if line.strip()][:count])
    return path


def batch(manifest, backend, encode, keep=None):
    target = keep or out
    shutil.rmtree(target, ignore_errors=True)
    env = dict(os.environ, GLSLICE_GPU_ENCODE=encode)
    done = subprocess.run([glslice, "batch", manifest, "--backend", backend, "--out-dir", target, "--stats", "--json"],
                          env=env, capture_output=True, text=True, check=True)
    if keep is None:
        shutil.rmtree(target, ignore_errors=True)
    summary = json.loads(done.stdout)
    return summary["rendered"] / summary["seconds"], summary["sides"]


def same_files(a, b):
    names = sorted(os.listdir(a))
    if names != sorted(os.listdir(b)):
        return False
    match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    return not mismatch and not errors


print("| set | GPU encoding | cpu renders/s | hybrid renders/s | hybrid / cpu | GPU outputs | GPU calls | backups run / won | files |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for label, name, count in [("600 small", "bench.jsonl", 600), ("40 HD", "hd400.jsonl", 40)]:
    manifest = subset(name, count)
    for encode in ["1", "0"]:
        cpu, hybrid, sides = [], [], []
        for _ in range(runs):
            cpu.append(batch(manifest, "cpu", encode)[0])
            rate, side = batch(manifest, "hybrid", encode)
            hybrid.append(rate)
            sides.append((rate, side))
        a, b = out + "-cpu", out + "-hybrid"
        batch(manifest, "cpu", encode, keep=a)
        batch(manifest, "hybrid", encode, keep=b)
        same = same_files(a, b)
        shutil.rmtree(a, ignore_errors=True)
        shutil.rmtree(b, ignore_errors=True)
        c, h = statistics.median(cpu), statistics.median(hybrid)
        side = sorted(sides, key=lambda s: s[0])[len(sides) // 2][1]
        print("| %s | %s | %.0f | %.0f | %.2f | %d | %d | %d / %d | %s |" % (
            label, "forced" if encode == "1" else "off", c, h, h / c, side["gpu"]["outputs"], side["gpu"]["calls"],
            side["cpu"]["backupsRun"], side["cpu"]["backupsWon"], "identical" if same else "DIFFER"))
sys.stdout.flush()
subprocess.run([bench, "hybrid", "--runs", os.environ.get("DOUBLE_RUNS", "5")], check=True)
