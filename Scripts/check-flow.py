#!/usr/bin/env python3
"""Checks that each library target's folders use only types from folders earlier in its
flow (docs/DESIGN.md, "Layout of the code"). Prints each backward use and exits 1 if there is one."""
import os
import re
import sys

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
FLOWS = {
    "GlsliceKit": ["Model", "PNG", "WebP", "Source", "Plan", "CPU", "GPU", "Backend", "Engine", "Render", "Parity", "Assets", "Batch"],
    "GlsliceServe": ["Request", "Rendering", "Preview", "HTTP"],
}


def check(target, order):
    root = os.path.join(SOURCES, target)
    folders = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    if folders != sorted(order):
        sys.exit(f"check-flow: {target}'s folders {folders} are not the flow {order}; update both together")
    home = {}  # top-level type name -> folder
    for folder in order:
        for name in os.listdir(os.path.join(root, folder)):
            if not name.endswith(".swift"):
                continue
            text = open(os.path.join(root, folder, name), encoding="utf-8").read()
            for m in re.finditer(r"^(?:@\w+ )*(?:public |package |internal |final |open |private |fileprivate |indirect )*(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z]\w*)", text, re.M):
                home.setdefault(m.group(1), folder)
    problems = 0
    for index, folder in enumerate(order):
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if not name.endswith(".swift"):
                continue
            code = re.sub(r"//.*", "", open(os.path.join(root, folder, name), encoding="utf-8").read())
            code = re.sub(r'"[^"\n]*"', '""', code)
            for type_name, owner in home.items():
                if order.index(owner) > index and re.search(r"\b" + type_name + r"\b", code):
                    print(f"check-flow: {target}/{folder}/{name} uses {type_name} from {owner}, later in the flow")
                    problems += 1
    print(f"check-flow: {target}: {len(home)} types in {len(order)} folders, {problems} backward uses")
    return problems


DECLARATION = re.compile(r"^(?:@\w+(?:\([^)]*\))? )*(?:public |package |internal |final |open |private |fileprivate |indirect )*"
                         r"(?:class|struct|enum|protocol|actor)\s+([A-Z]\w*)", re.M)


def check_one_concept_per_file():
    """Files with more than one top-level type must be the ones docs/DESIGN.md lists, with those types."""
    design = open(os.path.join(SOURCES, "..", "docs", "DESIGN.md"), encoding="utf-8").read()
    listed = {}
    for m in re.finditer(r"^\| `([\w/]+\.swift)` \| ([^|]+) \|", design, re.M):
        listed[m.group(1)] = sorted(re.findall(r"`(\w+)`", m.group(2)))
    found = {}
    for target in os.listdir(SOURCES):
        for folder, _, names in os.walk(os.path.join(SOURCES, target)):
            for name in names:
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    types = DECLARATION.findall(open(path, encoding="utf-8").read())
                    if len(types) > 1:
                        key = os.path.relpath(path, os.path.join(SOURCES, "GlsliceKit" if target == "GlsliceKit" else ""))
                        found[key] = sorted(types)
    problems = 0
    for path, types in sorted(found.items()):
        if listed.get(path) != types:
            print(f"check-flow: {path} holds {', '.join(types)}: split it, or list it with a reason in docs/DESIGN.md")
            problems += 1
    for path in sorted(set(listed) - set(found)):
        print(f"check-flow: docs/DESIGN.md lists {path} as holding several types, but it does not")
        problems += 1
    print(f"check-flow: {len(found)} files hold more than one type, each listed with a reason")
    return problems


total = sum(check(target, order) for target, order in FLOWS.items()) + check_one_concept_per_file()
sys.exit(1 if total else 0)
