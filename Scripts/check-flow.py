#!/usr/bin/env python3
"""Checks that GlsliceKit's folders use only types from folders earlier in the flow
(README, "Layout of the code"). Prints each backward use and exits 1 if there is one."""
import os
import re
import sys

ORDER = ["Model", "Source", "Plan", "CPU", "GPU", "Backend", "PNG", "Render", "Parity", "Assets", "Batch"]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "GlsliceKit")
folders = sorted(os.listdir(root))
if folders != sorted(ORDER):
    sys.exit(f"check-flow: folders {folders} are not the flow {ORDER}; update both together")

home = {}  # top-level type name -> folder
for folder in ORDER:
    for name in os.listdir(os.path.join(root, folder)):
        text = open(os.path.join(root, folder, name), encoding="utf-8").read()
        for m in re.finditer(r"^(?:public |final |open |private |fileprivate )*(?:class|struct|enum|protocol|typealias)\s+([A-Z]\w*)", text, re.M):
            home.setdefault(m.group(1), folder)

problems = 0
for index, folder in enumerate(ORDER):
    for name in sorted(os.listdir(os.path.join(root, folder))):
        code = re.sub(r"//.*", "", open(os.path.join(root, folder, name), encoding="utf-8").read())
        code = re.sub(r'"[^"\n]*"', '""', code)
        for type_name, owner in home.items():
            if ORDER.index(owner) > index and re.search(r"\b" + type_name + r"\b", code):
                print(f"check-flow: {folder}/{name} uses {type_name} from {owner}, later in the flow")
                problems += 1
print(f"check-flow: {len(home)} types in {len(ORDER)} folders, {problems} backward uses")
sys.exit(1 if problems else 0)
