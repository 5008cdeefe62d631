"""docs/Eigen.md's table of the Eigen tests' compile times with the plugin
against plain Clang, from bench/eigen-compile-results.json
(bench/eigen_compile.py)."""
from .common import number

CONFIGURATIONS = ("-O0, scalar", "-O2, SSE2")


def eigen_compile_table(results):
    header = "| file |"
    rule = "| --- |"
    for name in CONFIGURATIONS:
        header += " %s: plain (s) | %s: plugin (s) | %s: ratio |" % (
            name, name, name)
        rule += " ---: | ---: | ---: |"
    lines = [header, rule]
    for row in results["files"]:
        cells = ["`%s`" % row["file"]]
        for name in CONFIGURATIONS:
            times = row[name]
            cells += [number(times["plain_s"], 1), number(times["plugin_s"], 1),
                      number(times["ratio"])]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
