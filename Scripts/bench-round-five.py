#!/usr/bin/env python3
"""Round five's figures (make bench-round-five; docs/HARDENING.md, issue 49), on llvmpipe
with GPU encoding forced (GLSLICE_GPU_ENCODE=1):

1. Tall `fast` outputs, RUNS times (10) on gpu and hybrid, each file compared with
   `--backend cpu`'s: three 1x1,500,000 in one batch; 1x4,194,241; a 1x9,000,000
   gradient (encoded in strips); 4x4,300,000 at --gpu-mb 4096.
2. serve --backend gpu: one 1x4,300,000 `fast` request with four 1500x1200 `fast`
   requests alongside, SERVE_ROUNDS times (3): every answer 200 and the CPU's bytes.
3. serve --backend gpu --gpu-mb 256, GPU encoding on and off: 30 insets-only URLs on a
   3000x3000 noise source, then one 4096x4096 `fast` PNG; glslice_gpu_bytes (peak,
   polled while it renders, and idle) and RSS idle after the burst.
4. `default` (glslice's deflate) against `zlib` (zlib 6) on the CPU: 4000x4000 noise, 64x64 noise stretched to
   4000x4000, and a 1xTALL gradient (TALL, default 20,000,000): medians of 5 (3 for the
   gradient), alternated, in one run.
"""
import concurrent.futures
import importlib.util
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

from noise_png import noise_png

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLSLICE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/glslice"))
RUNS = int(os.environ.get("RUNS", "10"))
SERVE_ROUNDS = int(os.environ.get("SERVE_ROUNDS", "3"))
TALL = int(os.environ.get("TALL", "20000000"))
ENCODE = {**os.environ, "GLSLICE_GPU_ENCODE": "1"}

# The serve helpers (start, get, RSS, /metrics) are bench-gpu-memory.py's.
_spec = importlib.util.spec_from_file_location("bench_gpu_memory", os.path.join(ROOT, "Scripts/bench-gpu-memory.py"))
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)


def gradient_png(path, width, height):
    """An opaque RGB gradient, `height` rows of `width` pixels, each row its own colour."""
    raw = b"".join(b"\0" + bytes([y % 256, 255 - y % 256, y * 7 % 256]) * width for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def batch(work, name, jobs, backend, out, flags=(), env=None):
    manifest = os.path.join(work, f"{name}-{out}.jsonl")
    with open(manifest, "w") as f:
        for index, job in enumerate(jobs):
            f.write(json.dumps({**job, "output": f"{out}/{name}-{index}.png", "compression": "fast"}) + "\n")
    run = subprocess.run([GLSLICE, "batch", manifest, "--backend", backend, "--json", *flags], capture_output=True, text=True,
                         env=env or ENCODE)
    summary = json.loads(run.stdout) if run.stdout.strip() else {}
    return summary.get("rendered", 0), summary.get("failed", -1), run.stderr.strip().splitlines()[-1:] if run.returncode else []


def same(work, name, count, a, b):
    def read(folder, index):
        with open(os.path.join(work, folder, f"{name}-{index}.png"), "rb") as f:
            return f.read()
    try:
        return all(read(a, i) == read(b, i) for i in range(count))
    except FileNotFoundError:
        return False


def tall_outputs(work):
    gradient_png(os.path.join(work, "grad.png"), 1, 256)
    gradient_png(os.path.join(work, "grad4.png"), 4, 256)
    cases = [
        ("three 1x1,500,000 together", "three", [{"input": "grad.png", "pixels": "1x1500000", "insets": f"{k},0,0,0", "mode": "stretch"}
                                                 for k in range(3)], []),
        ("1x4,194,241", "rows", [{"input": "grad.png", "pixels": "1x4194241", "insets": "0", "mode": "stretch"}], []),
        ("1x9,000,000 gradient (strips)", "giant", [{"input": "grad.png", "pixels": "1x9000000", "insets": "0", "mode": "stretch"}], []),
        ("4x4,300,000 at --gpu-mb 4096", "wide", [{"input": "grad4.png", "pixels": "4x4300000", "insets": "0", "mode": "stretch"}],
         ["--gpu-mb", "4096"]),
    ]
    print(f"## 1. Tall `fast` outputs, GLSLICE_GPU_ENCODE=1, {RUNS} runs a backend\n")
    print("| case | backend | runs with every output rendered and identical to cpu | outputs failed in all | seconds a run (median) |")
    print("|---|---|---|---|---|")
    ok = True
    for label, name, jobs, flags in cases:
        rendered, failed, _ = batch(work, name, jobs, "cpu", "cpu", flags)
        assert rendered == len(jobs), f"cpu rendered {rendered} of {len(jobs)} ({label})"
        for backend in ["gpu", "hybrid"]:
            good, lost, times, message = 0, 0, [], []
            for run in range(RUNS):
                out = f"{backend}{run}"
                start = time.monotonic()
                rendered, failed, message = batch(work, name, jobs, backend, out, flags)
                times.append(time.monotonic() - start)
                lost += len(jobs) - rendered
                good += rendered == len(jobs) and same(work, name, len(jobs), "cpu", out)
                shutil.rmtree(os.path.join(work, out), ignore_errors=True)
            ok &= good == RUNS
            print(f"| {label} | {backend} | {good} of {RUNS} | {lost} | {statistics.median(times):.1f} |"
                  + (f" {message}" if message else ""))
        shutil.rmtree(os.path.join(work, "cpu"), ignore_errors=True)
    print()
    return ok


def serve_alongside(work):
    gradient_png(os.path.join(work, "grad.png"), 1, 256)
    noise_png(os.path.join(work, "noise.png"), 64, 64, 5)
    tall = "/render/grad.png?pixels=1x4300000&insets=0&mode=stretch&compression=fast"
    hd = [f"/render/noise.png?pixels=1500x1200&insets={k + 2}&mode=stretch&compression=fast" for k in range(4)]
    expected = {}
    proc, port = serve.start_server(work, "--backend", "cpu", "--cache-mb", "0")
    for path in [tall, *hd]:
        expected[path] = serve.get(port, path)
    serve.stop(proc)
    print(f"## 2. serve --backend gpu, GLSLICE_GPU_ENCODE=1: 1x4,300,000 with four 1500x1200 alongside, {SERVE_ROUNDS} rounds\n")
    print("| round | statuses (tall, then the four) | identical to cpu |\n|---|---|---|")
    os.environ["GLSLICE_GPU_ENCODE"] = "1"
    proc, port = serve.start_server(work, "--backend", "gpu", "--cache-mb", "0")
    ok = True
    for round in range(SERVE_ROUNDS):
        with concurrent.futures.ThreadPoolExecutor(5) as pool:
            answers = list(pool.map(lambda path: (path, serve.get(port, path)), [tall, *hd]))
        statuses = [answer[0] for _, answer in answers]
        identical = all(answer == expected[path] for path, answer in answers)
        ok &= identical and statuses == [200] * 5
        print(f"| {round + 1} | {', '.join(map(str, statuses))} | {identical} |")
    serve.stop(proc)
    del os.environ["GLSLICE_GPU_ENCODE"]
    print()
    return ok


def memory(work):
    noise_png(os.path.join(work, "big.png"), 3000, 3000, 7)
    noise_png(os.path.join(work, "noise.png"), 64, 64, 5)
    rows = []
    for encode in ["1", "0"]:
        os.environ["GLSLICE_GPU_ENCODE"] = encode
        proc, port = serve.start_server(work, "--backend", "gpu", "--gpu-mb", "256", "--cache-mb", "0")
        serve.get(port, "/render/noise.png?pixels=40x40&insets=8")
        before = serve.rss_mib(proc.pid)
        peak, done = [0.0], threading.Event()

        def poll():
            while not done.is_set():
                peak[0] = max(peak[0], serve.gpu_mib(port))
                time.sleep(0.02)
        poller = threading.Thread(target=poll)
        poller.start()
        for inset in range(1, 31):
            serve.get(port, f"/render/big.png?pixels=64x64&insets={inset}&compression=fast")
        status, _ = serve.get(port, "/render/noise.png?pixels=4096x4096&insets=4&mode=stretch&compression=fast")
        done.set()
        poller.join()
        time.sleep(2)
        rows.append((encode, status, before, peak[0], serve.gpu_mib(port), serve.rss_mib(proc.pid)))
        serve.stop(proc)
    del os.environ["GLSLICE_GPU_ENCODE"]
    print("## 3. serve --backend gpu --gpu-mb 256: 30 texture-heavy renders, then one 4096x4096 `fast` PNG\n")
    print("| GPU encoding | 4096² status | RSS before | peak glslice_gpu_bytes | glslice_gpu_bytes idle | RSS idle after |")
    print("|---|---|---|---|---|---|")
    for encode, status, before, peak, idle, rss in rows:
        print(f"| {'on' if encode == '1' else 'off'} | {status} | {before:.0f} MiB | {peak:.1f} MiB | {idle:.1f} MiB | {rss:.0f} MiB |")
    print(f"\nRSS idle, on minus off: {rows[0][5] - rows[1][5]:+.0f} MiB\n")
    return rows[0][1] == 200 and rows[0][3] <= 256 and rows[0][5] - rows[1][5] <= 64


def default_against_zlib(work):
    noise_png(os.path.join(work, "noise4000.png"), 4000, 4000, 1)
    noise_png(os.path.join(work, "noise64.png"), 64, 64, 2)
    gradient_png(os.path.join(work, "grad.png"), 1, 256)
    cases = [
        ("4000² noise", ["noise4000.png", "--pixels", "4000x4000"], 5),
        ("64² noise stretched to 4000²", ["noise64.png", "--pixels", "4000x4000", "--mode", "stretch"], 5),
        (f"1x{TALL:,} gradient", ["grad.png", "--pixels", f"1x{TALL}", "--insets", "0"], 3),
    ]
    print("## 4. `default` (glslice's deflate) against `zlib` (zlib 6), --backend cpu (alternated; medians)\n")
    print("| output | zlib s | default s | default/zlib time | zlib bytes | default bytes | default/zlib bytes |")
    print("|---|---|---|---|---|---|---|")
    ok = True
    for label, args, runs in cases:
        seconds, size = {"zlib": [], "default": []}, {}
        for _ in range(runs):
            for compression in ["zlib", "default"]:
                out = os.path.join(work, f"{compression}.png")
                start = time.monotonic()
                subprocess.run([GLSLICE, "render", *args, "--backend", "cpu", "--compression", compression, "-o", out], check=True, cwd=work)
                seconds[compression].append(time.monotonic() - start)
                size[compression] = os.path.getsize(out)
        z, d = statistics.median(seconds["zlib"]), statistics.median(seconds["default"])
        ok &= d <= z
        print(f"| {label} | {z:.2f} | {d:.2f} | {d / z:.2f}x | {size['zlib']:,} | {size['default']:,} | {size['default'] / size['zlib']:.3f}x |")
    print()
    return ok


def main():
    parts = sys.argv[2:] or ["tall", "serve", "memory", "speed"]
    work = tempfile.mkdtemp(prefix="glslice-round-five.")
    try:
        results = {}
        for part, run in [("tall", tall_outputs), ("serve", serve_alongside), ("memory", memory), ("speed", default_against_zlib)]:
            if part in parts:
                results[part] = run(work)
        print("round five:", ", ".join(f"{part} {'ok' if good else 'FAILED'}" for part, good in results.items()))
        sys.exit(0 if all(results.values()) else 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
