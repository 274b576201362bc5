#!/usr/bin/env python3
"""The preview page in a real browser (make test-browser).

Starts `glslice serve` on a loopback port over a copy of Fixtures/, and Debian's
headless Chromium driven through the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ended by NUL on fds 3 and 4, so no
WebSocket library is needed). The script then does what a designer does:

1. picks texture.png in the source menu;
2. drags the left cap guide 3 source pixels to the right with real mouse events;
3. drags the resize handle by (+90, +40) CSS pixels;
4. switches mode x to `round`.

After each step it waits for the page's image of the new URL, then checks that
- the page's `glslice render` command line, run for real, writes the same PNG
  bytes the page's /render URL answers, and
- the pixels the browser decoded from the page's <img> equal, pixel for pixel,
  the pixels it decodes from that `glslice render` output.

It saves a screenshot to out/preview-browser.png. Exit 0 only when every check held.
"""
import base64
import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GLSLICE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/glslice"))
SHOT = os.path.join(ROOT, "out", "preview-browser.png")
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


class Browser:
    """Chromium with the DevTools protocol on fds 3 (to it) and 4 (from it)."""

    def __init__(self, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            sys.exit("test-browser: chromium is not installed (apt-get install chromium)")

        def fds():
            # Out of the way first, so that neither dup2 overwrites the other's source.
            high_r, high_w = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", "--window-size=1400,900",
             # A name that resolves to 127.0.0.1, as a DNS-rebinding page's would.
             "--host-resolver-rules=MAP rebind.test 127.0.0.1", "about:blank"],
            preexec_fn=fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        self.buffer = b""
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_w, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        self.send("Page.navigate", {"url": url})
        return target

    def eval(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"page error: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.eval(expression):
                return
            time.sleep(0.05)
        raise RuntimeError(f"timed out waiting for {what}")

    def drag(self, x0, y0, x1, y1, steps=6):
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x0, "y": y0})
        self.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x0, "y": y0, "button": "left", "buttons": 1, "clickCount": 1})
        for step in range(1, steps + 1):
            x = x0 + (x1 - x0) * step / steps
            y = y0 + (y1 - y0) * step / steps
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "button": "left", "buttons": 1})
        self.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x1, "y": y1, "button": "left", "buttons": 0, "clickCount": 1})

    def centre(self, selector):
        box = self.eval(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                        " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        return box[0], box[1]

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# Draws both images into canvases and compares the decoded RGBA, byte for byte.
COMPARE = """(async (reference) => {
  const decode = async (src) => { const i = new Image(); i.src = src; await i.decode(); return i; };
  const pixels = (img) => { const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d'); g.drawImage(img, 0, 0); return g.getImageData(0, 0, c.width, c.height).data; };
  const shown = document.getElementById('render1x'), ref = await decode(reference);
  if (shown.naturalWidth !== ref.naturalWidth || shown.naturalHeight !== ref.naturalHeight)
    return {size: [shown.naturalWidth, shown.naturalHeight, ref.naturalWidth, ref.naturalHeight], differing: -1};
  const a = pixels(shown), b = pixels(ref); let differing = 0;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) differing++;
  return {size: [shown.naturalWidth, shown.naturalHeight], differing, bytes: a.length};
})"""


def verify(browser, port, root, scratch, step):
    browser.wait_for("window.preview.loadedUrl !== null && window.preview.loadedUrl === window.preview.requestedUrl"
                     " && document.getElementById('render1x').complete", f"the image after {step}")
    url = browser.eval("window.preview.loadedUrl")
    command = browser.eval("document.getElementById('command').textContent")
    served = urllib.request.urlopen(f"http://127.0.0.1:{port}{url}").read()
    # Run the command line the page shows, from the root, as a designer would paste it.
    args = shlex.split(command)
    check(args[:2] == ["glslice", "render"], f"{step}: the page shows a glslice render command ({command})")
    out = os.path.join(scratch, "expected.png")
    args[args.index("-o") + 1] = out
    result = subprocess.run([GLSLICE] + args[1:] + ["--backend", "cpu"], cwd=root, capture_output=True, text=True)
    check(result.returncode == 0, f"{step}: `{command}` ran ({result.stderr.strip()})")
    expected = open(out, "rb").read()
    check(served == expected, f"{step}: {url} answers the bytes `glslice render` writes ({len(served)} and {len(expected)} bytes)")
    # The manifest line the page shows, through `glslice batch`, writes the same bytes too.
    manifest_line = json.loads(browser.eval("document.getElementById('manifest').textContent"))
    manifest_line["output"] = os.path.join(scratch, "batch-out.png")
    manifest_line["input"] = os.path.join(root, manifest_line["input"])
    manifest = os.path.join(scratch, "manifest.jsonl")
    with open(manifest, "w") as f:
        f.write(json.dumps(manifest_line) + "\n")
    batch = subprocess.run([GLSLICE, "batch", manifest, "--backend", "cpu", "--allow-outside-out-dir"], capture_output=True, text=True)
    # A batch output also records its job digest (a tEXt chunk), so pixels are compared, at tolerance 0.
    same = batch.returncode == 0 and subprocess.run([GLSLICE, "compare", manifest_line["output"], out, "--tolerance", "0"],
                                                    capture_output=True).returncode == 0
    check(same, f"{step}: the page's manifest line renders the same pixels through glslice batch ({batch.stderr.strip()[:200]})")
    compared = browser.eval(f"{COMPARE}('data:image/png;base64,{base64.b64encode(expected).decode()}')")
    check(compared["differing"] == 0,
          f"{step}: the browser's pixels of the page's image equal glslice render's ({compared['size'][0]}x{compared['size'][1]} px, {compared['differing']} bytes differ)")
    return url, command


def write_png(path, width, height, pixels):
    """pixels: rows of (r, g, b, a); stdlib only."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\0" + bytes(c for p in row for c in p) for row in pixels)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def border_image_case(rng, index):
    """One CSS border-image box whose nearest sampling is exact in both renderers:
    whole cap factors, middles that hold whole tiles, whole gaps and centred offsets,
    opposite caps of one factor (CSS scales the bottom edge's tiles by the bottom's)."""
    w, h = rng.randint(6, 14), rng.randint(6, 14)
    t, b = rng.randint(1, h // 2 - 1), rng.randint(1, h // 2 - 1)
    l, r = rng.randint(1, w // 2 - 1), rng.randint(1, w // 2 - 1)
    fx, fy = rng.randint(1, 3), rng.randint(1, 3)
    widths = (t * fy, l * fx, b * fy, r * fx)  # T, L, B, R
    modes = (rng.choice(["stretch", "repeat", "round", "space"]), rng.choice(["stretch", "repeat", "round", "space"]))

    def middle(mode, n, f):
        tile = n * f
        c = rng.randint(1, 4)
        if mode == "stretch":
            return n * rng.randint(1, 5)
        if mode == "repeat":  # partial tiles at both ends, centred on a whole pixel: (L − tile) even
            return tile * (2 * rng.randint(0, 2) + 1) + 2 * rng.randint(0, tile)
        if mode == "round":  # c tiles rescaled to a whole factor g with round(g / f) == 1, or tiles as they are
            if f == 3 and rng.random() < 0.5:
                return n * rng.choice([2, 4])
            return tile * c
        # space: c whole tiles and whole gaps, the gaps too small for another tile
        gap = rng.randint(0, min(3, (tile - 1) // (c + 1)))
        return tile * c + gap * (c + 1)

    # The caps sit on the border-image area, the box grown by the outsets: the middles
    # above are the area's, so the box is what is left once the outsets are taken off.
    outset = tuple(rng.randint(0, 5) for _ in range(4))  # T, L, B, R
    mx = my = -1
    while mx < outset[1] + outset[3]:
        mx = middle(modes[0], w - l - r, fy)
    while my < outset[0] + outset[2]:
        my = middle(modes[1], h - t - b, fx)
    box = (widths[1] + mx + widths[3] - outset[1] - outset[3], widths[0] + my + widths[2] - outset[0] - outset[2])
    pixels = [[(rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255), 255) for _ in range(w)] for _ in range(h)]
    return {"index": index, "size": (w, h), "slice": (t, l, b, r), "widths": widths, "modes": modes, "box": box,
            "outset": outset, "pixels": pixels}


def check_border_images(browser, scratch, count=32):
    """--border-width and --outset against Chromium's border-image: each case's CSS box,
    screenshot with a transparent page, must be within 1 of glslice render's output."""
    import random
    rng = random.Random(2026)
    browser.send("Emulation.setDefaultBackgroundColorOverride", {"color": {"r": 0, "g": 0, "b": 0, "a": 0}})
    worst, held = 0, 0
    for index in range(count):
        case = border_image_case(rng, index)
        w, h = case["size"]
        source = os.path.join(scratch, f"border-{index}.png")
        write_png(source, w, h, case["pixels"])
        t, l, b, r = case["slice"]
        tw, lw, bw, rw = case["widths"]
        to, lo, bo, ro = case["outset"]
        bx, by = case["box"]
        left, top = 40 + lo, 40 + to
        style = (f"position:absolute;left:{left}px;top:{top}px;box-sizing:border-box;width:{bx}px;height:{by}px;"
                 f"border-style:solid;border-width:{tw}px {rw}px {bw}px {lw}px;"
                 f"border-image-source:url(border-{index}.png);border-image-slice:{t} {r} {b} {l} fill;"
                 f"border-image-width:{tw}px {rw}px {bw}px {lw}px;border-image-outset:{to}px {ro}px {bo}px {lo}px;"
                 f"border-image-repeat:{case['modes'][0]} {case['modes'][1]};image-rendering:pixelated")
        page = os.path.join(scratch, f"border-{index}.html")
        with open(page, "w") as f:
            f.write(f"<!doctype html><html><body style='margin:0;background:transparent'><div style='{style}'></div>"
                    f"<img id=src src='border-{index}.png' style='display:none'></body></html>")
        browser.send("Page.navigate", {"url": "file://" + page})
        browser.wait_for("document.readyState === 'complete' && document.getElementById('src')"
                         " && document.getElementById('src').complete", f"border case {index}")
        time.sleep(0.05)
        shot = browser.send("Page.captureScreenshot", {"format": "png", "clip": {
            "x": 40, "y": 40, "width": bx + lo + ro, "height": by + to + bo, "scale": 1}})
        chromium_png = os.path.join(scratch, f"border-{index}-chromium.png")
        with open(chromium_png, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        ours = os.path.join(scratch, f"border-{index}-glslice.png")
        command = [GLSLICE, "render", source, "--insets", f"{t},{l},{b},{r}", "--pixels", f"{bx}x{by}",
                   "--border-width", f"{tw},{lw},{bw},{rw}", "--outset", f"{to},{lo},{bo},{ro}",
                   "--mode-x", case["modes"][0], "--mode-y", case["modes"][1], "--filter", "nearest",
                   "--backend", "cpu", "-o", ours]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            check(False, f"border case {index}: glslice render failed: {result.stderr.strip()}")
            continue
        compared = subprocess.run([GLSLICE, "compare", chromium_png, ours, "--tolerance", "1", "--json"],
                                  capture_output=True, text=True)
        try:
            report = json.loads(compared.stdout)
        except ValueError:
            check(False, f"border case {index}: compare said {compared.stdout.strip()} {compared.stderr.strip()}")
            continue
        worst = max(worst, report["max-difference"])
        ok = compared.returncode == 0
        held += ok
        if not ok:
            print(f"     case {index}: {' '.join(shlex.quote(c) for c in command[1:])}\n     css: {style}\n     {report}")
    check(held == count, f"--border-width and --outset: {held} of {count} generated cases within 1 of Chromium's"
                         f" border-image (largest difference {worst})")


def cross_site_checks(browser, port, root, scratch):
    """Issue 31's findings 1 and 2 in a real browser: writes from a foreign origin and a
    rebound Host are refused, and nothing is written; the page's own tab is restored."""
    import http.server
    import threading
    page = os.path.join(scratch, "evil")
    os.makedirs(page, exist_ok=True)
    with open(os.path.join(page, "index.html"), "w") as f:
        f.write("<!doctype html><title>another site</title>")
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=page, **k)
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    target = os.path.join(root, "bubble.9.png")
    before = open(target, "rb").read()
    own = browser.session
    own_target = browser.send("Target.getTargetInfo")["targetInfo"]["targetId"]
    opened = []
    try:
        opened.append(browser.open(f"http://127.0.0.1:{other.server_port}/index.html"))
        browser.wait_for("document.readyState === 'complete' && document.title === 'another site'", "the other site's page")
        url = f"http://127.0.0.1:{port}/preview/save-nine-patch"
        body = json.dumps({"source": "panel.png", "output": "bubble.9.png", "x": [[6, 11]], "y": [[7, 9]]})
        sent = browser.eval(f"""(async () => {{
            const body = {json.dumps(body)};
            const simple = await fetch({json.dumps(url)}, {{method: "POST", mode: "no-cors", headers: {{"content-type": "text/plain"}}, body}})
                .then(r => r.type, e => "error");
            const cors = await fetch({json.dumps(url)}, {{method: "POST", headers: {{"content-type": "application/json"}}, body}})
                .then(r => "answered " + r.status, e => "blocked");
            return [simple, cors];
        }})()""")
        refused = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
        check(open(target, "rb").read() == before and sent[1] == "blocked" and 'status="415"' in refused,
              f"a page on another origin wrote nothing: no-cors text/plain answered 415, the JSON POST's preflight was refused ({sent})")
        opened.append(browser.open(f"http://rebind.test:{port}/preview/sources"))
        browser.wait_for("document.readyState === 'complete' && document.body !== null", "the rebound page")
        text = browser.eval("document.body.innerText")
        check("not known by the name 'rebind.test" in text and "bubble" not in text,
              f"a rebound name (rebind.test -> 127.0.0.1) is answered 421, not the source list ({text[:120]!r})")
    finally:
        # Back to the page's own tab, in front: a background tab's screenshot never comes.
        for target in opened:
            browser.send("Target.closeTarget", {"targetId": target}, session=False)
        browser.session = own
        browser.send("Target.activateTarget", {"targetId": own_target}, session=False)
        other.shutdown()


# The page's CSS box (drawn by Chromium) and the page's render, both screenshot at the
# render's scale as device scale factor, so one device pixel is one output pixel.
CSS_VS_RENDER = """(async (shot, rendered, margin) => {
  const decode = async (src) => { const i = new Image(); i.src = src; await i.decode(); return i; };
  const pixels = (img) => { const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
    const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height); g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, c.width, c.height).data; };
  const a = await decode(shot), b = await decode(rendered), p = pixels(a), q = pixels(b);
  const W = a.naturalWidth, w = b.naturalWidth, h = b.naturalHeight;
  // The box lands on whole device pixels wherever Chromium snaps it: the best of the
  // placements within the margin is the one compared.
  let best = null;
  for (let dy = 0; dy <= 2 * margin; dy++) for (let dx = 0; dx <= 2 * margin; dx++) {
    let max = 0, over = 0;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = ((y + dy) * W + x + dx) * 4, j = (y * w + x) * 4;
      let d = 0;
      for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(p[i + c] - q[j + c]));
      max = Math.max(max, d); if (d > 1) over++;
    }
    if (!best || over < best.over || (over === best.over && max < best.max)) best = {size: [w, h], max, over, offset: [dx - margin, dy - margin]};
  }
  return best;
})"""


def page_shots(browser, name):
    """The page at 900 and 1,600 px wide, as the issue asks, then back to the test's 1,400."""
    for width, height in [(900, 1400), (1600, 1100)]:
        browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        time.sleep(0.4)
        save_screenshot(browser, SHOT.replace(".png", f"-{name}-{width}.png"))
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    time.sleep(0.2)


def choose_source(browser, path):
    browser.eval(f"(() => {{ const s = document.getElementById('source'); s.value = {json.dumps(path)};"
                 " s.dispatchEvent(new Event('change')); })()")
    browser.wait_for(f"window.preview.ready && window.preview.state.info && window.preview.state.info.path === {json.dumps(path)}", path)


def css_checks(browser, port, root, scratch):
    """Issue 33's page: CSS where CSS can say it (button@2x.png: Chromium's drawing of the
    copied CSS equals the render), declined with the rendered image offered where it cannot
    (bubble.9.png's two runs across), and an unsaved marker drag that changes the render."""
    choose_source(browser, "button@2x.png")
    verify(browser, port, root, scratch, "button@2x.png picked")
    state = browser.eval("[window.preview.state.insetsPx, window.preview.state.modeX, window.preview.state.modeY, window.preview.state.scale]")
    caps, scale = state[0], state[3]
    whole = all(caps[side] % 2 == 0 for side in ("top", "left", "bottom", "right"))
    check(whole and state[1] == "stretch" and state[2] == "stretch",
          f"button@2x.png opens with caps in whole points ({caps} px at @2x) and stretch ({state[1]}, {state[2]})")
    css = browser.eval("window.preview.css")
    check(css["ok"] and "stretch stretch" in css["text"] and "format=png" in css["text"] and "button%402x.png" in css["text"].replace("@", "%40"),
          f"button@2x.png gets CSS: its artwork at a URL the page serves, stretch as glslice draws ({css['text'].splitlines()[-1][:160]})")
    artwork = re.search(r'url\("([^"]+)"\)', css["text"]).group(1)
    check(urllib.request.urlopen(artwork).status == 200, f"the CSS's image URL answers 200 ({artwork[-80:]})")
    # Both at device scale 2: one device pixel per output pixel.
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 900, "deviceScaleFactor": scale, "mobile": False})
    browser.eval("document.getElementById('cssView').scrollIntoView()")
    time.sleep(0.4)
    # In page coordinates (the clip's), not the viewport's: the page may have scrolled to show the box.
    box = browser.eval("(() => { const r = document.getElementById('cssView').getBoundingClientRect(); return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()")
    # Two CSS px more on each side: where the box's edge falls is compared too.
    shot = browser.send("Page.captureScreenshot", {"format": "png", "clip": {
        "x": box[0] - 2, "y": box[1] - 2, "width": box[2] + 4, "height": box[3] + 4, "scale": 1}})
    url = browser.eval("window.preview.loadedUrl")
    rendered = urllib.request.urlopen(f"http://127.0.0.1:{port}{url}").read()
    # Both kept for a look: Chromium's drawing of the CSS, and glslice's render (out/ may not exist yet in a fresh clone).
    os.makedirs(os.path.dirname(SHOT), exist_ok=True)
    with open(SHOT.replace(".png", "-css-chromium.png"), "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    with open(SHOT.replace(".png", "-css-glslice.png"), "wb") as f:
        f.write(rendered)
    compared = browser.eval(f"{CSS_VS_RENDER}('data:image/png;base64,{shot['data']}', 'data:image/png;base64,{base64.b64encode(rendered).decode()}', {2 * scale})")
    check(compared["over"] == 0,
          f"Chromium drawing the page's CSS for button@2x.png equals the render over white within 1 level "
          f"({compared['size'][0]}x{compared['size'][1]} px, largest difference {compared['max']}, {compared['over']} pixels over 1,"
          f" box snapped {compared['offset']} device px from its layout position)")
    browser.send("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    browser.eval("window.scrollTo(0, 0)")
    page_shots(browser, "button2x-css")

    # bubble.9.png: two runs across, so no CSS; the rendered image instead. Auto is the nine-patch's stretch.
    choose_source(browser, "bubble.9.png")
    verify(browser, port, root, scratch, "bubble.9.png picked for CSS")
    css = browser.eval("window.preview.css")
    note = browser.eval("document.getElementById('cssNote').textContent")
    check(not css["ok"] and "2 across" in note and "/render/bubble.9.png?" in css["text"] and "no-repeat" in css["text"]
          and browser.eval("document.getElementById('cssFigure').hidden"),
          f"bubble.9.png's CSS is declined ({note[:90]}...) and the rendered image offered ({css['text'].splitlines()[0][:90]})")
    menu = browser.eval("document.getElementById('modeX').options[0].textContent")
    check(menu == "auto (stretch)", f"the mode menu shows what auto draws for a nine-patch ({menu})")
    page_shots(browser, "bubble-css-declined")

    # An unsaved marker drag: the render follows it (lattice in the query), before any save.
    marker_url = browser.eval("window.preview.loadedUrl")
    zoom = browser.eval("parseInt(document.getElementById('zoom').value, 10)")
    run0 = browser.eval("window.preview.state.runs.x[0]")
    x, y = browser.centre(".edge[data-axis=x][data-index='0'][data-end=start]")
    browser.drag(x, y, x - 4 * zoom, y)
    dragged = browser.eval("window.preview.state.runs.x[0]")
    url, command = verify(browser, port, root, scratch, "bubble.9.png's first run dragged, unsaved")
    before = urllib.request.urlopen(f"http://127.0.0.1:{port}{marker_url}").read()
    after = urllib.request.urlopen(f"http://127.0.0.1:{port}{url}").read()
    check(dragged == [run0[0] - 4, run0[1]] and "lattice=" in url and before != after and "--lattice" in command,
          f"an unsaved marker drag ({run0} -> {dragged}) changes the render: {url[-60:]}")
    page_shots(browser, "bubble-marker-drag")
    # Back to the file's own markers for the save steps below.
    choose_source(browser, "bubble.9.png")


def save_screenshot(browser, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shot = browser.send("Page.captureScreenshot", {"format": "png"})
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    print(f"test-browser: screenshot in {path}")


def main():
    scratch = tempfile.mkdtemp(prefix="glslice-browser-")
    root = os.path.join(scratch, "root")
    shutil.copytree(os.path.join(ROOT, "Fixtures"), root, ignore=shutil.ignore_patterns("bad", "pngsuite"))
    server = subprocess.Popen([GLSLICE, "serve", "--root", root, "--bind", "127.0.0.1:0", "--backend", "cpu", "--no-access-log"],
                              stderr=subprocess.PIPE, text=True)
    browser = None
    try:
        match, seen = None, ""
        while not match:
            line = server.stderr.readline()
            if not line:
                sys.exit(f"test-browser: the server did not start: {seen}")
            seen += line
            match = re.search(r"serving .* on http://127\.0\.0\.1:(\d+)/", line)
        port = int(match.group(1))
        browser = Browser(os.path.join(scratch, "profile"))
        browser.open(f"http://127.0.0.1:{port}/")
        browser.wait_for("window.preview && window.preview.ready", "the preview page")
        start = browser.eval("window.preview.state.source")
        check(start == "button@2x.png", f"the page opens on a representative source (button@2x.png, got {start})")
        groups = browser.eval("[...document.querySelectorAll('#source optgroup')].map((g) => g.label)")
        check(groups[:2] == ["(top level)", "android/"], f"the source menu is grouped by folder ({groups})")
        browser.eval("(() => { const f = document.getElementById('sourceFilter'); f.value = 'optical';"
                     " f.dispatchEvent(new Event('input')); })()")
        shown = browser.eval("[...document.getElementById('source').options].map((o) => o.value)")
        check(sorted(shown) == sorted(["android/optical.9.png", "android/optical.compiled.png", "button@2x.png"]),
              f"the filter box leaves the matching sources (and the one shown): {shown}")
        browser.eval("(() => { const f = document.getElementById('sourceFilter'); f.value = ''; f.dispatchEvent(new Event('input')); })()")
        css_checks(browser, port, root, scratch)

        # 1. Pick a source in the menu.
        browser.eval("(() => { const s = document.getElementById('source'); s.value = 'texture.png';"
                     " s.dispatchEvent(new Event('change')); })()")
        browser.wait_for("window.preview.state.source === 'texture.png' && window.preview.ready && window.preview.state.info"
                         " && window.preview.state.info.path === 'texture.png'", "texture.png")
        first_url, _ = verify(browser, port, root, scratch, "texture.png picked")

        # 2. Drag the left cap guide 3 source pixels left (the zoom is CSS pixels per source pixel; the page starts on a 1-px centre).
        zoom = browser.eval("parseInt(document.getElementById('zoom').value, 10)")
        before = browser.eval("window.preview.state.insetsPx.left")
        # Pressed near its top: around a 1-px centre the four guides cross in the middle.
        x, y = browser.eval("(() => { const r = document.querySelector('.guide[data-side=left]').getBoundingClientRect();"
                            " return [r.left + r.width / 2, r.top + 12]; })()")
        browser.drag(x, y, x - 3 * zoom, y)
        after = browser.eval("window.preview.state.insetsPx.left")
        check(after == before - 3, f"dragging the left guide by 3 source px moved the cap from {before} to {after} px")
        url, command = verify(browser, port, root, scratch, "left guide dragged")
        caps = browser.eval("window.preview.state.insetsPx")
        check(url != first_url and f"insets={caps['top']}%2C{before - 3}%2C{caps['bottom']}%2C{caps['right']}" in url.replace(",", "%2C"),
              f"the URL carries the new cap ({url})")

        # 2b. Type the top cap, then nudge it with the arrow key.
        browser.eval("(() => { const f = document.getElementById('insetTop'); f.value = ''; f.focus(); })()")
        browser.send("Input.insertText", {"text": "5"})
        browser.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": "ArrowUp", "code": "ArrowUp", "windowsVirtualKeyCode": 38})
        browser.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": "ArrowUp", "code": "ArrowUp", "windowsVirtualKeyCode": 38})
        typed = browser.eval("window.preview.state.insetsPx.top")
        check(typed == 6, f"typing 5 in the top cap field and pressing the up arrow sets the top cap to 6 px (got {typed})")
        browser.eval("document.getElementById('insetTop').blur()")
        url, command = verify(browser, port, root, scratch, "top cap typed")
        check("--insets 6," in command, f"the command line carries the typed cap ({command})")

        # 3. Drag the resize handle (device-scale view: one CSS pixel per point).
        w0, h0 = browser.eval("[window.preview.state.width, window.preview.state.height]")
        x, y = browser.centre("#handle")
        browser.drag(x, y, x + 90, y + 40)
        w1, h1 = browser.eval("[window.preview.state.width, window.preview.state.height]")
        check((w1, h1) == (w0 + 90, h0 + 40), f"dragging the handle by (90, 40) resized {w0}x{h0} pt to {w1}x{h1} pt")
        url, command = verify(browser, port, root, scratch, "resized by the handle")
        check(f"--size {w1}x{h1}" in command, f"the command line says the new size ({command})")

        # 4. Mode x: round (a select, as a user picks it).
        # The other axis keeps the mode the source opened with (texture.png's guess tiles both axes).
        mode_y = browser.eval("window.preview.state.modeY")
        browser.eval("(() => { const m = document.getElementById('modeX'); m.value = 'round'; m.dispatchEvent(new Event('change')); })()")
        url, command = verify(browser, port, root, scratch, "mode x round")
        check(mode_y != "round" and f"--mode-x round --mode-y {mode_y}" in command,
              f"the command line names both axes' modes, y kept at {mode_y} ({command})")

        # 5. Scale 2 on the slider: twice the pixels, the same points at device scale.
        browser.eval("(() => { const s = document.getElementById('scale'); s.value = '2'; s.dispatchEvent(new Event('input')); })()")
        url, command = verify(browser, port, root, scratch, "scale 2")
        shown = browser.eval("(() => { const r = document.getElementById('renderDevice').getBoundingClientRect();"
                             " const i = document.getElementById('render1x'); return [r.width, r.height, i.naturalWidth, i.naturalHeight]; })()")
        check(shown == [w1, h1, 2 * w1, 2 * h1], f"at scale 2 the device view is {w1}x{h1} CSS px and the image {2 * w1}x{2 * h1} px ({shown})")

        save_screenshot(browser, SHOT)

        # 6. A nine-patch: its markers give the lattice, so the page sends no insets.
        browser.eval("(() => { const s = document.getElementById('source'); s.value = 'bubble.9.png';"
                     " s.dispatchEvent(new Event('change')); })()")
        browser.wait_for("window.preview.state.info && window.preview.state.info.path === 'bubble.9.png'", "bubble.9.png")
        url, command = verify(browser, port, root, scratch, "bubble.9.png picked")
        check("insets" not in url and browser.eval("document.querySelectorAll('.box').length") >= 1
              and browser.eval("document.querySelectorAll('.guide').length") == 0,
              f"a nine-patch shows its padding box and no draggable guides, and asks for no insets ({url})")

        save_screenshot(browser, SHOT.replace(".png", "-ninepatch.png"))

        # 6b. Drag the end of bubble.9.png's first stretch run 2 source px right, and save it as a new .9.png.
        zoom = browser.eval("parseInt(document.getElementById('zoom').value, 10)")
        run0 = browser.eval("window.preview.state.runs.x[0]")
        x, y = browser.centre(".edge[data-axis=x][data-index='0'][data-end=end]")
        browser.drag(x, y, x + 2 * zoom, y)
        dragged = browser.eval("window.preview.state.runs.x[0]")
        check(dragged == [run0[0], run0[1] + 2] and browser.eval("window.preview.state.dirty"),
              f"dragging the marker moved the first run from {run0} to {dragged}")
        browser.eval("document.getElementById('saveNinePatch').click()")
        browser.wait_for("window.preview.saved && window.preview.state.source === window.preview.saved && window.preview.ready",
                         "the saved nine-patch")
        saved = browser.eval("window.preview.saved")
        inspected = subprocess.run([GLSLICE, "inspect", os.path.join(root, saved)], capture_output=True, text=True).stdout
        check(f"{dragged[0]}-{dragged[1]} scalable" in inspected and saved == "bubble-edited.9.png",
              f"the saved {saved} has the dragged run ({inspected.splitlines()[1] if inspected else inspected})")
        verify(browser, port, root, scratch, f"{saved} saved")

        # 6c. The @3x image set: its magnified source stays inside its panel, beside the controls.
        browser.eval("(() => { const s = document.getElementById('source'); s.value = 'button.imageset';"
                     " s.dispatchEvent(new Event('change')); })()")
        browser.wait_for("window.preview.ready && window.preview.state.info && window.preview.state.info.kind === 'imageset'", "the image set")
        browser.eval("(() => { const s = document.getElementById('scaleN'); s.value = '3'; s.dispatchEvent(new Event('input'));"
                     " s.dispatchEvent(new Event('change')); })()")
        browser.wait_for("window.preview.state.info && window.preview.state.info.scale === 3", "the @3x variant")
        verify(browser, port, root, scratch, "the image set at @3x")
        boxes = browser.eval("(() => { const r = (id) => document.getElementById(id).getBoundingClientRect();"
                             " return [r('sourceSection').right, r('sourceScroll').right, r('controlsSection').left, r('sourceCanvas').width]; })()")
        check(boxes[1] <= boxes[0] and boxes[0] <= boxes[2],
              f"at @3x the magnified source ({boxes[3]:.0f} px wide) stays in its panel (right edge {boxes[1]:.0f} <= {boxes[0]:.0f}) and off the controls (from {boxes[2]:.0f})")
        save_screenshot(browser, SHOT.replace(".png", "-imageset3x.png"))

        # 6c'. Type a new left cap for the set (30 px at @3x: 10 pt) and write it into every image's cap-insets.
        browser.eval("(() => { const f = document.getElementById('insetLeft'); f.value = '30'; f.dispatchEvent(new Event('input')); })()")
        # It asks first (a confirm naming Contents.json); declined, nothing is written.
        contents_path = os.path.join(root, "button.imageset", "Contents.json")
        untouched = open(contents_path, "rb").read()
        browser.eval("window.confirm = (q) => { window.asked = q; return false; }; document.getElementById('writeImageSet').click()")
        browser.wait_for("window.preview.confirmed === false", "the declined confirmation")
        time.sleep(0.3)
        check("Contents.json" in browser.eval("window.asked") and open(contents_path, "rb").read() == untouched,
              f"Write to image set asks first and a No writes nothing ({browser.eval('window.asked')[:100]})")
        browser.eval("window.confirm = () => true; window.preview.saved = null; document.getElementById('writeImageSet').click()")
        browser.wait_for("window.preview.saved !== null && window.preview.state.info && window.preview.state.info.latticeX"
                         " && window.preview.state.info.latticeX[0][1] === 30", "the written image set")
        contents = json.load(open(os.path.join(root, "button.imageset", "Contents.json")))
        lefts = sorted((image["scale"], image["resizing"]["cap-insets"]["left"]) for image in contents["images"] if "resizing" in image)
        check(lefts == [("1x", 10), ("2x", 20), ("3x", 30)], f"Write to image set put 10 pt into each image's left cap-inset ({lefts})")
        verify(browser, port, root, scratch, "the image set's caps written")

        # 6c''. Another site cannot write through the user's browser, nor can a rebound name
        # read: a page at another origin POSTs as a no-cors form would (text/plain, no
        # preflight) and as JSON (which needs a preflight the server never grants).
        cross_site_checks(browser, port, root, scratch)

        # 6d. A refused render: the message shows, the last good render stays.
        good = browser.eval("window.preview.goodUrl")
        browser.eval("(() => { const w = document.getElementById('widthN'); w.value = '100000'; w.dispatchEvent(new Event('input')); })()")
        browser.wait_for("window.preview.error !== null", "the refusal")
        fits = browser.eval("(() => { const f = document.getElementById('widthN'); return [f.scrollWidth, f.clientWidth]; })()")
        check(fits[0] <= fits[1], f"the width field shows 100000 whole (text {fits[0]} px in a {fits[1]} px field)")
        kept = browser.eval("[document.getElementById('render1x').src, document.getElementById('render1x').naturalWidth,"
                            " document.getElementById('error').textContent]")
        check(kept[0].endswith(good) and kept[1] > 0 and "above the limit" in kept[2],
              f"after a refused render the last good one stays ({kept[0][-60:]}, {kept[1]} px wide) beside the message ({kept[2]})")

        # 6e. The page at 900 and 1,600 px wide: nothing cut off, nothing overlapping.
        browser.eval("(() => { const w = document.getElementById('widthN'); w.value = '160'; w.dispatchEvent(new Event('input')); })()")
        for width, height in [(900, 1100), (1600, 1000)]:
            browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
            time.sleep(0.3)
            overflow = browser.eval("document.documentElement.scrollWidth")
            check(overflow <= width, f"at {width} px wide the page needs no sideways scrolling (scroll width {overflow})")
            save_screenshot(browser, SHOT.replace(".png", f"-{width}.png"))

        # 7. CSS's border-image-width and -outset: glslice's --border-width and --outset against Chromium.
        check_border_images(browser, scratch)
    finally:
        if browser:
            browser.close()
        server.terminate()
        code = server.wait(timeout=30)
        check(code == 0, f"the server exits 0 on SIGTERM (got {code})")
        shutil.rmtree(scratch, ignore_errors=True)
    if failures:
        sys.exit(f"test-browser: {len(failures)} check(s) failed")
    print("test-browser: every check held")


if __name__ == "__main__":
    main()
