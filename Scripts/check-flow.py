#!/usr/bin/env python3
"""Checks that each library target's folders use only types from folders earlier in its
flow (docs/DESIGN.md, "Layout of the code"). Prints each backward use and exits 1 if there is one."""
import os
import re
import sys

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
# Each target's folders in the order data flows through them; a folder uses only types from
# folders before it. A tuple is one layer of peers that may use each other: errors carry the
# model's values (a size, an option) and the model's parsers throw them.
FLOWS = {
    "GlsliceKit": [("Model", "Errors"), "System", "Timing", "Work", "Source", "Plan", "CPU", "GL", "Deflate", "Output", "PNG",
                   "GPUDeflate", "GPUDraw", "WebP", "Backend", "Engine", "Render", "Parity", "Assets", "Batch"],
    "GlsliceServe": ["Request", "Rendering", "Preview", "HTTP"],
}


def layers(flow):
    """Each folder of a flow and its layer's index."""
    return {folder: index for index, layer in enumerate(flow) for folder in (layer if isinstance(layer, tuple) else (layer,))}


def check(target, flow):
    root = os.path.join(SOURCES, target)
    layer = layers(flow)
    order = list(layer)
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
    for folder in order:
        for name in sorted(os.listdir(os.path.join(root, folder))):
            if not name.endswith(".swift"):
                continue
            code = re.sub(r"//.*", "", open(os.path.join(root, folder, name), encoding="utf-8").read())
            # Strings' words are not uses, but what they interpolate is ("\(RepeatDeflater.maxDistance)").
            code = re.sub(r'"[^"\n]*"', lambda m: " ".join(re.findall(r"\\\((.*?)\)", m.group(0))), code)
            for type_name, owner in home.items():
                if layer[owner] > layer[folder] and re.search(r"\b" + type_name + r"\b", code):
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


def check_layout_table():
    """docs/DESIGN.md's layout has a section for each of GlsliceKit's folders and no
    other; every type it names in a folder's section is declared in that folder; and every
    file named after a type it declares is named in its folder's section."""
    design = open(os.path.join(SOURCES, "..", "docs", "DESIGN.md"), encoding="utf-8").read()
    # Each folder's section: a "#### `Sources/GlsliceKit/Folder`" heading and its text up to the next heading.
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^#### `Sources/GlsliceKit/(\w+)`[^\n]*\n(.*?)(?=^#|\Z)", design, re.M | re.S)}
    root = os.path.join(SOURCES, "GlsliceKit")
    folders = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    problems = 0
    for folder in sorted(set(folders) - set(rows)):
        print(f"check-flow: docs/DESIGN.md's layout has no section for Sources/GlsliceKit/{folder}")
        problems += 1
    for folder in sorted(set(rows) - set(folders)):
        print(f"check-flow: docs/DESIGN.md's layout has a section for Sources/GlsliceKit/{folder}, which does not exist")
        problems += 1
    named = 0
    for folder in sorted(set(rows) & set(folders)):
        declared = set()
        for name in os.listdir(os.path.join(root, folder)):
            if name.endswith(".swift"):
                text = open(os.path.join(root, folder, name), encoding="utf-8").read()
                declared.update(re.findall(r"(?:class|struct|enum|protocol|actor|typealias|extension)\s+([A-Z]\w*)", text))
                declared.update(re.findall(r"(?:class|struct|enum|protocol)\s+([A-Z]\w*)", text))
        # A file with no type of its name (extensions, free functions) is named by its stem.
        files = {name[:-len(".swift")] for name in os.listdir(os.path.join(root, folder)) if name.endswith(".swift")}
        names = re.findall(r"`([A-Z][A-Za-z0-9]*)(?:\.\w+)?`", rows[folder])
        for type_name in names:
            named += 1
            if type_name not in declared | files:
                print(f"check-flow: docs/DESIGN.md's section for {folder}/ names `{type_name}`, which is not declared there")
                problems += 1
        for name in sorted(os.listdir(os.path.join(root, folder))):
            stem = name[:-len(".swift")]
            if name.endswith(".swift") and stem in declared and stem not in names:
                print(f"check-flow: docs/DESIGN.md's section for {folder}/ does not name `{stem}` ({folder}/{name})")
                problems += 1
    print(f"check-flow: the layout's {len(rows)} folder sections name {named} types, each declared in its folder")
    return problems


def check_design_readable():
    """docs/DESIGN.md's lines are at most 200 characters, and every capitalised name it puts in
    backticks is in the code: a word of a source, test, bench or shader, or a file's or folder's name
    (and `Name.member`'s member declared: a func, var, let or case)."""
    root = os.path.join(SOURCES, "..")
    design = open(os.path.join(root, "docs", "DESIGN.md"), encoding="utf-8").read()
    problems = 0
    for number, line in enumerate(design.split("\n"), 1):
        if len(line) > 200:
            print(f"check-flow: docs/DESIGN.md:{number} is {len(line)} characters; keep lines to 200")
            problems += 1
    words, names, members, functions = set(), set(), set(), set()
    for top in ("Sources", "Tests", "Benchmarks", "Fuzz", "Shaders", "Scripts"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            names.update(dirs)
            for name in files:
                names.add(name.rsplit(".", 1)[0])
                if name.endswith((".swift", ".c", ".h", ".comp", ".vert", ".frag", ".py", ".sh")):
                    text = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
                    words.update(re.findall(r"\w+", text))
                    members.update(re.findall(r"\b(?:func|var|let|case)\s+(\w+)", text))
                    functions.update(re.findall(r"\bfunc\s+(\w+)", text))
    for name, member, call in sorted(set(re.findall(r"`([A-Z]\w*)(?:\.([a-z]\w*))?(\(?)[^`]*`", design))):
        if member in ("swift", "init"):
            member = ""
        for word, known in ((name, words | names), (member, functions if call else members)):
            if word and word not in known:
                print(f"check-flow: docs/DESIGN.md names `{name}{'.' + member if member else ''}`, whose `{word}` is nowhere in the code")
                problems += 1
    print(f"check-flow: docs/DESIGN.md's lines within 200 characters, and its names in the code")
    return problems


total = (sum(check(target, order) for target, order in FLOWS.items()) + check_one_concept_per_file()
         + check_layout_table() + check_design_readable())
sys.exit(1 if total else 0)
