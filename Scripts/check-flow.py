#!/usr/bin/env python3
"""Checks that each library target's folders use only types from folders earlier in its
flow (docs/DESIGN.md, "Layout of the code"). Prints each backward use and exits 1 if there is one."""
import os
import re
import sys

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
FLOWS = {
    "GlsliceKit": ["Model", "Source", "Plan", "CPU", "GPU", "Backend", "PNG", "Engine", "Render", "Parity", "Assets", "Batch"],
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
            for m in re.finditer(r"^(?:public |final |open |private |fileprivate )*(?:class|struct|enum|protocol|typealias)\s+([A-Z]\w*)", text, re.M):
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


total = sum(check(target, order) for target, order in FLOWS.items())
sys.exit(1 if total else 0)
