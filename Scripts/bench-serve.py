#!/usr/bin/env python3
"""`glslice serve` under load (make bench-serve): wrk from Debian, on loopback.

Three runs, each against a fresh server over a copy of Fixtures/:
  warm  - the 200 URLs fetched once first, then 60 s at 64 connections: answers from the response cache;
  cold  - --cache-mb 0, 60 s at 64 connections: every request is drawn and encoded;
  drain - cold load, and SIGTERM 10 s in: the requests in flight must be answered and the server exit 0.

wrk cycles through 200 distinct render URLs (a Lua script). Statuses are counted by the
server's own /metrics (glslice_http_requests_total by status), so "errors" means any
answer other than 200, with 503s reported apart. Memory is read from /proc: VmRSS before
and after each run, VmHWM (peak). Prints a Markdown table; BENCH_SECONDS changes 60, BENCH_BACKEND the backend (cpu),
BENCH_KINDS which runs (warm,cold,drain: `BENCH_KINDS=cold` for alternated A/B timings of the render path);
BENCH_ACCEPT an Accept header for every request (`BENCH_ACCEPT=image/webp` measures WebP answers).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLSLICE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/glslice"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "60"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
# The backend to serve with: cpu (default), gpu (one shared GL thread) or auto.
BACKEND = os.environ.get("BENCH_BACKEND", "cpu")
KINDS = [k for k in os.environ.get("BENCH_KINDS", "warm,cold,drain").split(",") if k]
ACCEPT = os.environ.get("BENCH_ACCEPT", "")

SOURCES = [
    ("button@2x.png", "insets=14,12,14,12"),
    ("panel.png", "insets=8"),
    ("texture.png", "insets=6&mode=tile"),
    ("texture.png", "insets=6&mode=round"),
    ("shadow.png", "insets=16"),
    ("bubble.9.png", ""),
    ("bar.png", "mode=stretch"),
    ("button.imageset", "scale=3"),
]


def urls():
    """200 distinct URLs: 8 sources x 25 sizes, from buttons to panels (44x22 to 620x380 pt)."""
    out = []
    for index in range(200):
        path, extra = SOURCES[index % len(SOURCES)]
        step = index // len(SOURCES)
        w, h = 44 + step * 24, 22 + step * 15
        query = f"size={w}x{h}" + (("&" + extra) if extra else "")
        out.append(f"/render/{path}?{query}")
    return out


def start(root, cache_mb):
    log = open(os.path.join(root, "..", f"access-{cache_mb}.log"), "w")
    proc = subprocess.Popen([GLSLICE, "serve", "--root", root, "--bind", "127.0.0.1:0", "--backend", BACKEND,
                             "--cache-mb", str(cache_mb), "--queue", "256"], stderr=subprocess.PIPE, text=True)
    seen = ""
    while True:
        line = proc.stderr.readline()
        seen += line
        match = re.search(r"serving .* on http://127\.0\.0\.1:(\d+)/", line)
        if match:
            break
        if not line:
            sys.exit(f"bench-serve: the server did not start: {seen}")
    # The access log goes on to a file, so a full pipe cannot stall the server.
    drain = subprocess.Popen(["cat"], stdin=proc.stderr, stdout=log)
    return proc, int(match.group(1)), drain


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) / 1024
    return fields


def statuses(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
    counts = {}
    for match in re.finditer(r'glslice_http_requests_total\{status="(\d+)"\} (\d+)', text):
        counts[match.group(1)] = int(match.group(2))
    renders = re.search(r"^glslice_renders_total (\d+)", text, re.M)
    return counts, int(renders.group(1)) if renders else 0


def wrk(port, script, seconds):
    result = subprocess.run(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", script,
                             f"http://127.0.0.1:{port}"], capture_output=True, text=True)
    out = result.stdout
    def latency(label):
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\b", out, re.M)
        if not match:
            return None
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    socket = re.search(r"Socket errors: (.*)", out)
    return {"rps": float(rps.group(1)) if rps else 0, "p50": latency("50"), "p99": latency("99"),
            "requests": int(total.group(1)) if total else 0, "socket": socket.group(1) if socket else "none", "raw": out}


def run(kind, scratch, script, url_list):
    root = os.path.join(scratch, f"root-{kind}")
    shutil.copytree(os.path.join(ROOT, "Fixtures"), root, ignore=shutil.ignore_patterns("bad", "pngsuite"))
    proc, port, drain = start(root, 0 if kind != "warm" else 256)
    before = memory(proc.pid)
    if kind == "warm":
        for url in url_list:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{url}").read()
    warmed = memory(proc.pid)
    row = {"kind": kind, "rss_start": before["VmRSS"], "rss_warmed": warmed["VmRSS"]}
    if kind == "drain":
        load = subprocess.Popen(["wrk", "-t2", f"-c{CONNECTIONS}", "-d30s", "-s", script, f"http://127.0.0.1:{port}"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        time.sleep(10)
        health = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz").read())
        counts_before, _ = statuses(port)
        sent = time.time()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=120)
        row.update(exit=code, seconds_to_exit=time.time() - sent, in_flight=health["rendering"] + health["queued"],
                   answered_before=sum(counts_before.values()))
        out, _ = load.communicate(timeout=120)
        completed = re.search(r"(\d+) requests in", out)
        row["wrk_completed"] = int(completed.group(1)) if completed else None
        row["wrk_after_sigterm"] = re.search(r"Socket errors: (.*)", out).group(1) if "Socket errors" in out else "none"
        drain.wait(timeout=30)
        log = open(os.path.join(scratch, "access-0.log")).read()
        row["logged_statuses"] = {s: log.count(f"status={s} ") for s in sorted(set(re.findall(r"status=(\d+) ", log)))}
        row["stopped_line"] = "stopped; the requests in flight were answered" in log
        return row
    result = wrk(port, script, SECONDS)
    counts, renders = statuses(port)
    after = memory(proc.pid)
    # Two more, shorter runs: a server that leaks keeps growing here; a flat one plateaus.
    again = wrk(port, script, max(5, SECONDS // 4))
    after_again = memory(proc.pid)
    third = wrk(port, script, max(5, SECONDS // 4))
    after_third = memory(proc.pid)
    statuses_before_exit = statuses(port)
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=120)
    drain.wait(timeout=30)
    row.update(result)
    counts, _ = statuses_before_exit
    row.update(statuses=counts, renders=renders, rss_after=after["VmRSS"], rss_after_second=after_again["VmRSS"],
               rss_after_third=after_third["VmRSS"], peak=after_third["VmHWM"], exit=code,
               second_rps=again["rps"], third_rps=third["rps"])
    return row


def main():
    if not shutil.which("wrk"):
        sys.exit("bench-serve: wrk is not installed (apt-get install wrk)")
    scratch = tempfile.mkdtemp(prefix="glslice-bench-serve-")
    url_list = urls()
    assert len(set(url_list)) == 200
    script = os.path.join(scratch, "urls.lua")
    with open(script, "w") as f:
        f.write("local urls = {" + ",".join(json.dumps(u) for u in url_list) + "}\n")
        # BENCH_ACCEPT sends an Accept header (image/webp: the answers are lossless WebP).
        headers = "{['Accept'] = " + json.dumps(ACCEPT) + "}" if ACCEPT else "nil"
        f.write("local i = 0\nrequest = function()\n  i = i % #urls + 1\n  return wrk.format('GET', urls[i], " + headers + ")\nend\n")
        # Threads start at different offsets so they do not ask for the same URL in step.
        f.write("setup = function(thread) thread:set('i', math.random(0, #urls - 1)) end\n")
        f.write("init = function(args) i = tonumber(i) or 0 end\n")
    rows = []
    try:
        for kind in KINDS:
            print(f"bench-serve: {kind} ...", flush=True)
            rows.append(run(kind, scratch, script, url_list))
            print(json.dumps({k: v for k, v in rows[-1].items() if k != "raw"}), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    cpu = open("/proc/cpuinfo").read()
    model = re.search(r"model name\s*:\s*(.*)", cpu)
    print(f"\n{os.cpu_count()} cores ({model.group(1) if model else 'unknown CPU'}), wrk -t2 -c{CONNECTIONS} -d{SECONDS}s on loopback, --backend {BACKEND}, one render thread per core\n")
    print("| run | requests/s | p50 ms | p99 ms | requests | non-200 (of them 503) | renders | RSS MiB: start → after 60 s → after 2nd, 3rd run | peak RSS MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    failed = False
    for r in [r for r in rows if r["kind"] != "drain"]:
        non200 = sum(v for s, v in r["statuses"].items() if s != "200")
        five03 = r["statuses"].get("503", 0)
        print(f"| {r['kind']} | {r['rps']:.0f} | {r['p50']:.2f} | {r['p99']:.2f} | {r['requests']} | {non200} ({five03}) | {r['renders']} "
              f"| {r['rss_start']:.0f} → {r['rss_after']:.0f} → {r['rss_after_second']:.0f}, {r['rss_after_third']:.0f} | {r['peak']:.0f} |")
        if non200 - five03 > 0 or r["exit"] != 0:
            failed = True
    drains = [r for r in rows if r["kind"] == "drain"]
    d = drains[0] if drains else None
    if d:
        print(f"\ndrain: SIGTERM 10 s into a cold load with {d['in_flight']} renders in flight or queued; exit {d['exit']} "
              f"after {d['seconds_to_exit']:.2f} s; {d['answered_before']} answered before SIGTERM, statuses logged in all {d['logged_statuses']}, "
              f"responses wrk received {d['wrk_completed']}; wrk's socket errors (its writes to the closed server): {d['wrk_after_sigterm']}; "
              f"'stopped' line: {d['stopped_line']}")
    if d and (d["exit"] != 0 or not d["stopped_line"] or set(d["logged_statuses"]) != {"200"}):
        failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
