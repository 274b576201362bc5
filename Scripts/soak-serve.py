#!/usr/bin/env python3
"""`glslice serve` soak (make soak-serve): 10 minutes at 64 connections, RSS every 10 s.

One server over a copy of Fixtures/ (CPU backend, default cache, --idle-timeout 30).
The 64 connections are:
  56  wrk, cycling through a mix: renders of 3,000 distinct URLs (so the response
      cache churns; a third of them WebP), /preview/info and /preview/sources, and bad requests (a bad
      option: 400; a missing file and a path escape: 404);
   4  slow readers: each asks for a large render and reads it 4 KiB at a time,
      10 times a second, then starts again;
   4  idle or half-sent connections, opened again whenever the server closes them.
RSS (VmRSS) is sampled every 10 s. The soak passes when every sample after the
first minute is within 10% of the sample at 60 s, wrk saw no socket errors, and
no answer was a 5xx other than 503. SOAK_SECONDS changes 600.

SOAK_BACKEND=gpu (or hybrid) serves with that backend, and adds to each cycle what
holds GPU memory: a wide output (up to 40000x1), a tall one (up to 1x40000), and
64x64 renders of 24 distinct 1500² noise sources whose insets differ (each uploads
its own cells). glslice_gpu_bytes from /metrics is reported with the RSS.
SOAK_CACHE_MB=0 turns the response cache off, so that every request is drawn (with the
default cache, most answers after the first minute are cache hits). SOAK_GPU_MIX=1 adds
the GPU's URLs to a CPU soak, for comparison.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from noise_png import noise_png

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLSLICE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/glslice"))
SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
BACKEND = os.environ.get("SOAK_BACKEND", "cpu")
GPU_MIX = BACKEND != "cpu" or os.environ.get("SOAK_GPU_MIX") == "1"
NOISE_SOURCES, NOISE_SIDE = 24, 1500
WRK_CONNECTIONS, SLOW, IDLE = 56, 4, 4

SOURCES = [("button@2x.png", "insets=14,12,14,12"), ("panel.png", "insets=8"), ("texture.png", "insets=6&mode=tile"),
           ("shadow.png", "insets=16"), ("bubble.9.png", ""), ("bar.png", "mode=stretch"), ("button.imageset", "scale=3")]


def mix():
    """20 requests a cycle: 14 renders, 3 previews, 3 bad; 3,000 distinct render URLs in all."""
    out, render = [], 0
    for cycle in range(3000 // 14 + 1):
        for _ in range(14):
            path, extra = SOURCES[render % len(SOURCES)]
            step = render // len(SOURCES)
            query = f"size={40 + step % 300}x{24 + step // 3 % 200}" + (("&" + extra) if extra else "")
            if render % 3 == 0:
                query += "&format=webp"  # a third are lossless WebP (its encoder's memory is held in --answer-mb)
            out.append(f"/render/{path}?{query}")
            render += 1
        out += ["/preview/sources", "/preview/info/bubble.9.png", "/preview/info/button.imageset?scale=2",
                "/render/panel.png?size=0x0", "/render/missing.png?size=40x40", "/render/..%2f..%2fetc%2fpasswd?size=9x9"]
        if GPU_MIX:
            out += [f"/render/panel.png?pixels={20000 + cycle * 97 % 20000}x1&insets=8",
                    f"/render/panel.png?pixels=1x{20000 + cycle * 89 % 20000}&insets=8"]
            out += [f"/render/noise-{(cycle * 3 + k) % NOISE_SOURCES}.png?pixels=64x64&insets={1 + (cycle + k) % 40}" for k in range(3)]
    return out



def lua(paths):
    quoted = ",\n".join('"' + p.replace('"', '\\"') + '"' for p in paths)
    return f"""paths = {{
{quoted}
}}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end
"""


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        text = status.read()
    return int(re.search(r"VmRSS:\s+(\d+) kB", text).group(1)) / 1024, int(re.search(r"VmHWM:\s+(\d+) kB", text).group(1)) / 1024


def gpu_mib(port):
    try:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read().decode()
    except OSError:
        return float("nan")
    match = re.search(r"^glslice_gpu_bytes (\S+)", text, re.M)
    return float(match.group(1)) / (1 << 20) if match else float("nan")


def metrics(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read().decode()
    by_status = {}
    for match in re.finditer(r'glslice_http_requests_total\{[^}]*status="(\d+)"[^}]*\} (\d+)', text):
        by_status[match.group(1)] = by_status.get(match.group(1), 0) + int(match.group(2))
    return by_status


def slow_reader(port, stop, counts):
    while not stop.is_set():
        try:
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET /render/texture.png?pixels=1400x1400&insets=6&mode=round HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            while not stop.is_set():
                chunk = s.recv(4096)
                if not chunk:
                    break
                counts["slow_bytes"] += len(chunk)
                time.sleep(0.1)
            counts["slow_answers"] += 1
            s.close()
        except OSError:
            counts["slow_errors"] += 1
            time.sleep(0.5)


def idler(port, stop, counts, half_sent):
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port))
            if half_sent:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            s.settimeout(1)
            while not stop.is_set():
                try:
                    if not s.recv(4096):
                        counts["idle_closed"] += 1
                        break
                except socket.timeout:
                    continue
            s.close()
        except OSError:
            counts["idle_errors"] += 1
            time.sleep(0.5)


def main():
    if not shutil.which("wrk"):
        sys.exit("soak-serve: wrk is not installed (make soak-serve installs it)")
    work = tempfile.mkdtemp(prefix="glslice-soak-")
    root = os.path.join(work, "root")
    shutil.copytree(os.path.join(ROOT, "Fixtures"), root, ignore=shutil.ignore_patterns("bad", "pngsuite"))
    if GPU_MIX:
        for index in range(NOISE_SOURCES):
            noise_png(os.path.join(root, f"noise-{index}.png"), NOISE_SIDE, NOISE_SIDE, index)
    script = os.path.join(work, "mix.lua")
    with open(script, "w") as f:
        f.write(lua(mix()))
    log = open(os.path.join(work, "serve.log"), "w")
    proc = subprocess.Popen([GLSLICE, "serve", "--root", root, "--bind", "127.0.0.1:0", "--backend", BACKEND, "--queue", "256"]
                            + (["--cache-mb", os.environ["SOAK_CACHE_MB"]] if "SOAK_CACHE_MB" in os.environ else []),
                            stderr=subprocess.PIPE, text=True)
    seen = ""
    while True:
        line = proc.stderr.readline()
        if not line:
            sys.exit("soak-serve: the server did not start:\n" + seen)
        seen += line
        match = re.search(r"on http://[^/]*:(\d+)/", line)
        if match:
            port = int(match.group(1))
            break
    # The access log goes on being read (to a file), as a log collector would.
    threading.Thread(target=lambda: shutil.copyfileobj(proc.stderr, log), daemon=True).start()
    stop = threading.Event()
    counts = {k: 0 for k in ["slow_bytes", "slow_answers", "slow_errors", "idle_closed", "idle_errors"]}
    threads = [threading.Thread(target=slow_reader, args=(port, stop, counts), daemon=True) for _ in range(SLOW)]
    threads += [threading.Thread(target=idler, args=(port, stop, counts, i % 2 == 1), daemon=True) for i in range(IDLE)]
    for t in threads:
        t.start()
    wrk = subprocess.Popen(["wrk", "-t2", f"-c{WRK_CONNECTIONS}", f"-d{SECONDS}s", "--timeout", "30s", "-s", script,
                            f"http://127.0.0.1:{port}"], stdout=subprocess.PIPE, text=True)
    start = time.time()
    samples = []
    while wrk.poll() is None:
        elapsed = time.time() - start
        samples.append((round(elapsed), *rss_mib(proc.pid), gpu_mib(port) if GPU_MIX else 0.0))
        time.sleep(max(0, 10 * len(samples) - (time.time() - start)))
    out = wrk.stdout.read()
    stop.set()
    by_status = metrics(port)
    proc.send_signal(signal.SIGTERM)
    status = proc.wait(timeout=120)
    for t in threads:
        t.join(timeout=5)
    shutil.rmtree(work, ignore_errors=True)

    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    total = sum(by_status.values())
    server_errors = sum(n for s, n in by_status.items() if s.startswith("5") and s != "503")
    base = next((rss for t, rss, _, _ in samples if t >= 60), samples[-1][1])
    after = [rss for t, rss, _, _ in samples if t > 60]
    worst = max((abs(rss - base) / base for rss in after), default=0)
    cache = f", --cache-mb {os.environ['SOAK_CACHE_MB']}" if "SOAK_CACHE_MB" in os.environ else ""
    print(f"## serve soak (--backend {BACKEND}{cache}{', wide, tall and many-source URLs' if GPU_MIX else ''}): {SECONDS} s, {WRK_CONNECTIONS} wrk + {SLOW} slow readers + {IDLE} idle/half-sent connections\n")
    print(f"- requests/s (wrk): {rate.group(1) if rate else '?'}; answers by status (server): "
          + ", ".join(f"{s}: {n}" for s, n in sorted(by_status.items())) + f" (total {total})")
    print(f"- wrk socket errors: {socket_errors.group(1) if socket_errors else 'none'}; 5xx other than 503: {server_errors}")
    print(f"- slow readers: {counts['slow_answers']} answers, {counts['slow_bytes']} bytes read, {counts['slow_errors']} errors; "
          f"idle/half-sent connections closed by the server: {counts['idle_closed']}")
    print(f"- server exit after SIGTERM: {status}")
    print(f"- RSS MiB every 10 s: " + ", ".join(f"{t}s {rss:.0f}" for t, rss, _, _ in samples))
    if GPU_MIX:
        print(f"- GPU MiB held (glslice_gpu_bytes) every 10 s: " + ", ".join(f"{t}s {gpu:.0f}" for t, _, _, gpu in samples))
    print(f"- peak RSS (VmHWM) {samples[-1][2]:.0f} MiB; after the first minute RSS stays within {worst * 100:.1f}% of {base:.0f} MiB")
    ok = worst <= 0.10 and not socket_errors and server_errors == 0 and status == 0
    print(f"\nsoak-serve: {'PASS' if ok else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
