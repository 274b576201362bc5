#!/usr/bin/env python3
"""Lists GlsliceKit's public declarations, one per line (`File.swift: declaration`),
in file order. `--check docs/API.md` exits 1 when the list there differs, so the
public surface changes only on purpose (`--write docs/API.md` updates it)."""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources", "GlsliceKit")
BEGIN, END = "<!-- public-api:begin -->", "<!-- public-api:end -->"
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public|open)\s+(.*)$")


def declarations():
    found = []
    for folder, _, files in sorted(os.walk(SOURCES)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            for line in open(path, encoding="utf-8"):
                m = DECLARATION.match(line)
                if not m:
                    continue
                text = "public " + m.group(1)
                text = re.sub(r"\s*\{.*$", "", text).rstrip()
                text = re.sub(r"\s*=.*$", "", text) if " var " in f" {text} " or " let " in f" {text} " else text
                found.append(f"{os.path.relpath(path, SOURCES)}: {text}")
    return found


def listing():
    items = declarations()
    body = "\n".join(f"- `{item}`" for item in items)
    return f"{BEGIN}\n{len(items)} public declarations.\n\n{body}\n{END}"


def main():
    if len(sys.argv) == 3 and sys.argv[1] in ("--check", "--write"):
        doc = sys.argv[2]
        text = open(doc, encoding="utf-8").read()
        if BEGIN not in text or END not in text:
            sys.exit(f"public-api: {doc} has no {BEGIN} ... {END} block")
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        new = head + listing() + tail
        if sys.argv[1] == "--write":
            open(doc, "w", encoding="utf-8").write(new)
            print(f"public-api: wrote {len(declarations())} declarations to {doc}")
        elif new != text:
            sys.exit(f"public-api: {doc} does not list GlsliceKit's public declarations; run Scripts/public-api.py --write {doc}")
        else:
            print(f"public-api: {doc} lists all {len(declarations())} public declarations")
        return
    for item in declarations():
        print(item)
    print(f"{len(declarations())} public declarations", file=sys.stderr)


main()
