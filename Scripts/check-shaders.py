#!/usr/bin/env python3
"""`make test`'s shader check (issue 68): every shader as the driver gets it (the compute shaders with
their generated #defines and `#line 2`, written by `glslice-bench shaders`) must pass glslang, the
Khronos reference compiler (Debian's glslang-tools), which is stricter than Mesa where NVIDIA's
compiler is; the error lines must be the file's own (a line glslang is told is wrong is checked to be
that line of the file); and no per-invocation array in a compute shader may be over 1 KiB (NVIDIA's
compiler refused 32 KiB ones that llvmpipe took).

Usage: check-shaders.py GLSLICE-BENCH SHADERS-FOLDER"""
import os
import re
import subprocess
import sys
import tempfile

bench, sources = sys.argv[1], sys.argv[2]
failures = []
with tempfile.TemporaryDirectory() as folder:
    subprocess.run([bench, "shaders", folder], check=True, capture_output=True)
    names = sorted(os.listdir(folder))
    if len(names) != 6:
        failures.append("expected 6 shaders, got %s" % names)
    for name in names:
        path = os.path.join(folder, name)
        text = open(path).read()
        done = subprocess.run(["glslangValidator", path], capture_output=True, text=True)
        if done.returncode != 0:
            failures.append("%s: glslang refused it:\n%s" % (name, done.stdout + done.stderr))
        # The lines the driver sees are the file's: after `#line 2` each line is the file's line.
        own = open(os.path.join(sources, name)).read().split("\n")
        seen = text.split("\n")
        if "#line 2" in seen:
            after = seen[seen.index("#line 2") + 1:]
            if after != own[1:]:
                failures.append("%s: the lines after #line 2 are not the file's from its line 2" % name)
        elif name.endswith(".comp"):
            failures.append("%s: no #line 2 after the generated defines" % name)
        # A wrong line is reported at the file's line: break line 10 and look for "10" in glslang's error.
        if name.endswith(".comp") and "#line 2" in seen:
            start = seen.index("#line 2") + 1
            broken = seen[:start + 8] + ["this is not GLSL;"] + seen[start + 9:]
            bad = os.path.join(folder, "broken-" + name)
            open(bad, "w").write("\n".join(broken))
            out = subprocess.run(["glslangValidator", bad], capture_output=True, text=True).stdout
            if not re.search(r"ERROR: \S*:10:", out):
                failures.append("%s: an error on line 10 of the file was not reported at line 10:\n%s" % (name, out))
            os.remove(bad)
        # Per-invocation arrays: declarations inside functions (not shared, not in a buffer block).
        if name.endswith(".comp"):
            defines = dict(re.findall(r"^#define (\w+) (.+)$", text, re.M))
            blocks = []  # the line that opened each enclosing block
            opener = ""  # the last line with code, for a brace on a line of its own
            for number, line in enumerate(text.split("\n"), 1):
                code = line.split("//")[0]
                # Inside a function (not a buffer, uniform or struct block): each invocation's own.
                in_function = bool(blocks) and not re.search(r"\b(buffer|uniform|struct)\b", blocks[0])
                # A global that is not shared, constant or an interface block is each invocation's too.
                private_global = not blocks and not re.search(r"\b(shared|const|layout|uniform|buffer|in|out)\b", code)
                if (in_function and "shared" not in code) or private_global:
                    for kind, var, size in re.findall(r"\b(u?int|float|bool|[iu]?vec[234])\s+(\w+)\s*\[([^\]]+)\]", code):
                        expression = size
                        for _ in range(5):
                            expression = re.sub(r"\b([A-Z_][A-Z0-9_]*)\b", lambda m: "(%s)" % defines.get(m.group(1), m.group(1)), expression)
                        try:
                            count = int(eval(expression.replace("u", ""), {}))
                        except Exception:
                            failures.append("%s:%d: cannot size %s[%s]" % (name, number, var, size))
                            continue
                        words = {"vec2": 2, "vec3": 3, "vec4": 4}.get(kind.lstrip("iu"), 1)
                        if count * 4 * words > 1024:
                            failures.append("%s:%d: per-invocation array %s is %d bytes (over 1 KiB)" % (name, number, var, count * 4 * words))
                for ch in code:
                    if ch == "{":
                        blocks.append(code if code.strip() != "{" else opener)
                    elif ch == "}" and blocks:
                        blocks.pop()
                if code.strip():
                    opener = code
if failures:
    print("check-shaders: %d problem(s)" % len(failures))
    for failure in failures:
        print("  " + failure)
    sys.exit(1)
print("check-shaders: %d shaders pass glslang, their lines are the files', no per-invocation array over 1 KiB" % len(names))
