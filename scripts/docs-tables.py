#!/usr/bin/env python3
"""Writes the docs' tables of measured numbers from the benchmarks' JSON
files, so that no measured number in docs/ is typed by hand.

A generated table sits between two markers in a document:

    <!-- table: NAME (scripts/docs-tables.py; do not edit) -->
    ...
    <!-- end of table: NAME -->

and a number inside a line (README's feature table) between
`<!-- value: NAME (...) -->` and `<!-- end of value: NAME -->`. The
writers are in scripts/doctables/, one file per benchmark.

usage: docs-tables.py [--check] ROOT
  Without --check, rewrites each table from its JSON files; with it, changes
  nothing and fails (listing them) if a table differs from what its JSON
  file gives or a document lacks its markers.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from doctables.checkpointing import auto_checkpoint_tables  # noqa: E402
from doctables.compile import compile_tables  # noqa: E402
from doctables.eigen_compile import eigen_compile_table  # noqa: E402
from doctables.matrix_rules import matrix_rules_table  # noqa: E402
from doctables.memory_model import memory_model_table  # noqa: E402
from doctables.pose_graph import pose_graph_table  # noqa: E402
from doctables.readme import compile_summary, memory_model_summary  # noqa: E402
from doctables.results import (hvp_table, pragma_table,  # noqa: E402
                                results_table)
from doctables.targets import targets_table  # noqa: E402

RESULTS = "bench/results.json"
COMPILE = "bench/compile-results.json"
CHECKPOINTING = "bench/auto-checkpoint-results.json"
MEMORY_MODEL = "bench/memory-model-results.json"
MATRIX_RULES = "bench/matrix-rules-results.json"
EIGEN_COMPILE = "bench/eigen-compile-results.json"
POSE_GRAPH = "bench/pose-graph-results.json"

# (document, name, the JSON files it is written from, the function writing
# it from them, whether it sits inside a line rather than between lines)
TABLES = [
    ("docs/Performance.md", "results", [RESULTS], results_table, False),
    ("docs/Performance.md", "hvp", [RESULTS], hvp_table, False),
    ("docs/Performance.md", "targets", [RESULTS, COMPILE], targets_table,
     False),
    ("docs/Performance.md", "checkpointing with the pragma", [RESULTS],
     pragma_table, False),
    ("docs/Performance.md", "compile times", [COMPILE], compile_tables, False),
    ("docs/Performance.md", "checkpointing without a pragma",
     [CHECKPOINTING], auto_checkpoint_tables, False),
    ("docs/Memory.md", "memory model", [MEMORY_MODEL], memory_model_table,
     False),
    ("docs/Eigen.md", "matrix rules", [MATRIX_RULES], matrix_rules_table,
     False),
    ("docs/Eigen.md", "compile times", [EIGEN_COMPILE], eigen_compile_table,
     False),
    ("docs/Eigen.md", "pose graph", [POSE_GRAPH], pose_graph_table, False),
    ("README.md", "compile time", [COMPILE], compile_summary, True),
    ("README.md", "memory model", [MEMORY_MODEL], memory_model_summary, True),
]


def markers(name, inline):
    kind = "value" if inline else "table"
    return ("<!-- %s: %s (scripts/docs-tables.py; do not edit) -->" % (
        kind, name), "<!-- end of %s: %s -->" % (kind, name))


def rewrite(text, name, content, inline):
    """The text with the generated part named NAME replaced by CONTENT, or
    None if the text lacks its markers."""
    begin, end = markers(name, inline)
    gap = "" if inline else "\n"
    pattern = re.compile(re.escape(begin) + gap + r".*?" + re.escape(end),
                         re.DOTALL)
    if not pattern.search(text):
        return None
    return pattern.sub(lambda _: begin + gap + content + gap + end, text)


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    root = args[0] if args else "."
    problems = []
    for document, name, sources, write, inline in TABLES:
        path = os.path.join(root, document)
        with open(path) as f:
            text = f.read()
        loaded = []
        for source in sources:
            with open(os.path.join(root, source)) as f:
                loaded.append(json.load(f))
        wanted = rewrite(text, name, write(*loaded), inline)
        if wanted is None:
            problems.append("%s: no markers for the %s '%s'" % (
                document, "value" if inline else "table", name))
            continue
        if wanted == text:
            continue
        if check:
            problems.append("%s: the %s '%s' differs from %s" % (
                document, "value" if inline else "table", name,
                " and ".join(sources)))
        else:
            with open(path, "w") as f:
                f.write(wanted)
    for problem in problems:
        print(problem)
    print("%d tables, %d problems" % (len(TABLES), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
