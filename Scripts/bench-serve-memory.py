#!/usr/bin/env python3
"""`make bench-serve-memory`: serve's peak memory against --answer-mb (issue 31).

Each case starts a fresh `glslice serve --answer-mb 256 --backend cpu` under
`ulimit -v` (SERVE_MEMORY_LIMIT_MB, default 2048), sends its requests (the
concurrent ones at once), and reads the process's peak RSS (VmHWM) and the
answers' statuses. The sources are made here: a 512x512 px noise PNG (the
worst case for WebP's encoder) and Fixtures/panel.png."""
import concurrent.futures, os, random, shutil, signal, struct, subprocess, sys, tempfile, time, urllib.request, zlib

glslice = sys.argv[1] if len(sys.argv) > 1 else ".build/release/glslice"
limit_mb = int(os.environ.get("SERVE_MEMORY_LIMIT_MB", "2048"))
answer_mb = 256
root = tempfile.mkdtemp(prefix="glslice-serve-memory.")

def png(path, w, h):
    rnd = random.Random(31)
    raw = b"".join(b"\0" + rnd.randbytes(w * 4) for _ in range(h))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 1)) + chunk(b"IEND", b""))

png(os.path.join(root, "noise.png"), 512, 512)
shutil.copy("Fixtures/panel.png", root)
runs = lambda n, step: ",".join(f"{step * i + 1}-{step * i + 2}" for i in range(n))
CASES = [
    # (name, [(path, accept)], concurrent)
    ("lattice at the limit (63 runs across: 127 regions), 4096x4096 PNG",
     [(f"/render/noise.png?pixels=4096x4096&lattice=x={runs(63, 8)}&format=png", None)], False),
    ("lattice at the limit (5 x 5 runs: 121 regions), 4096x4096 PNG",
     [(f"/render/noise.png?pixels=4096x4096&lattice=x={runs(5, 90)};y={runs(5, 90)}&format=png", None)], False),
    ("lattice past the limit (8 x 8 runs: 289 regions)",
     [(f"/render/noise.png?pixels=4096x4096&lattice=x={runs(8, 60)};y={runs(8, 60)}&format=png", None)], False),
    ("two 4096x4096 noise WebPs asked for by a browser (Accept: image/webp)",
     [("/render/noise.png?pixels=4096x4096&mode=tile", "image/avif,image/webp,*/*"),
      ("/render/noise.png?pixels=4096x4095&mode=tile", "image/avif,image/webp,*/*")], True),
    ("two 4096x4096 noise WebPs asked for by name (format=webp)",
     [("/render/noise.png?pixels=4096x4096&mode=tile&format=webp", None),
      ("/render/noise.png?pixels=4096x4095&mode=tile&format=webp", None)], True),
    ("two 2048x2048 noise WebPs by name (144 MiB each to encode)",
     [("/render/noise.png?pixels=2048x2048&mode=stretch&format=webp", None),
      ("/render/noise.png?pixels=2048x2047&mode=stretch&format=webp", None)], True),
    ("three 2048x2048 noise WebPs by name",
     [("/render/noise.png?pixels=2048x2048&mode=tile&format=webp", None),
      ("/render/noise.png?pixels=2048x2047&mode=tile&format=webp", None),
      ("/render/noise.png?pixels=2048x2046&mode=tile&format=webp", None)], True),
]

def hwm(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"): return int(line.split()[1]) // 1024
    return -1

def fetch(port, path, accept):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(request, timeout=300) as answer:
            return f"{answer.status} {answer.headers['Content-Type'].split('/')[-1]}"
    except urllib.error.HTTPError as error:
        return str(error.code)

print(f"glslice serve --answer-mb {answer_mb} --backend cpu --workers 2, under ulimit -v {limit_mb} MiB")
print("| case | answers | peak RSS | over the idle server |")
print("|---|---|---|---|")
worst = 0
for name, requests, at_once in CASES:
    command = f"ulimit -v {limit_mb * 1024}; exec {glslice} serve --root {root} --bind 127.0.0.1:0 --backend cpu --workers 2 --answer-mb {answer_mb} --no-access-log"
    server = subprocess.Popen(["bash", "-c", command], stderr=subprocess.PIPE, text=True)
    port = None
    while port is None:
        line = server.stderr.readline()
        if not line:
            sys.exit("bench-serve-memory: the server did not start")
        if "serving" in line:
            port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    idle = hwm(server.pid)
    with concurrent.futures.ThreadPoolExecutor(len(requests)) as pool:
        if at_once:
            statuses = list(pool.map(lambda r: fetch(port, *r), requests))
        else:
            statuses = [fetch(port, *r) for r in requests]
    peak = hwm(server.pid)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=60)
    worst = max(worst, peak - idle)
    print(f"| {name} | {', '.join(statuses)} | {peak} MiB | +{peak - idle} MiB |")
shutil.rmtree(root)
print(f"largest growth: {worst} MiB with --answer-mb {answer_mb}")
