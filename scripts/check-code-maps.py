#!/usr/bin/env python3
"""Checks the docs' code maps and file references against the tree.

A code map is a Markdown table right after a line
`<!-- code map: FOLDER -->` (or `<!-- code map: FOLDER recursive -->`).
Its first column names files of FOLDER in backticks: `Name.cpp`,
`Name.{h,cpp}`, or, in a recursive map, paths under FOLDER
(`Analysis/Activity.cpp`). The map must name every source file of the
folder (a recursive one: of its subfolders too), and only files that exist.

Every other file name in the docs that looks like one of ours (a path with
a folder, or a CamelCase name with a source extension) must name a file of
the tree (a path from the root, or the end of one).

Usage: check-code-maps.py [--plant PATH] [ROOT]; prints each problem,
exits 1 if any. --plant adds PATH to the tree's files, as a test that the
check fails on a file no map names.
"""

import pathlib
import re
import subprocess
import sys

SOURCE = (".cpp", ".h", ".td")
DOCS = ("README.md", "CONTRIBUTING.md", "docs")
MARK = re.compile(r"<!-- code map: (\S+)( recursive)? -->")
NAME = re.compile(r"`([^`\s]+)`")
REFERENCE = re.compile(
    r"(?<![\w./<>*-])((?:[\w.-]+/)*[\w.-]*?\b[\w-]+\.(?:cpp|h|td|py|sh|mlir))\b")


def tracked_files(root):
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                         cwd=root, capture_output=True, text=True, check=True)
    return [line for line in out.stdout.splitlines() if line]


def expand(name):
    """`A.{h,cpp}` names A.h and A.cpp."""
    match = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", name)
    if not match:
        return [name]
    head, alternatives, tail = match.groups()
    return [head + a + tail for a in alternatives.split(",")]


def read_map(lines, start):
    """The names in the first column of the table after line `start`."""
    names = []
    for line in lines[start + 1:]:
        if not line.startswith("|"):
            if names or line.strip():
                break
            continue
        first = line.split("|")[1]
        for name in NAME.findall(first):
            names.extend(expand(name))
    return names


def check_map(root, files, doc, folder, recursive, names, problems):
    prefix = folder.rstrip("/") + "/"
    expected = set()
    for f in files:
        if not f.startswith(prefix) or not f.endswith(SOURCE):
            continue
        rest = f[len(prefix):]
        if "/" in rest and not recursive:
            continue
        expected.add(rest)
    named = set(names)
    for missing in sorted(expected - named):
        problems.append(f"{doc}: the code map of {folder} does not name "
                        f"{missing}")
    for extra in sorted(named - expected):
        problems.append(f"{doc}: the code map of {folder} names {extra}, "
                        f"which is not a source file there")


def check_references(doc, text, files, problems):
    suffixes = set()
    for f in files:
        parts = f.split("/")
        for i in range(len(parts)):
            suffixes.add("/".join(parts[i:]))
    for match in REFERENCE.finditer(text):
        for name in expand(match.group(1)):
            base = name.split("/")[-1]
            ours = "/" in name or base[:1].isupper()
            if ours and name.lstrip("./") not in suffixes:
                problems.append(f"{doc}: names {name}, which is not a file "
                                f"of the tree")


def main():
    args = sys.argv[1:]
    planted = []
    while args and args[0] == "--plant":
        planted.append(args[1])
        args = args[2:]
    root = pathlib.Path(args[0] if args else ".").resolve()
    files = tracked_files(root) + planted
    docs = []
    for entry in DOCS:
        path = root / entry
        docs.extend(sorted(path.rglob("*.md")) if path.is_dir() else [path])
    problems = []
    maps = 0
    for path in docs:
        doc = str(path.relative_to(root))
        text = path.read_text()
        lines = text.splitlines()
        for i, line in enumerate(lines):
            mark = MARK.search(line)
            if mark:
                maps += 1
                check_map(root, files, doc, mark.group(1),
                          bool(mark.group(2)), read_map(lines, i), problems)
        if doc != "docs/Dialect/CT.md":
            check_references(doc, text, files, problems)
    for problem in problems:
        print(problem)
    print(f"{maps} code maps, {len(docs)} documents, "
          f"{len(problems)} problems")
    return 1 if problems or maps == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
