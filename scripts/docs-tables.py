#!/usr/bin/env python3
"""Writes the docs' tables of measured numbers from the benchmarks' JSON
files, so that no measured number in docs/ is typed by hand.

A generated table sits between two markers in a document:

    <!-- table: NAME (scripts/docs-tables.py; do not edit) -->
    ...
    <!-- end of table: NAME -->

usage: docs-tables.py [--check] ROOT
  Without --check, rewrites each table from its JSON file; with it, changes
  nothing and fails (listing them) if a table differs from what its JSON
  file gives or a document lacks its markers.
"""
import json
import os
import re
import sys


def number(value, digits=2):
    return "%.*f" % (digits, value)


WORKLOAD_NAMES = {"gmm": "GMM", "ba": "BA", "lstm": "LSTM", "ode": "ODE",
                  "det": "det"}


def compile_tables(results):
    """The compile-time tables of docs/Performance.md, from
    bench/compile-results.json (bench/compile/run.py)."""
    rows = results["results"]
    lines = [
        "| generated function | with plugin s | plain s | Cotangent s "
        "| growth (with plugin) | growth (plain) | growth (Cotangent) "
        "| compiles |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        if row["kind"] != "generated":
            continue
        growth = [number(row[key]) if key in row else ""
                  for key in ("plugin_growth", "plain_growth",
                              "cotangent_growth")]
        lines.append("| %s statements | %s | %s | %s | %s | %s | %s | %s |" % (
            "{:,}".format(row["statements"]), number(row["plugin_s"]),
            number(row["plain_s"]), number(row["cotangent_s"]), *growth,
            row.get("repeats", 3)))
    check = results.get("growth_check")
    if check:
        lines += ["", "Largest growth of the compile with the plugin per "
                  "doubling: %s (limit %s): %s." % (
                      number(check["max_growth"]), check["limit"],
                      "met" if check["met"] else "not met")]
    lines += [
        "",
        "| workload file | with plugin s | plain s | Cotangent s "
        "| with plugin / plain | hand-written derivatives, plain s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        if row["kind"] != "workload":
            continue
        hand = row.get("hand_written_s")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            WORKLOAD_NAMES.get(row["workload"], row["workload"]),
            number(row["plugin_s"]), number(row["plain_s"]),
            number(row["cotangent_s"]), number(row["ratio"]),
            number(hand) if hand else ""))
    return "\n".join(lines)


def megabytes(count):
    return "%.1f MB" % (count / 1e6) if count is not None else ""


def auto_checkpoint_tables(results):
    """The tables of checkpointing without a pragma (docs/Performance.md),
    from bench/auto-checkpoint-results.json (bench/auto_checkpoint.py)."""
    lines = [
        "| workload | primal | as compiled (the compiler chooses) "
        "| every loop recorded | hand-written | as compiled / hand-written "
        "| recorded / hand-written |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in results["workloads"]:
        lines.append("| `%s` | %s ms | %s ms, %s | %s ms, %s | %s ms, %s "
                     "| %s | %s |" % (
                         row["workload"], number(row["primal_ms"], 3),
                         number(row["chosen_ms"], 3),
                         megabytes(row["chosen_peak_bytes"]),
                         number(row["recorded_ms"], 3),
                         megabytes(row["recorded_peak_bytes"]),
                         number(row["manual_ms"], 3),
                         megabytes(row["manual_peak_bytes"]),
                         number(row["chosen_over_manual"]),
                         number(row["recorded_over_manual"])))
    lines += ["", "| workload file | compile with s | without s | with / "
              "without |", "| --- | ---: | ---: | ---: |"]
    for row in results["compile"]:
        lines.append("| %s | %s | %s | %s |" % (
            row["file"], number(row["with_s"]), number(row["without_s"]),
            number(row["ratio"])))
    counts = results["snapshot_counts"]
    lines += ["", "| snapshots (ODE, %s steps, `#pragma ct checkpoint "
              "snapshots(S)`) | gradient |" % "{:,}".format(counts["steps"]),
              "| ---: | ---: |"]
    for snapshots, ms in counts["snapshots_ms"].items():
        lines.append("| %s | %s ms |" % ("{:,}".format(int(snapshots)),
                                         number(ms, 1)))
    return "\n".join(lines)


# (document, table name, JSON file, the function writing the table)
TABLES = [
    ("docs/Performance.md", "compile times", "bench/compile-results.json",
     compile_tables),
    ("docs/Performance.md", "checkpointing without a pragma",
     "bench/auto-checkpoint-results.json", auto_checkpoint_tables),
]


def main():
    args = sys.argv[1:]
    check = "--check" in args
    args = [a for a in args if a != "--check"]
    root = args[0] if args else "."
    problems = []
    for document, name, source, write in TABLES:
        path = os.path.join(root, document)
        with open(path) as f:
            text = f.read()
        with open(os.path.join(root, source)) as f:
            table = write(json.load(f))
        begin = "<!-- table: %s (scripts/docs-tables.py; do not edit) -->" % name
        end = "<!-- end of table: %s -->" % name
        pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end),
                             re.DOTALL)
        if not pattern.search(text):
            problems.append("%s: no markers for the table '%s'" %
                            (document, name))
            continue
        wanted = pattern.sub(lambda _: begin + "\n" + table + "\n" + end, text)
        if wanted == text:
            continue
        if check:
            problems.append("%s: the table '%s' differs from %s" %
                            (document, name, source))
        else:
            with open(path, "w") as f:
                f.write(wanted)
    for problem in problems:
        print(problem)
    print("%d tables, %d problems" % (len(TABLES), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
