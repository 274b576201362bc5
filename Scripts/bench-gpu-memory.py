#!/usr/bin/env python3
"""GPU memory under hostile shapes (make bench-gpu-memory; docs/HARDENING.md, round four).

1. `serve --backend gpu --cache-mb 0`: RSS before, after `pixels=40000x1` and then
   `pixels=1x40000`, and idle 2 s later (the renderbuffer once grew to their union).
2. `serve --cache-mb 0` on one 3000x3000 noise source: 30 URLs of 64x64 that differ
   only in `insets` (each uploads its own cells, about 35 MiB), on the GPU with
   `--gpu-mb 128` and on the CPU; RSS and glslice_gpu_bytes after 10, 20 and 30.
3. `batch --backend hybrid` with 20 jobs on a source over the GPU's texture limit
   (20000x2 on llvmpipe) among 40, RUNS times (10): each run must render 40 of 40,
   byte-identical to `--backend cpu`.
4. `batch` peak RSS (/usr/bin/time -v) of a manifest holding both the wide and the
   tall job, on cpu and gpu.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from noise_png import noise_png

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLSLICE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/glslice"))
RUNS = int(os.environ.get("RUNS", "10"))


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+) kB", status.read()).group(1)) / 1024


def start_server(root, *flags):
    proc = subprocess.Popen([GLSLICE, "serve", "--root", root, "--bind", "127.0.0.1:0", "--no-access-log", *flags],
                            stderr=subprocess.PIPE, text=True)
    seen = ""
    while True:
        line = proc.stderr.readline()
        if not line:
            sys.exit("bench-gpu-memory: the server did not start:\n" + seen)
        seen += line
        match = re.search(r"on http://[^/]*:(\d+)/", line)
        if match:
            return proc, int(match.group(1))


def get(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=600) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def gpu_mib(port):
    text = get(port, "/metrics")[1].decode()
    match = re.search(r"^glslice_gpu_bytes (\S+)", text, re.M)
    return float(match.group(1)) / (1 << 20) if match else 0.0


def stop(proc):
    proc.terminate()
    proc.wait(timeout=120)


def wide_then_tall(root):
    rows = []
    for backend in ["gpu", "cpu"]:
        proc, port = start_server(root, "--backend", backend, "--cache-mb", "0")
        get(port, "/render/panel.png?pixels=40x40&insets=8")
        before = rss_mib(proc.pid)
        wide = get(port, "/render/panel.png?pixels=40000x1&insets=8")
        after_wide = rss_mib(proc.pid)
        tall = get(port, "/render/panel.png?pixels=1x40000&insets=8")
        after_tall = rss_mib(proc.pid)
        time.sleep(2)
        idle, gpu = rss_mib(proc.pid), gpu_mib(port)
        stop(proc)
        rows.append((backend, before, after_wide, after_tall, idle, gpu, wide[0], tall[0]))
    print("## 1. serve: 40000x1, then 1x40000 (--cache-mb 0)\n")
    print("| backend | before | after 40000x1 | after 1x40000 | idle 2 s later | growth | GPU bytes held at the end |")
    print("|---|---|---|---|---|---|---|")
    for backend, before, after_wide, after_tall, idle, gpu, s1, s2 in rows:
        print(f"| {backend} ({s1}, {s2}) | {before:.0f} | {after_wide:.0f} | {after_tall:.0f} | {idle:.0f} | {idle - before:+.0f} | "
              f"{gpu:.1f} MiB |")
    print("\nRSS in MiB; target: the GPU's growth within 150 MB\n")
    return rows[0][4] - rows[0][1] <= 150 * 1e6 / (1 << 20) and rows[0][6] == 200 and rows[0][7] == 200


def insets_only(root):
    rows, ok = [], True
    for backend, flags in [("gpu", ["--gpu-mb", "128"]), ("cpu", [])]:
        proc, port = start_server(root, "--backend", backend, "--cache-mb", "0", *flags)
        get(port, "/render/panel.png?pixels=40x40&insets=8")
        before = rss_mib(proc.pid)
        points, peak_gpu = [], 0.0
        for inset in range(1, 31):
            status, _ = get(port, f"/render/big.png?pixels=64x64&insets={inset}")
            ok &= status == 200
            peak_gpu = max(peak_gpu, gpu_mib(port))
            if inset % 10 == 0:
                points.append(rss_mib(proc.pid))
        stop(proc)
        rows.append((backend, before, points, peak_gpu))
    print("## 2. 30 insets-only 64x64 URLs on one 3000x3000 noise source (--cache-mb 0)\n")
    print("| backend | before | after 10 | after 20 | after 30 | peak glslice_gpu_bytes |\n|---|---|---|---|---|---|")
    for backend, before, points, peak in rows:
        print(f"| {backend}{' --gpu-mb 128' if backend == 'gpu' else ''} | {before:.0f} | "
              + " | ".join(f"{p:.0f}" for p in points) + f" | {peak:.1f} MiB |")
    gpu_growth = rows[0][2][-1] - rows[0][1]
    cpu_growth = rows[1][2][-1] - rows[1][1]
    print(f"\nGPU growth {gpu_growth:+.0f} MiB (CPU {cpu_growth:+.0f} MiB); the GPU's own part is within --gpu-mb 128: "
          f"{rows[0][3] <= 128}\n")
    return ok and rows[0][3] <= 128 and gpu_growth - cpu_growth <= 128


def hybrid_over_limit(work):
    noise_png(os.path.join(work, "wide.png"), 20000, 2, 7)
    shutil.copy(os.path.join(ROOT, "Fixtures/panel.png"), work)
    lines = []
    for index in range(40):
        if index % 2 == 0:
            lines.append({"input": "wide.png", "output": f"OUT/{index}.png", "pixels": f"{300 + index}x4", "insets": "0,8,0,8"})
        else:
            lines.append({"input": "panel.png", "output": f"OUT/{index}.png", "pixels": f"{60 + index}x40", "insets": "8"})

    def batch(backend, out):
        manifest = os.path.join(work, f"{out}.jsonl")
        with open(manifest, "w") as f:
            for line in lines:
                f.write(json.dumps({**line, "output": line["output"].replace("OUT", out)}) + "\n")
        run = subprocess.run([GLSLICE, "batch", manifest, "--backend", backend, "--json"], capture_output=True, text=True)
        summary = json.loads(run.stdout) if run.stdout.strip() else {}
        return summary.get("rendered", 0), summary.get("failed", -1)

    batch("cpu", "cpu")
    reference = {i: open(os.path.join(work, f"cpu/{i}.png"), "rb").read() for i in range(40)}
    results = []
    for run in range(RUNS):
        ok, failed = batch("hybrid", f"hybrid{run}")
        same = sum(open(os.path.join(work, f"hybrid{run}/{i}.png"), "rb").read() == reference[i]
                   for i in range(40) if os.path.exists(os.path.join(work, f"hybrid{run}/{i}.png")))
        results.append((ok, failed, same))
    print(f"## 3. batch --backend hybrid, 20 jobs on a 20000x2 source among 40, {RUNS} runs\n")
    print("| run | rendered | failed | identical to cpu |\n|---|---|---|---|")
    for run, (ok, failed, same) in enumerate(results):
        print(f"| {run + 1} | {ok} | {failed} | {same} |")
    good = sum(1 for ok, failed, same in results if ok == 40 and failed == 0 and same == 40)
    print(f"\n{good} of {RUNS} runs rendered 40 of 40, identical to cpu\n")
    return good == RUNS


def batch_peaks(work):
    shutil.copy(os.path.join(ROOT, "Fixtures/panel.png"), work)
    manifest = os.path.join(work, "shapes.jsonl")
    with open(manifest, "w") as f:
        f.write(json.dumps({"input": "panel.png", "output": "shapes/wide.png", "pixels": "40000x1", "insets": "8"}) + "\n")
        f.write(json.dumps({"input": "panel.png", "output": "shapes/tall.png", "pixels": "1x40000", "insets": "8"}) + "\n")
    print("## 4. batch of 40000x1 and 1x40000 in one manifest: peak RSS\n")
    print("| backend | peak RSS MiB |\n|---|---|")
    for backend in ["cpu", "gpu"]:
        run = subprocess.run(["/usr/bin/time", "-v", GLSLICE, "batch", manifest, "--backend", backend],
                             capture_output=True, text=True)
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
        print(f"| {backend} | {int(peak.group(1)) / 1024:.0f} |" if peak else f"| {backend} | ? |")
    print()


def main():
    work = tempfile.mkdtemp(prefix="glslice-gpu-memory-")
    root = os.path.join(work, "root")
    os.makedirs(root)
    shutil.copy(os.path.join(ROOT, "Fixtures/panel.png"), root)
    noise_png(os.path.join(root, "big.png"), 3000, 3000, 1)
    results = [wide_then_tall(root), insets_only(root), hybrid_over_limit(work)]
    if shutil.which("/usr/bin/time") or os.path.exists("/usr/bin/time"):
        batch_peaks(work)
    shutil.rmtree(work, ignore_errors=True)
    print(f"bench-gpu-memory: {'PASS' if all(results) else 'FAIL'}")
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
