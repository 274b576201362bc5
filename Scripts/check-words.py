#!/usr/bin/env python3
"""Keeps glslice's error words in one place per kind of error.

Every `GlsliceError` is made in one of the catalogues below, one per kind
(as swift-argument-parser words its errors in one generator); serve's own
refusals are in `Refusal`. This fails when

  - a `GlsliceError(...)` or an argument-parser `ValidationError(...)` is made
    anywhere else in Sources/ (words written where they are thrown);
  - a catalogue makes an error of a kind that is not its own, other than
    through a `kind` its caller passes;
  - two entries of the catalogues carry the same words (one condition worded twice);
  - an entry is never used (words nobody can read);
  - a string literal with words in it (a space between letters) is passed into
    a catalogue entry: entries take typed values (a path, a number, a limit, an
    option's or a variable's name), and the words are the catalogue's.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "Sources"
ERRORS = SOURCES / "GlsliceKit" / "Errors"
# catalogue -> the kinds it may make by name
CATALOGUES = {
    "UsageErrors": {".usage"},
    "InputErrors": {".badInput"},
    "FileErrors": {".noInput", ".cannotWrite"},
    "UnavailableErrors": {".unavailable"},
    "InternalErrors": {".internal"},
}
REFUSAL = SOURCES / "GlsliceServe" / "Rendering" / "Refusal.swift"
MADE = re.compile(r"\b(GlsliceError|ValidationError)\(")
KIND = re.compile(r"\bGlsliceError\(\s*([^,\s)]+)")
FUNC = re.compile(r"\bstatic func (\w+)\(")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
CALL = re.compile(r"\b(" + "|".join(CATALOGUES) + r")\.(\w+)\(")
INTERPOLATION = re.compile(r"\\\((?:[^()]|\([^()]*\))*\)")
WORDS = re.compile(r"[A-Za-z]{2,}\s+\S|\S\s+[A-Za-z]{2,}")


def arguments(code, start):
    """The text of a call's arguments, from just after its `(` to its matching `)`."""
    depth, index, in_string = 1, start, False
    while index < len(code) and depth > 0:
        char = code[index]
        if in_string:
            if char == "\\":
                index += 2
                continue
            if char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        index += 1
    return code[start:index - 1]


def fragments(path):
    """(line, call, literal) for each literal with words passed into a catalogue entry."""
    code = "\n".join(line for _, line in code_lines(path))
    for match in CALL.finditer(code):
        for literal in LITERAL.findall(arguments(code, match.end())):
            if WORDS.search(INTERPOLATION.sub("", literal)):
                yield code.count("\n", 0, match.start()) + 1, f"{match.group(1)}.{match.group(2)}", literal


def code_lines(path):
    """Lines with `//` comments removed (doc comments name types freely)."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        yield number, re.sub(r"//.*", "", line)


def words(path):
    """The message literals of a catalogue, interpolations as `…`, fragments under 12 characters left out."""
    text = "\n".join(line for _, line in code_lines(path))
    found = []
    for match in LITERAL.finditer(text):
        shape = re.sub(r"\\\((?:[^()]|\([^()]*\))*\)", "…", match.group(1))
        if len(shape.replace("…", "").strip()) >= 12:
            found.append(shape)
    return found


def main():
    problems = []
    catalogue_files = {ERRORS / f"{name}.swift": name for name in CATALOGUES}
    for path in sorted(SOURCES.rglob("*.swift")):
        relative = path.relative_to(ROOT)
        if path in catalogue_files or path == REFUSAL:
            continue
        for number, line in code_lines(path):
            if MADE.search(line) and "GlsliceError.from(" not in line:
                problems.append(f"{relative}:{number}: an error is worded where it is thrown; "
                                f"add it to the catalogue of its kind ({', '.join(CATALOGUES)})")
        for number, call, literal in fragments(path):
            problems.append(f"{relative}:{number}: {call} is passed the words \"{literal}\"; "
                            f"give the entry typed values and word it in its catalogue")

    for path, name in catalogue_files.items():
        relative = path.relative_to(ROOT)
        if not path.exists():
            problems.append(f"{relative}: missing")
            continue
        for number, line in code_lines(path):
            for kind in KIND.findall(line):
                if kind.startswith(".") and kind not in CATALOGUES[name]:
                    problems.append(f"{relative}:{number}: {name} makes a {kind} error; "
                                    f"it belongs in that kind's catalogue")

    seen = {}
    for path in list(catalogue_files) + [REFUSAL]:
        for shape in words(path):
            if shape in seen and seen[shape] != path:
                problems.append(f"{path.relative_to(ROOT)}: \"{shape}\" is also worded in "
                                f"{seen[shape].relative_to(ROOT)}")
            elif shape in seen:
                problems.append(f"{path.relative_to(ROOT)}: \"{shape}\" is worded twice")
            seen[shape] = path

    everything = "\n".join(p.read_text() for p in SOURCES.rglob("*.swift"))
    for path, name in catalogue_files.items():
        for entry in FUNC.findall(path.read_text()):
            uses = len(re.findall(rf"\b{name}\.{entry}\(", everything))
            inner = len(re.findall(rf"(?<![\w.]){entry}\(", path.read_text())) - 1
            if uses + inner == 0:
                problems.append(f"{path.relative_to(ROOT)}: {name}.{entry} is never used")

    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-words: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    count = sum(len(FUNC.findall(p.read_text())) for p in catalogue_files)
    print(f"check-words: {count} conditions in {len(catalogue_files)} catalogues, none worded twice or elsewhere")
    return 0


if __name__ == "__main__":
    sys.exit(main())
